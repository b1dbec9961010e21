#!/usr/bin/env bash
# Smoke test of the two binaries as a user runs them: one-shot ingest of the
# bundled lists (twice), a rejected file, then query_service on a free
# loopback port answering health, search and lookup through server
# reflection (tools/grpc_call.py), a file ingested by another process while
# it serves, and a clean exit on SIGTERM.
# Usage: cli_smoke_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
BUILD=$1
SRC=$2
# shellcheck source=tests/smoke/smoke_common.sh
source "$(dirname "$0")/smoke_common.sh"

out=$("$INGEST" --db="$WORK/db" "$SRC/data")
grep -q '^total: 4 files, 76 added, 0 updated, 0 unchanged, 0 removed, 0 skipped, 0 paragraphs rejected, 0 files rejected$' <<<"$out" \
  || fail "first ingest: $out"
# A first ingest is a bulk load, and says so; the second, into a store
# larger than its files, is not.
grep -q '^bulk load: postings compacted in [0-9]*\.[0-9] s$' <<<"$out" \
  || fail "first ingest, no bulk load line: $out"
out=$("$INGEST" --db="$WORK/db" "$SRC/data")
grep -q '^total: 4 files, 0 added, 0 updated, 76 unchanged' <<<"$out" || fail "second ingest: $out"
! grep -q 'bulk load' <<<"$out" || fail "second ingest, a bulk load: $out"
out=$("$INGEST" verify --db="$WORK/db") || fail "verify: $out"
grep -q ': 4 files, 76 papers, .* 0 problems$' <<<"$out" || fail "verify: $out"

# One file of one paper: each count agrees with its noun.
printf 'ICLR 2024 paper list\n\nA single abstract about sparse graphs.\n' > "$WORK/one.txt"
"$INGEST" --db="$WORK/one" "$WORK/one.txt" > /dev/null || fail "one-paper ingest"
out=$("$INGEST" verify --db="$WORK/one") || fail "one-paper verify: $out"
grep -q ': 1 file, 1 paper, [0-9]* terms, [0-9]* postings, 0 problems$' <<<"$out" \
  || fail "one-paper verify: $out"

printf 'no header here\n\nAn abstract.\n' > "$WORK/bad.txt"
set +e
out=$("$INGEST" --db="$WORK/db" "$WORK/bad.txt")
status=$?
set -e
[[ $status -eq 1 ]] || fail "bad file exit status $status"
grep -q 'bad.txt: rejected, nothing stored: bad.txt: line 1, byte 0: no header' <<<"$out" \
  || fail "bad file message: $out"

# A missing input path stops the run before the store is opened: no new,
# empty store is left behind.
set +e
out=$("$INGEST" --db="$WORK/fresh_db" "$WORK/no_such_dir" "$SRC/data" 2>&1)
status=$?
set -e
[[ $status -eq 1 ]] || fail "missing path exit status $status"
grep -q 'no_such_dir: no such file or directory' <<<"$out" || fail "missing path message: $out"
[[ ! -e "$WORK/fresh_db" ]] || fail "missing path left a store behind"

# An abstract limit larger than one search result can carry is refused.
set +e
out=$("$INGEST" --db="$WORK/big_db" --max_abstract_bytes=1048577 "$SRC/data" 2>&1)
status=$?
set -e
[[ $status -eq 2 ]] || fail "--max_abstract_bytes=1048577 exit status $status"
grep -q -- '--max_abstract_bytes (<= 1048576' <<<"$out" || fail "limit message: $out"
[[ ! -e "$WORK/big_db" ]] || fail "refused flags left a store behind"

# A bad token refuses to serve before a store is made.
printf 'short\n' >"$WORK/short.token"
set +e
out=$("$INGEST" serve --db="$WORK/token_db" --listen=127.0.0.1:0 \
  --write_token_file="$WORK/short.token" 2>&1)
status=$?
set -e
[[ $status -eq 2 ]] || fail "short token exit status $status: $out"
grep -q 'at least 16' <<<"$out" || fail "short token message: $out"
[[ ! -e "$WORK/token_db" ]] || fail "a refused token left a store behind"

# Out-of-range numeric flags of query_service are named, before it opens
# anything.
for flag in --max_search_ms=0 --max_concurrent_streams=0 --posting_cache_mib=-1; do
  set +e
  out=$("$QUERY" --db="$WORK/none_db" "$flag" 2>&1)
  status=$?
  set -e
  [[ $status -eq 2 ]] || fail "$flag exit status $status: $out"
  grep -q -- "${flag%%=*} must be at least" <<<"$out" || fail "$flag message: $out"
done

