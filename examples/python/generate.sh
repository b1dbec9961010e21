#!/bin/sh
# Generates the Python stubs for paperdb's protos into examples/python/gen/
# (git-ignored), with Debian's python3-grpc-tools. Run it again after a
# change to proto/.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$here/gen"
mkdir -p "$here/gen"
cd "$here/../../proto"
/usr/bin/python3 -m grpc_tools.protoc -I . -I /usr/share/grpc-proto \
    --python_out="$here/gen" --grpc_python_out="$here/gen" paperdb/v1/*.proto
