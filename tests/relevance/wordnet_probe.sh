#!/usr/bin/env bash
# Measures WordNet synonyms (Debian's wordnet-base) as a query expansion on
# both judged splits (docs/relevance.md): each word of a query's top
# conjunction that no concept covers also matches its synonyms' stems, each
# scored WEIGHT times its BM25, the better of the word and a synonym
# counting. The expansion lives in wordnet_probe/query_engine.patch, applied
# to a scratch copy of HEAD (paperdb does not ship it); it reads the table
# from $PAPERDB_SYNONYMS_TSV and the weight from $PAPERDB_SYNONYM_WEIGHT.
#
#   bash tests/relevance/wordnet_probe.sh [WEIGHT...]   (default 0.2 0.5)
set -euo pipefail
cd "$(dirname "$0")/../.."
[[ -f /usr/share/wordnet/index.noun ]] || {
  echo "wordnet_probe: needs Debian's wordnet-base" >&2
  exit 2
}
WORK=$(mktemp -d)
trap 'git worktree remove --force "$WORK/src" >/dev/null 2>&1 || true; rm -rf "$WORK"' EXIT
git worktree add --detach "$WORK/src" HEAD >/dev/null 2>&1
git -C "$WORK/src" apply "$PWD/tests/relevance/wordnet_probe/query_engine.patch"
python3 tests/relevance/wordnet_probe/synonyms.py 1 >"$WORK/synonyms.tsv"
echo "words with synonyms: $(wc -l <"$WORK/synonyms.tsv")"
BUILD_DIR="$WORK/build" bash "$WORK/src/tools/build.sh" relevance_eval >/dev/null
EVAL="$WORK/build/tests/relevance/relevance_eval"
(($# > 0)) || set -- 0.2 0.5
for split in tuning test; do
  prefix=""
  [[ $split == test ]] && prefix="test_"
  for weight in off "$@"; do
    env_args=()
    [[ $weight != off ]] && env_args=(PAPERDB_SYNONYMS_TSV="$WORK/synonyms.tsv"
      PAPERDB_SYNONYM_WEIGHT="$weight")
    printf '%s split, synonyms %s:' "$split" "$weight"
    env "${env_args[@]}" "$EVAL" --queries="tests/relevance/${prefix}queries.tsv" \
      --judgments="tests/relevance/${prefix}judgments.tsv" 2>/dev/null |
      awk -F'|' '/^\| [a-z*]/ && $2 !~ /tier/ {gsub(/[ *]/, "", $2); gsub(/[ *]/, "", $4); printf " %s %s", $2, $4}'
    echo
  done
done
