#!/usr/bin/env bash
# Crash safety: kills a multi-file one-shot ingest with SIGKILL at random
# moments, 20 times (10 first ingests into new stores, 10 restarts that
# continue one store), each time checking with `ingest_service verify` that
# the store is consistent. Restarts alternate between two versions of the
# files, so kills also land inside replacements (updates and deletes). A
# final ingest then finishes and every abstract is stored exactly once.
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
# A second version of every file: every 5th abstract dropped, every 7th
# edited, so restarts alternate between replacing files both ways.
/usr/bin/python3 - "$WORK/corpus" "$WORK/corpus2" <<'EOF'
import os, sys
src, dst = sys.argv[1], sys.argv[2]
os.makedirs(dst)
for name in sorted(os.listdir(src)):
    header, *paragraphs = open(os.path.join(src, name), encoding="utf-8").read().split("\n\n")
    kept = [p.strip() + (" Edited." if i % 7 == 0 else "")
            for i, p in enumerate(paragraphs) if i % 5 != 4 and p.strip()]
    with open(os.path.join(dst, name), "w", encoding="utf-8") as f:
        f.write(header + "\n\n" + "\n\n".join(kept) + "\n")
EOF
RANDOM=2024
for round in $(seq 20); do
  # Rounds 1-10 kill a first ingest into a new store; rounds 11-20 kill
  # restarts that continue one store, alternating the two versions.
  db="$WORK/db"
  corpus="$WORK/corpus"
  if ((round <= 10)); then db="$WORK/fresh$round"; elif ((round % 2)); then corpus="$WORK/corpus2"; fi
  "$INGEST" --db="$db" --batch_mib=1 "$corpus" >/dev/null 2>&1 &
  pid=$!
  # Anywhere in the first 2.5 s: store creation, first batches, the middle.
  ms=$((RANDOM % 2500 + 20))
  sleep "$((ms / 1000)).$(printf '%03d' $((ms % 1000)))"
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  if [[ ! -e "$db/CURRENT" ]]; then echo "round $round: killed before the store existed"; continue; fi
  if ! out=$("$INGEST" verify --db="$db" 2>&1); then
    # A kill while RocksDB created the column families leaves a store that
    # the next writer finishes; nothing was ingested into it yet.
    grep -q 'is incomplete (no [a-z_" ]*): its creation was interrupted' <<<"$out" \
      || fail "round $round: $out"
    echo "round $round: killed while the store was being created"
    "$INGEST" --db="$db" "$corpus/$(ls "$corpus" | head -1)" >/dev/null \
      || fail "round $round: cannot finish the interrupted store"
    out=$("$INGEST" verify --db="$db" 2>&1) || fail "round $round: $out"
  fi
  # verify checks that files and papers agree; a first ingest also holds
  # whole files only: a multiple of 400 papers.
  papers=$(sed -n 's/.* \([0-9]*\) papers,.*/\1/p' <<<"$out")
  if ((round <= 10)); then
    (( papers % 400 == 0 )) || fail "round $round: $papers papers is not whole files"
  fi
  rm -rf "$WORK/fresh$round"
  echo "round $round: ${out##*: }"
done
# Finishing with the first version restores exactly its 9,600 abstracts.
out=$("$INGEST" --db="$WORK/db" "$WORK/corpus")
grep -q '^total: 24 files, .* 0 files rejected$' <<<"$out" || fail "final ingest: $out"
out=$("$INGEST" verify --db="$WORK/db") || fail "final verify: $out"
grep -q ': 24 files, 9600 papers, .* 0 problems$' <<<"$out" || fail "final verify: $out"
echo "crash test passed: $out"
