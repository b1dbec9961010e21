#!/usr/bin/env bash
# The per-call cost of a gRPC answer in server instructions (Callgrind,
# Debian's valgrind): query_service on the bundled corpus answers N calls of
# the health check, SearchPapers with whole results and SearchPapers with a
# results-page read_mask (the requests of bench/grpc_load.sh), sent one at a
# time by h2load. Each RPC is run with 1 call and with N+1, and the
# difference divided by N, so start-up and first-use costs (the thesaurus,
# the block cache) drop out. Prints a markdown table of instructions per call
# and, for SearchPapers, its parts (inclusive costs).
#
#   bench/rpc_profile.sh [BUILD_DIR] [N]      # N defaults to 200
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${1:-build}
N=${2:-200}
WORK=$(mktemp -d)
QS_PID=""
cleanup() { [[ -n "$QS_PID" ]] && kill "$QS_PID" 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT
for tool in valgrind callgrind_annotate h2load; do
  command -v "$tool" >/dev/null ||
    { echo "rpc_profile: needs $tool (apt-get install valgrind nghttp2-client)" >&2; exit 1; }
done
"$BUILD_DIR/ingest_service/ingest_service" --db="$WORK/db" data/ >/dev/null

/usr/bin/python3 - "$WORK" <<'PY'
import struct, sys
work = sys.argv[1]
def string_field(number, text):
    data = text if isinstance(text, bytes) else text.encode()
    return bytes([number << 3 | 2, len(data)]) + data
def frame(message):
    return b"\0" + struct.pack(">I", len(message)) + message
query = string_field(1, "neural networks") + bytes([2 << 3, 10])
mask = string_field(9, b"".join(string_field(1, p) for p in (
    "paper.name", "paper.venue", "paper.year", "score", "snippet")))
for name, message in {"health": b"", "search": query,
                      "page": query + mask}.items():
    open(f"{work}/{name}.bin", "wb").write(frame(message))
PY

profile() {  # profile NAME PATH CALLS: writes $WORK/NAME.CALLS.out
  local name=$1 path=$2 calls=$3
  : >"$WORK/log"
  valgrind --tool=callgrind --callgrind-out-file="$WORK/$name.$calls.out" \
    "$BUILD_DIR/query_service/query_service" --db="$WORK/db" \
    --listen=127.0.0.1:0 2>"$WORK/log" &
  QS_PID=$!
  local port=""
  for _ in $(seq 600); do
    port=$(sed -n 's/.*listening on port \([0-9]*\).*/\1/p' "$WORK/log")
    [[ -n "$port" ]] && break
    sleep 0.1
  done
  [[ -n "$port" ]] || { echo "rpc_profile: query_service did not start" >&2; exit 1; }
  h2load -n "$calls" -c 1 -m 1 -t 1 -H 'content-type: application/grpc' \
    -H 'te: trailers' -d "$WORK/$name.bin" "http://127.0.0.1:$port$path" >/dev/null
  kill -TERM "$QS_PID"
  wait "$QS_PID" || true
  QS_PID=""
}

# Inclusive instructions of the functions matching PATTERN in a profile.
cost() {  # cost FILE PATTERN
  callgrind_annotate --inclusive=yes "$1" 2>/dev/null |
    awk -v pattern="$2" '$0 ~ pattern { gsub(",", "", $1); print $1; exit }'
}
per_call() {  # per_call NAME PATTERN
  local one many
  one=$(cost "$WORK/$1.1.out" "$2")
  many=$(cost "$WORK/$1.$((N + 1)).out" "$2")
  [[ "$one" =~ ^[0-9]+$ ]] || one=0  # Not called: no line for it.
  [[ "$many" =~ ^[0-9]+$ ]] || many=0
  echo $(((${many:-0} - ${one:-0}) / N))
}

for spec in "health /grpc.health.v1.Health/Check" \
            "search /paperdb.v1.QueryService/SearchPapers" \
            "page /paperdb.v1.QueryService/SearchPapers"; do
  read -r name path <<<"$spec"
  profile "$name" "$path" 1
  profile "$name" "$path" $((N + 1))
done

k() { /usr/bin/python3 -c "print(f'{$1 / 1000:.0f} K')"; }
health=$(per_call health "PROGRAM TOTALS")
echo "| call | instructions per call | of which | |"
echo "|---|---:|---|---:|"
echo "| health check | $(k "$health") | | |"
for name in search page; do
  label="SearchPapers, whole results"
  [[ $name == page ]] && label="SearchPapers, results-page read_mask"
  total=$(per_call "$name" "PROGRAM TOTALS")
  echo "| $label | $(k "$total") | | |"
  for part in "QueryEngine::SearchPapers\\(|the engine's answer" \
              "PaperTable::GetMany|reading the records" \
              "query::HighlightsOf|highlights" \
              "query::BuildSearchResult|building results (snippets)" \
              "ResultTrimmer::Trim|read_mask trimming" \
              "GenericSerialize<grpc::ProtoBufferWriter, paperdb::v1::SearchPapersResponse>|serializing"; do
    pattern=${part%%|*}
    what=${part#*|}
    echo "| | | $what | $(k "$(per_call "$name" "$pattern")") |"
  done
done
