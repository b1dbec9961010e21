#!/usr/bin/env bash
# Smoke test of the checkpoint mode with the two binaries: `ingest_service
# checkpoint` publishes a store, `verify` passes on the checkpoint, and
# `query_service --follow_checkpoints` reports NOT_SERVING until a complete
# checkpoint arrives (a copy without its marker is not served), then
# SERVING; a standalone checkpoint taken while a writer runs holds its
# unflushed writes; and query_service switches to the checkpoints a serving
# writer (`ingest_service serve --checkpoint_dir`) publishes after a change.
# Usage: checkpoint_smoke_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
BUILD=$1
SRC=$2
# shellcheck source=tests/smoke/smoke_common.sh
source "$(dirname "$0")/smoke_common.sh"

# Refused arguments: exit status 2 for usage, 1 for a missing store.
set +e
out=$("$QUERY" --db="$WORK/db" --follow_checkpoints="$WORK/follow" 2>&1)
[[ $? -eq 2 ]] && grep -q 'give one of --db and --follow_checkpoints' <<<"$out" \
  || fail "both modes: $out"
out=$("$INGEST" checkpoint --db="$WORK/db" 2>&1)
[[ $? -eq 2 ]] && grep -q 'needs --db, --out' <<<"$out" || fail "no --out: $out"
out=$("$INGEST" checkpoint --db="$WORK/nothing" --out="$WORK/pub" 2>&1)
[[ $? -eq 1 ]] && grep -q "no paperdb store at $WORK/nothing" <<<"$out" || fail "no store: $out"
set -e
[[ ! -e "$WORK/nothing" && ! -e "$WORK/pub" ]] || fail "a refused checkpoint left files behind"

"$INGEST" --db="$WORK/db" "$SRC/data" >/dev/null || fail "ingest"
out=$("$INGEST" checkpoint --db="$WORK/db" --out="$WORK/pub") || fail "checkpoint: $out"
grep -Eq "^$WORK/pub/ckpt-[0-9]{20}: sequence [0-9]+, 76 papers$" <<<"$out" || fail "checkpoint: $out"
CKPT=$(ls "$WORK/pub")
[[ $(ls -A "$WORK/pub" | wc -l) -eq 1 ]] || fail "publish dir: $(ls -A "$WORK/pub")"
grep -q '^papers 76$' "$WORK/pub/$CKPT/COMPLETE" || fail "marker: $(cat "$WORK/pub/$CKPT/COMPLETE")"
out=$("$INGEST" verify --db="$WORK/pub/$CKPT") || fail "verify checkpoint: $out"
grep -q ': 4 files, 76 papers, .* 0 problems$' <<<"$out" || fail "verify checkpoint: $out"
# Nothing changed: the same checkpoint again, nothing new.
out=$("$INGEST" checkpoint --db="$WORK/db" --out="$WORK/pub") || fail "checkpoint again: $out"
[[ $(ls -A "$WORK/pub") == "$CKPT" ]] || fail "second checkpoint: $(ls -A "$WORK/pub")"

mkdir "$WORK/follow"
: >"$WORK/qs.log"
"$QUERY" --follow_checkpoints="$WORK/follow" --checkpoint_poll_ms=100 \
  --listen=127.0.0.1:0 2>"$WORK/qs.log" &
QS_PID=$!
ADDR=127.0.0.1:$(port_of "$WORK/qs.log")
out=$("$CALL" "$ADDR" call grpc.health.v1.Health/Check -d '{"service": "paperdb.v1.QueryService"}')
grep -q '"status": "NOT_SERVING"' <<<"$out" || fail "health before a checkpoint: $out"
"$QUERY" probe --listen="$ADDR" >/dev/null && fail "probe before a checkpoint succeeded"
# A copy without its marker (cut short) is not served. The copy is made
# aside and renamed in, so the follower never sees it with its marker.
cp -r "$WORK/pub/$CKPT" "$WORK/staged"
rm "$WORK/staged/COMPLETE"
mv "$WORK/staged" "$WORK/follow/$CKPT"
sleep 0.5
"$QUERY" probe --listen="$ADDR" >/dev/null && fail "a checkpoint without its marker was served"
cp "$WORK/pub/$CKPT/COMPLETE" "$WORK/follow/$CKPT/COMPLETE"
for _ in $(seq 50); do
  "$QUERY" probe --listen="$ADDR" >/dev/null && break
  sleep 0.1
