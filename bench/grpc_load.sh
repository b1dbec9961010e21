#!/usr/bin/env bash
# gRPC load on a live query_service with h2load (Debian's nghttp2-client):
# QPS and latency percentiles of SearchPapers (whole results, and a results
# page with a read_mask), GetPaper and the health check
# (the floor gRPC itself sets) at concurrency 1, 4 and 16, one stream per
# connection. h2load ignores grpc-status, so errors are counted from
# query_service's access log (every call's code).
#
#   bench/grpc_load.sh BUILD_DIR STORE_DIR REQUESTS > rows.md
#
# Prints one markdown table row per RPC and concurrency:
#   | rpc | concurrency | requests | errors | QPS | p50 ms | p95 | p99 | QPS / health QPS |
set -euo pipefail
BUILD_DIR=$1
DB=$2
REQUESTS=$3
WORK=$(mktemp -d)
QS_PID=""
cleanup() { [[ -n "$QS_PID" ]] && kill "$QS_PID" 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT

: >"$WORK/log"  # Exists before the service starts: the port is read from it.
"$BUILD_DIR/query_service/query_service" --db="$DB" --listen=127.0.0.1:0 \
  --max_concurrent_streams=1000 2>"$WORK/log" &
QS_PID=$!
port=""
for _ in $(seq 100); do
  port=$(sed -n 's/.*listening on port \([0-9]*\).*/\1/p' "$WORK/log")
  [[ -n "$port" ]] && break
  sleep 0.1
done
[[ -n "$port" ]] || { echo "grpc_load: query_service did not start" >&2; exit 1; }
id=$(/usr/bin/python3 tools/grpc_call.py "127.0.0.1:$port" call paperdb.v1.QueryService/ListPapers \
  -d '{"page_size": 1}' | sed -n 's/.*"id": "\([^"]*\)".*/\1/p' | head -1)

# Request bodies: the gRPC frame (a zero flag byte and a 4-byte big-endian
# length) around the protobuf message, encoded by hand (field 1, a string:
# tag 0x0a, length, bytes; field 2, a varint: tag 0x10).
/usr/bin/python3 - "$WORK" "$id" <<'PY'
import struct, sys
work, paper_id = sys.argv[1], sys.argv[2]
def string_field(number, text):
    data = text if isinstance(text, bytes) else text.encode()
    assert len(data) < 128
    return bytes([number << 3 | 2, len(data)]) + data
def frame(message):
    return b"\0" + struct.pack(">I", len(message)) + message
bodies = {
    "health": b"",
    "search": string_field(1, "neural networks") + bytes([2 << 3, 10]),
    # A results page: SearchPapers with read_mask (field 9, a FieldMask
    # whose field 1 holds the paths) naming what a list of hits shows.
    "page": string_field(1, "neural networks") + bytes([2 << 3, 10]) +
            string_field(9, b"".join(string_field(1, path) for path in (
                "paper.name", "paper.venue", "paper.year", "score",
                "snippet"))),
    "get": string_field(1, "papers/" + paper_id),
}
for name, message in bodies.items():
    open(f"{work}/{name}.bin", "wb").write(frame(message))
PY

run() {  # run NAME PATH CONCURRENCY: one measured point
  local name=$1 path=$2 c=$3 threads=1
  ((c > 1)) && threads=2
  local before
  before=$(grep -c '"message":"rpc"' "$WORK/log" || true)
  h2load -n "$REQUESTS" -c "$c" -m 1 -t "$threads" \
    -H 'content-type: application/grpc' -H 'te: trailers' \
    -d "$WORK/$name.bin" --log-file="$WORK/$name$c.tsv" \
    "http://127.0.0.1:$port$path" > "$WORK/$name$c.out"
  sleep 0.2  # The access log is written after each reply.
  local calls errors
  calls=$(($(grep -c '"message":"rpc"' "$WORK/log" || true) - before))
  errors=$(tail -n "$calls" "$WORK/log" | grep '"message":"rpc"' | grep -vc '"code":"OK"' || true)
  local qps
  qps=$(sed -n 's/^finished in [^,]*, \([0-9.]*\) req\/s.*/\1/p' "$WORK/$name$c.out")
  /usr/bin/python3 - "$WORK/$name$c.tsv" "$name" "$c" "$REQUESTS" "$errors" "$qps" <<'PY'
import sys
path, name, c, n, errors, qps = sys.argv[1:]
lat = sorted(int(line.split("\t")[2]) / 1000.0 for line in open(path) if line.strip())
def pct(p):
    return lat[min(len(lat) - 1, int(p / 100.0 * len(lat)))]
print(f"{name}\t{c}\t{n}\t{errors}\t{float(qps):.0f}\t{pct(50):.3f}\t{pct(95):.3f}\t{pct(99):.3f}")
PY
}

declare -A health_qps
for c in 1 4 16; do
  for spec in "health /grpc.health.v1.Health/Check" \
              "search /paperdb.v1.QueryService/SearchPapers" \
              "page /paperdb.v1.QueryService/SearchPapers" \
              "get /paperdb.v1.QueryService/GetPaper"; do
    read -r name path <<<"$spec"
    IFS=$'\t' read -r rname rc rn rerr rqps p50 p95 p99 < <(run "$name" "$path" "$c")
    [[ "$name" == health ]] && health_qps[$c]=$rqps
    ratio=$(/usr/bin/python3 -c "print(f'{$rqps / max(${health_qps[$c]}, 1):.0%}')")
    label=$path
    [[ "$name" == page ]] && label="$path (read_mask)"
    echo "| \`${label#/}\` | $rc | $rn | $rerr | $rqps | $p50 | $p95 | $p99 | $ratio |"
  done
done
