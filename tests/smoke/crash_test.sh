#!/usr/bin/env bash
# Crash safety: kills a multi-file one-shot ingest with SIGKILL at random
# moments, 20 times (10 first ingests into new stores, 10 restarts that
# continue one store), each time checking with `ingest_service verify` that
# the store is consistent; then lets a final ingest finish and checks that
# every abstract is stored exactly once.
# Usage: crash_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
BUILD=$1
SRC=$2
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
INGEST="$BUILD/ingest_service/ingest_service"

# 24 files of 400 generated abstracts; small batches so kills land between
# and inside commits.
/usr/bin/python3 "$SRC/bench/gen_corpus.py" --count 9600 --per_file 400 \
  --out "$WORK/corpus" >/dev/null 2>&1
RANDOM=2024
for round in $(seq 20); do
  # Rounds 1-10 kill a first ingest into a new store; rounds 11-20 kill
  # restarts that continue one store.
  db="$WORK/db"
  if ((round <= 10)); then db="$WORK/fresh$round"; fi
  "$INGEST" --db="$db" --batch_mib=1 "$WORK/corpus" >/dev/null 2>&1 &
  pid=$!
  sleep "0.$(printf '%02d' $((RANDOM % 90 + 5)))"
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  if [[ ! -e "$db/CURRENT" ]]; then echo "round $round: killed before the store existed"; continue; fi
  out=$("$INGEST" verify --db="$db" 2>&1) || fail "round $round: $out"
  # Every file is stored whole or not at all: a multiple of 400 papers.
  papers=$(sed -n 's/.*: \([0-9]*\) papers,.*/\1/p' <<<"$out")
  (( papers % 400 == 0 )) || fail "round $round: $papers papers is not whole files"
  rm -rf "$WORK/fresh$round"
  echo "round $round: ${out##*: }"
done
out=$("$INGEST" --db="$WORK/db" "$WORK/corpus")
grep -q '^total: 24 files, .* 0 files rejected$' <<<"$out" || fail "final ingest: $out"
out=$("$INGEST" verify --db="$WORK/db") || fail "final verify: $out"
grep -q ': 9600 papers, .* 0 problems$' <<<"$out" || fail "final verify: $out"
echo "crash test passed: $out"
