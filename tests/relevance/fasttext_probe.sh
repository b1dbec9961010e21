#!/usr/bin/env bash
# Trains fastText (Debian's `fasttext` package) on the bundled abstracts and
# prints each probe word's nearest neighbours: what corpus-trained word
# vectors would offer the semantic side on a store of this size
# (docs/relevance.md). Seeded and single-threaded, so reruns agree.
#
#   bash tests/relevance/fasttext_probe.sh [WORD...]
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v fasttext >/dev/null || {
  echo "fasttext_probe: needs Debian's fasttext (apt-get install fasttext)" >&2
  exit 2
}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cat data/*.txt | python3 -c '
import re, sys
print(" ".join(re.findall(r"[a-z0-9]+", sys.stdin.read().lower())))' >"$WORK/corpus.txt"
echo "words: $(wc -w <"$WORK/corpus.txt")"
fasttext skipgram -input "$WORK/corpus.txt" -output "$WORK/m" -dim 50 -epoch 50 \
  -minCount 2 -thread 1 -seed 1 -verbose 0
(($# > 0)) || set -- hypergraph forecasting pruning watermark llm segmentation spiking
for word in "$@"; do
  printf '%s:' "$word"
  echo "$word" | fasttext nn "$WORK/m.bin" 5 2>/dev/null |
    sed 's/Query word? //' | awk 'NF == 2 {printf " %s", $1}'
  echo
done
