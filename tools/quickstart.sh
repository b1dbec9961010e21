#!/usr/bin/env bash
# The main job in one command: installs what is missing, builds, ingests the
# bundled ICLR 2024 lists (data/) into ${DB:-/tmp/paperdb-quickstart}, and runs
# the query service on ${LISTEN:-127.0.0.1:50051} until Ctrl-C.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/build.sh ingest_service query_service  # not the tests
BUILD_DIR=${BUILD_DIR:-build}
LISTEN=${LISTEN:-127.0.0.1:50051}
if [[ -z "${DB:-}" ]]; then
  # The default store is the quick start's own scratch directory: start it
  # afresh, so a store left by an older paperdb (another schema) is no
  # obstacle. A DB=... given by the user is never removed.
  DB=/tmp/paperdb-quickstart
  rm -rf "$DB"
fi
"$BUILD_DIR/ingest_service/ingest_service" --db="$DB" data/
echo "query_service: serving $DB on $LISTEN (Ctrl-C to stop); try:"
echo "  tools/grpc_call.py $LISTEN call paperdb.v1.QueryService/SearchPapers -d '{\"query\": \"spiking neural networks delays\"}'"
exec "$BUILD_DIR/query_service/query_service" --db="$DB" --listen="$LISTEN"