# Ctrl-C while the first file is still being waited for (a FIFO with no
# writer; the bundled files after it make this a bulk load, as
# their bytes outnumber the new store's): nothing is committed, the stop is announced at once on
# stderr, the output says what is stored and that the bulk load's compaction
# is left to the next writer, and the exit status is 128 + SIGINT.
mkfifo "$WORK/slow.txt"
"$INGEST" --db="$WORK/interrupted_db" "$WORK/slow.txt" "$SRC/data" >"$WORK/intr.out" 2>"$WORK/intr.err" &
IS_PID=$!
sleep 1  # Past start-up: the signal handler is installed.
kill -INT "$IS_PID"
# The wait for the FIFO's writer ends at the signal: a writer that comes
# later finds no reader (its open is cut short here).
timeout 5 sh -c "cat '$SRC/data/$(ls "$SRC/data" | head -1)' >'$WORK/slow.txt'" || true
set +e
wait "$IS_PID"
status=$?
set -e
IS_PID=""
[[ $status -eq 130 ]] || fail "interrupted ingest exit status $status: $(cat "$WORK/intr.out" "$WORK/intr.err")"
grep -q '^interrupted: stopped after 0 of 5 files; every file listed above is stored whole$' "$WORK/intr.out" \
  || fail "interrupted ingest output: $(cat "$WORK/intr.out")"
grep -q "^bulk load: the store's next writer compacts its postings$" "$WORK/intr.out" \
  || fail "interrupted bulk load output: $(cat "$WORK/intr.out")"
grep -q '^ingest_service: stopping after the batch being written$' "$WORK/intr.err" \
  || fail "interrupted ingest stderr: $(cat "$WORK/intr.err")"

# Flags from the environment (PAPERDB_<NAME>) work; a bad value is refused.
set +e
out=$(PAPERDB_CATCH_UP_INTERVAL_MS=often "$QUERY" --db="$WORK/db" 2>&1)
status=$?
set -e
[[ $status -eq 2 ]] && grep -q 'environment variable PAPERDB_CATCH_UP_INTERVAL_MS' <<<"$out" \
  || fail "bad environment flag: $status $out"
: >"$WORK/qs.log"  # Exists before the service starts: the port is read from it.
PAPERDB_CATCH_UP_INTERVAL_MS=100 "$QUERY" --db="$WORK/db" --listen=127.0.0.1:0 \
  --shutdown_notice_seconds=5 2>"$WORK/qs.log" &
QS_PID=$!
for _ in $(seq 100); do
  port=$(sed -n 's/.*listening on port \([0-9]*\).*/\1/p' "$WORK/qs.log")
  [[ -n "$port" ]] && break
  sleep 0.1
done
[[ -n "$port" ]] || fail "query_service did not start: $(cat "$WORK/qs.log")"
ADDR=127.0.0.1:$port

# Outputs go to variables first: `grep -q` in a pipe may close it early.
out=$("$CALL" "$ADDR" call grpc.health.v1.Health/Check)
grep -q '"status": "SERVING"' <<<"$out" || fail "health: $out"
out=$("$QUERY" probe --listen="$ADDR") || fail "probe: $out"
[[ "$out" == SERVING ]] || fail "probe: $out"
out=$("$CALL" "$ADDR" list)
grep -qx 'paperdb.v1.QueryService' <<<"$out" || fail "reflection list: $out"
out=$("$CALL" "$ADDR" call paperdb.v1.QueryService/SearchPapers \
  -d '{"query": "spiking neural networks delays", "page_size": 1}')
grep -q '"fileName": "004_0ef8dce93850603c.txt"' <<<"$out" || fail "search: $out"
name=$(sed -n 's/.*"name": "\(papers\/[^"]*\)".*/\1/p' <<<"$out" | head -1)
out=$("$CALL" "$ADDR" call paperdb.v1.QueryService/GetPaper -d "{\"name\": \"$name\"}")
grep -q '"lineNumber": 3' <<<"$out" || fail "get $name: $out"
set +e
"$CALL" "$ADDR" call paperdb.v1.QueryService/GetPaper -d '{"name": "papers/nope"}' \
  2>"$WORK/err.txt"
status=$?
set -e
[[ $status -eq 1 ]] && grep -q 'Code: NotFound' "$WORK/err.txt" || fail "not found"

# A file ingested by another process while query_service runs becomes
# searchable once the service catches up (every 100 ms here).
printf 'NeurIPS 2023 论文列表\n\nWe introduce Quuxformer, a tokenizer-free model.\n' > "$WORK/new.txt"
"$INGEST" --db="$WORK/db" "$WORK/new.txt" >/dev/null
found=""
for _ in $(seq 50); do
  out=$("$CALL" "$ADDR" call paperdb.v1.QueryService/SearchPapers -d '{"query": "quuxformer"}')
  if grep -q '"totalSize": "1"' <<<"$out"; then found=1; break; fi
  sleep 0.2
done
[[ -n "$found" ]] || fail "file ingested while serving was not found: $out"

# SIGTERM: health says NOT_SERVING while the service still answers, then it
# drains and exits 0.
kill -TERM "$QS_PID"
sleep 0.5
out=$("$CALL" "$ADDR" call grpc.health.v1.Health/Check 2>&1) || true
grep -q '"status": "NOT_SERVING"' <<<"$out" || fail "health after SIGTERM: $out"
wait "$QS_PID" || fail "query_service exit status $? after SIGTERM"
QS_PID=""
"$QUERY" probe --listen="$ADDR" >/dev/null && fail "probe of a stopped server succeeded"
# ingest_service serve with a write token (from the environment): a file
# streamed by a client without the token is refused, with it stored; then
# listed and deleted.
: >"$WORK/is.log"  # Exists before the service starts: the port is read from it.
PAPERDB_WRITE_TOKEN=smoke-write-token-0123 "$INGEST" serve --db="$WORK/served" \
  --listen=127.0.0.1:0 2>"$WORK/is.log" &
