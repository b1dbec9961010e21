# Shared set-up of the smoke tests, sourced after `BUILD` and `SRC` are set:
# a work directory removed on exit with the services started there
# (QS_PID, IS_PID), fail(), the binaries' paths and port_of().
# shellcheck shell=bash disable=SC2034  # The sourcing scripts use the paths.
WORK=$(mktemp -d)
QS_PID=""
IS_PID=""
cleanup() {
  [[ -n "$QS_PID" ]] && kill "$QS_PID" 2>/dev/null || true
  [[ -n "$IS_PID" ]] && kill "$IS_PID" 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
INGEST="$BUILD/ingest_service/ingest_service"
QUERY="$BUILD/query_service/query_service"
CALL="$SRC/tools/grpc_call.py"

# The port a service logged ("listening on port N") in file $1, waiting
# for it.
port_of() {
  local port=""
  for _ in $(seq 100); do
    port=$(sed -n 's/.*listening on port \([0-9]*\).*/\1/p' "$1")
    [[ -n "$port" ]] && break
    sleep 0.1
  done
  [[ -n "$port" ]] || fail "no port in $1: $(cat "$1")"
  echo "$port"
}
