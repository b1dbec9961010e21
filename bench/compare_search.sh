#!/usr/bin/env bash
# The search part of bench/run.sh on stores that already exist: paperdb,
# SQLite FTS5 and Xapian run the same query set RUNS times each, each run a
# fresh process, and bench/merge_runs.py prints the rows of the latency
# table in docs/benchmarks.md (medians over the runs, ratios to paperdb).
# For checking a change to the search code without ingesting the corpus
# three times again (a 1M Xapian ingest alone takes about 30 minutes).
#
#   bench/compare_search.sh BUILD_DIR SIZE PAPERDB_DIR FTS5_DB XAPIAN_DIR QUERIES
#
# The stores and queries are made as bench/run.sh makes them:
#   python3 bench/gen_corpus.py --count 1000000 --out /tmp/c1m
#   BUILD_DIR/ingest_service/ingest_service --db=/tmp/p1m /tmp/c1m
#   BUILD_DIR/bench/fts5_bench ingest --db=/tmp/f1m.db /tmp/c1m
#   BUILD_DIR/bench/xapian_bench ingest --db=/tmp/x1m /tmp/c1m
#   python3 bench/gen_queries.py --corpus /tmp/c1m --per_kind 50 > /tmp/q1m.tsv
set -euo pipefail
if (($# != 6)); then
  sed -n '2,16p' "$0" >&2
  exit 2
fi
BUILD_DIR=$1
SIZE=$2
PAPERDB=$3
FTS5_DB=$4
XAPIAN=$5
QUERIES=$6
RUNS=${RUNS:-2}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
for r in $(seq "$RUNS"); do
  "$BUILD_DIR/bench/search_bench" --db="$PAPERDB" --queries="$QUERIES" --passes=3 > "$WORK/p.$r"
  "$BUILD_DIR/bench/fts5_bench" search --db="$FTS5_DB" --queries="$QUERIES" --passes=3 > "$WORK/f.$r"
  "$BUILD_DIR/bench/xapian_bench" search --db="$XAPIAN" --queries="$QUERIES" --passes=3 > "$WORK/x.$r"
done
/usr/bin/python3 "$(dirname "$0")/merge_runs.py" --size "$SIZE" \
  --paperdb "$WORK"/p.* --fts5 "$WORK"/f.* --xapian "$WORK"/x.* \
  --plot_data "$WORK/plot.dat"