done
out=$("$QUERY" probe --listen="$ADDR") || fail "probe after the checkpoint: $out"
out=$("$CALL" "$ADDR" call paperdb.v1.QueryService/SearchPapers \
  -d '{"query": "spiking neural networks delays", "page_size": 1}')
grep -q '"fileName": "004_0ef8dce93850603c.txt"' <<<"$out" || fail "search: $out"

# While a writer holds the store, a standalone checkpoint reads it as a
# secondary instance, and includes what the writer has not flushed yet
# (the write-ahead log, replayed when the checkpoint is opened).
: >"$WORK/is1.log"
"$INGEST" serve --db="$WORK/db" --listen=127.0.0.1:0 2>"$WORK/is1.log" &
IS_PID=$!
IADDR=127.0.0.1:$(port_of "$WORK/is1.log")
body=$(printf '{"file_name": "old.txt"}{"content": "%s"}' \
  "$(printf 'NeurIPS 2023 paper list\n\nWe introduce Zorbformer, a model of tides.\n' | base64 -w0)")
out=$("$CALL" "$IADDR" call paperdb.v1.IngestService/IngestFile -d "$body")
grep -q '"added": 1' <<<"$out" || fail "streamed ingest: $out"
out=$("$INGEST" checkpoint --db="$WORK/db" --out="$WORK/pub2" 2>&1) \
  || fail "checkpoint while a writer runs: $out"
grep -q ', 77 papers$' <<<"$out" || fail "checkpoint while a writer runs: $out"
CKPT2=$(ls "$WORK/pub2")
[[ -n $(find "$WORK/pub2/$CKPT2" -name '*.log' -size +0) ]] || fail "no write-ahead log in $CKPT2"
out=$("$INGEST" verify --db="$WORK/pub2/$CKPT2") || fail "verify: $out"
grep -q ': 5 files, 77 papers, .* 0 problems$' <<<"$out" || fail "verify: $out"
kill -TERM "$IS_PID"
wait "$IS_PID" || fail "ingest_service exit status $? after SIGTERM"

# The serving writer publishes into the followed directory itself (one
# machine here; across machines a transport copies them); a streamed file
# makes a new checkpoint, which query_service switches to.
: >"$WORK/is.log"
"$INGEST" serve --db="$WORK/db" --listen=127.0.0.1:0 --checkpoint_dir="$WORK/follow" \
  --checkpoint_interval_seconds=1 --checkpoint_keep=2 2>"$WORK/is.log" &
IS_PID=$!
IADDR=127.0.0.1:$(port_of "$WORK/is.log")
body=$(printf '{"file_name": "new.txt"}{"content": "%s"}' \
  "$(printf 'NeurIPS 2023 paper list\n\nWe introduce Quuxformer, a tokenizer-free model.\n' | base64 -w0)")
out=$("$CALL" "$IADDR" call paperdb.v1.IngestService/IngestFile -d "$body")
grep -q '"added": 1' <<<"$out" || fail "streamed ingest: $out"
found=""
for _ in $(seq 100); do
  out=$("$CALL" "$ADDR" call paperdb.v1.QueryService/SearchPapers -d '{"query": "quuxformer"}')
  grep -q '"totalSize": "1"' <<<"$out" && { found=1; break; }
  sleep 0.1
done
[[ -n "$found" ]] || fail "new checkpoint not served: $out $(cat "$WORK/qs.log")"
grep -q 'checkpoint published: .*, 78 papers' "$WORK/is.log" || fail "writer log: $(cat "$WORK/is.log")"
grep -q 'serving checkpoint .*, 78 papers' "$WORK/qs.log" || fail "query log: $(cat "$WORK/qs.log")"
[[ $(ls "$WORK/follow" | wc -l) -eq 2 ]] || fail "kept checkpoints: $(ls "$WORK/follow")"
kill -TERM "$IS_PID"
wait "$IS_PID" || fail "ingest_service exit status $? after SIGTERM"
IS_PID=""
kill -TERM "$QS_PID"
wait "$QS_PID" || fail "query_service exit status $? after SIGTERM"
QS_PID=""
echo "checkpoint smoke test: ok"
