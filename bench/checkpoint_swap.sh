#!/usr/bin/env bash
# Checkpoint mode, timed: how long from a checkpoint's publication in the
# followed directory to query_service serving it. For each size in $SIZES
# (default "100000"): generates the corpus (bench/gen_corpus.py), ingests it
# one-shot, then $ROUNDS times: ingests one small file holding a marker word,
# publishes a checkpoint (`ingest_service checkpoint`, timed), copies it as
# the sidecar does (`cp -r`, timed, under a temporary name in the followed
# directory), renames it into place (the publication, t0) and reads when
# query_service (`--follow_checkpoints`, polling every $POLL_MS ms) logged
# "serving checkpoint" for it (t1), then checks with a search that the
# marker is found. Prints a Markdown table: size, store size, publish
# seconds, copy seconds, the open time query_service logged, and
# publish-to-served milliseconds (median, max).
# Run after tools/build.sh. Listens on 127.0.0.1:${PORT:-50750}.
#
#   SIZES="100000 1000000" ROUNDS=5 POLL_MS=100 bash bench/checkpoint_swap.sh
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
SIZES=${SIZES:-100000}
ROUNDS=${ROUNDS:-5}
POLL_MS=${POLL_MS:-100}
PORT=${PORT:-50750}
INGEST="$BUILD_DIR/ingest_service/ingest_service"
QUERY="$BUILD_DIR/query_service/query_service"
WORK=$(mktemp -d)
qs_pid=""
trap '[[ -n "$qs_pid" ]] && kill "$qs_pid" 2>/dev/null; rm -rf "$WORK"' EXIT
now() { date +%s.%N; }
# Seconds since the epoch of the last log line of $1 matching $2.
log_time() {
  grep "$2" "$1" | tail -1 | python3 -c '
import datetime, json, sys
t = json.loads(sys.stdin.read())["time"]
print(datetime.datetime.strptime(t, "%Y-%m-%dT%H:%M:%S.%fZ").replace(
    tzinfo=datetime.timezone.utc).timestamp())'
}
median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

echo "| abstracts | store MiB | publish s (median) | copy s (median) | open ms (median) | publish to served ms (median) | max ms |"
echo "|---|---|---|---|---|---|---|"
for n in $SIZES; do
  /usr/bin/python3 bench/gen_corpus.py --count "$n" --out "$WORK/corpus" >/dev/null
  "$INGEST" --db="$WORK/db" "$WORK/corpus" >/dev/null
  rm -rf "$WORK/corpus"
  mkdir -p "$WORK/follow"
  : >"$WORK/qs.log"
  "$QUERY" --follow_checkpoints="$WORK/follow" --checkpoint_poll_ms="$POLL_MS" \
    --listen="127.0.0.1:$PORT" --secondary_dir="$WORK/secondary" 2>"$WORK/qs.log" &
  qs_pid=$!
  publish=() copy=() served=() opened=()
  for r in $(seq 0 "$ROUNDS"); do
    marker="swapmarker${n}x$r"
    printf 'ICLR 2024 paper list\n\nAbstract introducing %s for sparse retrieval.\n' "$marker" \
      >"$WORK/marker$r.txt"
    "$INGEST" --db="$WORK/db" "$WORK/marker$r.txt" >/dev/null
    t=$(now)
    line=$("$INGEST" checkpoint --db="$WORK/db" --out="$WORK/pub" --checkpoint_keep=2)
    publish+=("$(python3 -c "print($(now) - $t)")")
    ckpt=${line%%:*}
    name=$(basename "$ckpt")
    t=$(now)
    cp -r "$ckpt" "$WORK/follow/.tmp-$name"
    copy+=("$(python3 -c "print($(now) - $t)")")
    t0=$(now)
    mv -T "$WORK/follow/.tmp-$name" "$WORK/follow/$name"
    for _ in $(seq 600); do
      grep -q "serving checkpoint .*$name" "$WORK/qs.log" && break
      sleep 0.05
    done
    t1=$(log_time "$WORK/qs.log" "serving checkpoint .*$name")
    out=$(/usr/bin/python3 tools/grpc_call.py "127.0.0.1:$PORT" call paperdb.v1.QueryService/SearchPapers \
      -d "{\"query\": \"$marker\"}")
    grep -q '"totalSize": "1"' <<<"$out" || { echo "round $r: $marker not found: $out" >&2; exit 1; }
    # Round 0 is query_service's first checkpoint (its start-up), not a swap.
    if ((r > 0)); then
      served+=("$(python3 -c "print(round(($t1 - $t0) * 1000))")")
      opened+=("$(grep "serving checkpoint .*$name" "$WORK/qs.log" | sed -n 's/.*opened in \([0-9]*\) ms.*/\1/p' | tail -1)")
    fi
    # Keep the followed directory as the sidecar does: the newest two.
    # shellcheck disable=SC2010  # grep keeps only checkpoint names.
    ls -1 "$WORK/follow" | grep '^ckpt-' | sort | head -n -2 | while read -r old; do rm -rf "${WORK:?}/follow/$old"; done
  done
  kill "$qs_pid"
  wait "$qs_pid" || true
  qs_pid=""
  store_mib=$(du -sm "$WORK/db" | cut -f1)
  printf '| %s | %s | %.2f | %.2f | %s | %s | %s |\n' "$n" "$store_mib" \
    "$(printf '%s\n' "${publish[@]}" | median)" "$(printf '%s\n' "${copy[@]}" | median)" \
    "$(printf '%s\n' "${opened[@]}" | median)" \
    "$(printf '%s\n' "${served[@]}" | median)" "$(printf '%s\n' "${served[@]}" | sort -n | tail -1)"
  rm -rf "$WORK/db" "$WORK/pub" "$WORK/follow" "$WORK/secondary"
done
