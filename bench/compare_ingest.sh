#!/usr/bin/env bash
# The ingest part of bench/run.sh, for checking a change to the ingest code:
# paperdb's one-shot ingest and SQLite FTS5's of the same corpus, RUNS times
# each (default 2), alternating, each into a fresh store; prints one row a
# run (seconds, abstracts/s, user + system CPU seconds, peak RSS, store size)
# and the medians, with paperdb's rate over FTS5's (issue 5's target: 3x).
# Xapian (about 30 minutes at 1M) is left to bench/run.sh.
#
#   bench/compare_ingest.sh BUILD_DIR CORPUS_DIR
#
# The corpus is made as bench/run.sh makes it, e.g.:
#   python3 bench/gen_corpus.py --count 1000000 --out /tmp/c1m
set -euo pipefail
if (($# != 2)); then
  sed -n '2,12p' "$0" >&2
  exit 2
fi
BUILD_DIR=$1
CORPUS=$2
RUNS=${RUNS:-2}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
for r in $(seq "$RUNS"); do
  rm -rf "$WORK/db" "$WORK"/fts.db*
  /usr/bin/time -f "%e %U %S %M" -o "$WORK/p.$r" \
    "$BUILD_DIR/ingest_service/ingest_service" --db="$WORK/db" "$CORPUS" >"$WORK/out"
  echo "$(du -sm "$WORK/db" | cut -f1)" >> "$WORK/p.$r"
  /usr/bin/time -f "%e %U %S %M" -o "$WORK/f.$r" \
    "$BUILD_DIR/bench/fts5_bench" ingest --db="$WORK/fts.db" "$CORPUS" >/dev/null
  echo "$(du -cm "$WORK"/fts.db* | tail -1 | cut -f1)" >> "$WORK/f.$r"
done
# Abstracts: those paperdb's last run added, from its per-file lines.
n=$(sed -n 's/^.*: \([0-9]*\) added,.*$/\1/p' "$WORK/out" | awk '{s += $1} END {print s}')
echo "corpus: $CORPUS, $n abstracts, $(du -sm "$CORPUS" | cut -f1) MiB; $(nproc) cores of" \
  "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); $(date -u +%F)"
echo "| run | engine | seconds | abstracts/s | CPU seconds | peak RSS MiB | store MiB |"
echo "|---:|---|---:|---:|---:|---:|---:|"
/usr/bin/python3 - "$n" "$WORK" "$RUNS" <<'PY'
import statistics, sys
n, work, runs = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
medians = {}
for engine, label in (("p", "paperdb"), ("f", "SQLite FTS5")):
    rows = []
    for r in range(1, runs + 1):
        lines = open(f"{work}/{engine}.{r}").read().split("\n")
        secs, user, sys_, rss = (float(x) for x in lines[0].split())
        rows.append((secs, user + sys_, rss / 1024, int(lines[1])))
        print(f"| {r} | {label} | {secs:.2f} | {n / secs:,.0f} | {user + sys_:.1f} | {rss / 1024:.0f} | {lines[1]} |")
    medians[label] = statistics.median(row[0] for row in rows)
for label, secs in medians.items():
    print(f"median {label}: {secs:.2f} s, {n / secs:,.0f} abstracts/s")
print(f"paperdb/FTS5 rate: {medians['SQLite FTS5'] / medians['paperdb']:.2f}x")
PY
