#!/usr/bin/env bash
# Builds paperdb (tools/build.sh) and runs the whole test suite with ctest:
# unit tests, end-to-end tests over loopback gRPC, and the command-line smoke
# test of both binaries.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/build.sh
BUILD_DIR=${BUILD_DIR:-build}
ctest --test-dir "$BUILD_DIR" --output-on-failure -j2 "$@"
