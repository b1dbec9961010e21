#!/usr/bin/env bash
# Installs what is missing (tools/install_deps.sh), then configures and builds
# paperdb with CMake + Ninja (+ ccache) into ${BUILD_DIR:-build}.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/install_deps.sh
BUILD_DIR=${BUILD_DIR:-build}
if [[ ! -f "$BUILD_DIR/build.ninja" ]]; then
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-RelWithDebInfo}" \
    ${CMAKE_ARGS:-}
fi
cmake --build "$BUILD_DIR"
