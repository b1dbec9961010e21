#!/usr/bin/env bash
# Installs what is missing (tools/install_deps.sh), then configures and builds
# paperdb with CMake + Ninja (+ ccache) into ${BUILD_DIR:-build}: every target
# (services, tests, benchmarks), or only the CMake targets given as arguments
# (tools/quickstart.sh builds just the two services).
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/install_deps.sh
BUILD_DIR=${BUILD_DIR:-build}
if [[ ! -f "$BUILD_DIR/build.ninja" ]]; then
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-RelWithDebInfo}" \
    ${CMAKE_ARGS:-}
fi
if (($# > 0)); then
  cmake --build "$BUILD_DIR" --target "$@"
else
  cmake --build "$BUILD_DIR"
fi