IS_PID=$!
port=""
for _ in $(seq 100); do
  port=$(sed -n 's/.*listening on port \([0-9]*\).*/\1/p' "$WORK/is.log")
  [[ -n "$port" ]] && break
  sleep 0.1
done
[[ -n "$port" ]] || fail "ingest_service serve did not start: $(cat "$WORK/is.log")"
grep -q 'authentication required' "$WORK/is.log" || fail "serve log: $(cat "$WORK/is.log")"
grep -q 'smoke-write-token' "$WORK/is.log" && fail "the token was logged"
IADDR=127.0.0.1:$port
body=$(printf '{"file_name": "streamed.txt"}{"content": "%s"}{"content": "%s"}' \
  "$(printf 'ICLR 2024 paper list\n\nStreamed abstract one.\n' | base64 -w0)" \
  "$(printf '\nStreamed abstract two.\n' | base64 -w0)")
set +e
"$CALL" "$IADDR" call paperdb.v1.IngestService/IngestFile -d "$body" 2>"$WORK/err.txt"
status=$?
set -e
[[ $status -eq 1 ]] && grep -q 'Code: Unauthenticated' "$WORK/err.txt" || fail "no token: $(cat "$WORK/err.txt")"
out=$(echo "$body" | "$CALL" "$IADDR" call paperdb.v1.IngestService/IngestFile \
  -H 'authorization: Bearer smoke-write-token-0123' -d @)
grep -q '"added": 2' <<<"$out" || fail "streamed ingest: $out"
out=$("$CALL" "$IADDR" call paperdb.v1.IngestService/ListSources \
  -H 'authorization: Bearer smoke-write-token-0123')
grep -q '"fileName": "streamed.txt"' <<<"$out" && grep -q '"paperCount": 2' <<<"$out" \
  || fail "list sources: $out"
out=$("$CALL" "$IADDR" call paperdb.v1.IngestService/DeleteSource \
  -H 'authorization: Bearer smoke-write-token-0123' -d '{"file_name": "streamed.txt"}')
grep -q '"papersDeleted": 2' <<<"$out" || fail "delete source: $out"
kill -TERM "$IS_PID"
wait "$IS_PID" || fail "ingest_service exit status $? after SIGTERM"
IS_PID=""
out=$("$INGEST" verify --db="$WORK/served") || fail "verify served: $out"
grep -q ': 0 files, 0 papers, .* 0 problems$' <<<"$out" || fail "verify served: $out"

# A store removed and recreated under a running query_service: health turns
# NOT_SERVING, and calls get UNAVAILABLE instead of the old store's papers.
: >"$WORK/qs2.log"
PAPERDB_CATCH_UP_INTERVAL_MS=100 "$QUERY" --db="$WORK/one" --listen=127.0.0.1:0 \
  2>"$WORK/qs2.log" &
QS_PID=$!
port=""
for _ in $(seq 100); do
  port=$(sed -n 's/.*listening on port \([0-9]*\).*/\1/p' "$WORK/qs2.log")
  [[ -n "$port" ]] && break
  sleep 0.1
done
[[ -n "$port" ]] || fail "query_service on one did not start: $(cat "$WORK/qs2.log")"
ADDR=127.0.0.1:$port
out=$("$CALL" "$ADDR" call paperdb.v1.QueryService/SearchPapers -d '{"query": "sparse graphs"}')
grep -q '"totalSize": "1"' <<<"$out" || fail "search before the store was replaced: $out"
rm -rf "$WORK/one"
printf 'ICLR 2024 paper list\n\nAnother abstract about dense trees.\n' > "$WORK/two.txt"
"$INGEST" --db="$WORK/one" "$WORK/two.txt" > /dev/null || fail "ingest into the new store"
for _ in $(seq 50); do
  out=$("$CALL" "$ADDR" call grpc.health.v1.Health/Check 2>&1) || true
  grep -q '"status": "NOT_SERVING"' <<<"$out" && break
  sleep 0.1
done
grep -q '"status": "NOT_SERVING"' <<<"$out" || fail "health after the store was replaced: $out"
set +e
"$CALL" "$ADDR" call paperdb.v1.QueryService/SearchPapers -d '{"query": "sparse graphs"}' \
  2>"$WORK/err.txt"
status=$?
set -e
[[ $status -eq 1 ]] && grep -q 'Code: Unavailable' "$WORK/err.txt" \
  && grep -q 'was removed or replaced since query_service opened it' "$WORK/err.txt" \
  || fail "search of a replaced store: $(cat "$WORK/err.txt")"
kill -TERM "$QS_PID"
wait "$QS_PID" || true
QS_PID=""
echo "cli smoke test passed"
