#!/usr/bin/env bash
# Memory of both services under write churn: ingests a generated file of
# 100,000 short paragraphs (9.5 MB) through IngestService/IngestFile, then
# deletes it (DeleteSource), ROUNDS times, while query_service serves
# searches; prints each service's resident set size after every round, and
# first the peak memory of a one-shot ingest of that file.
# Usage: bench/memory_churn.sh [ROUNDS]   (default 6; build first)
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-6}
BUILD_DIR=${BUILD_DIR:-build}
PY=/usr/bin/python3
WORK=$(mktemp -d)
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$WORK"; }
trap cleanup EXIT
"$PY" - "$WORK" <<'PYEOF'
import base64, json, random, sys
work = sys.argv[1]
random.seed(1)
words = ("graph neural network transformer attention diffusion model learning "
         "data training loss policy reward agent image text language robust "
         "sparse kernel gradient optimization").split()
paras = [" ".join(random.choice(words) for _ in range(12)) + "."
         for _ in range(100000)]
body = ("ICLR 2024 论文列表\n\n" + "\n\n".join(paras) + "\n").encode()
msgs = []
for i in range(0, len(body), 1 << 20):
    m = {"content": base64.b64encode(body[i:i + (1 << 20)]).decode()}
    if i == 0:
        m["file_name"] = "churn.txt"
    msgs.append(m)
open(f"{work}/upload.json", "w").write("\n".join(json.dumps(m) for m in msgs))
PYEOF
"$BUILD_DIR/ingest_service/ingest_service" --db="$WORK/db" data/ >/dev/null
# Peak memory of a one-shot ingest of the same file, for docs/ingest.md.
"$PY" -c 'import base64, json, sys
with open(sys.argv[2], "wb") as out:
    for line in open(sys.argv[1]):
        out.write(base64.b64decode(json.loads(line)["content"]))' \
  "$WORK/upload.json" "$WORK/churn.txt"
/usr/bin/time -f "one-shot ingest of the 100,000-paragraph file: peak RSS %M KB" \
  "$BUILD_DIR/ingest_service/ingest_service" --db="$WORK/peak_db" "$WORK/churn.txt" 2>&1 >/dev/null |
  grep "peak RSS"
port() {  # A free loopback port.
  "$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}
IPORT=$(port)
"$BUILD_DIR/ingest_service/ingest_service" --db="$WORK/db" serve \
  --listen="127.0.0.1:$IPORT" 2>"$WORK/ingest.log" &
PIDS+=($!); IPID=$!
QPORT=$(port)
"$BUILD_DIR/query_service/query_service" --db="$WORK/db" \
  --listen="127.0.0.1:$QPORT" 2>"$WORK/query.log" &
PIDS+=($!); QPID=$!
call() { "$PY" tools/grpc_call.py "$@" >/dev/null; }
for _ in $(seq 100); do
  call -d '{}' "127.0.0.1:$QPORT" call grpc.health.v1.Health/Check 2>/dev/null &&
    call -d '{}' "127.0.0.1:$IPORT" call grpc.health.v1.Health/Check 2>/dev/null && break
  sleep 0.2
done
rss() { awk '/VmRSS/ { printf "%.0f", $2 / 1024 }' "/proc/$1/status"; }
search() {
  for _ in 1 2 3; do
    call -d '{"query": "graph neural", "page_size": 10}' "127.0.0.1:$QPORT" \
      call paperdb.v1.QueryService/SearchPapers
    sleep 1
  done
}
echo "round  query_service MB  ingest_service serve MB  (after ingest / after delete)"
for i in $(seq "$ROUNDS"); do
  call -d @ "127.0.0.1:$IPORT" call paperdb.v1.IngestService/IngestFile <"$WORK/upload.json"
  search
  after_ingest="$(rss "$QPID") $(rss "$IPID")"
  call -d '{"file_name": "churn.txt"}' "127.0.0.1:$IPORT" call paperdb.v1.IngestService/DeleteSource
  search
  read -r q1 i1 <<<"$after_ingest"
  echo "$i  $q1 / $(rss "$QPID")  $i1 / $(rss "$IPID")"
done
