#!/usr/bin/env bash
# Builds paperdb (tools/build.sh) and runs the whole test suite with ctest:
# unit tests, end-to-end tests over loopback gRPC, and the command-line smoke
# test of both binaries.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/build.sh
BUILD_DIR=${BUILD_DIR:-build}
# Tests name their directories after themselves under GoogleTest's TempDir():
# a directory of this run's own (TEST_TMPDIR), so that two runs at once (two
# build directories, or two checkouts) never share one.
TEST_TMPDIR=$(mktemp -d)
export TEST_TMPDIR
trap 'rm -rf "$TEST_TMPDIR"' EXIT
ctest --test-dir "$BUILD_DIR" --output-on-failure -j2 "$@"
