#!/usr/bin/python3
"""Deterministic benchmark queries drawn from a corpus's vocabulary.

Reads the paper lists under CORPUS (as written by gen_corpus.py), counts
word document frequencies over a sample of files, and writes one query per
line as "<kind>\\t<query>" for the kinds of issue 5: one common term, one
rare term, 2, 3 and 4-6 terms (implicit AND; the 4-6 term queries twice,
as and4_6 and and4_6_all, and a third time joined by OR, as or4_6), 2-3
terms joined by OR, and 2-3 word phrases
taken from real abstracts. Words come from frequency bands so that queries have
varied selectivity.

  bench/gen_queries.py --corpus /tmp/corpus100k --per_kind 50 > queries.tsv
"""

import argparse
import collections
import os
import random
import re

STOP = set("a an and are as at be but by for if in into is it no not of on or such that "
           "the their then there these they this to was will with".split())


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", required=True)
    parser.add_argument("--per_kind", type=int, default=50)
    parser.add_argument("--sample_files", type=int, default=20)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rng = random.Random(args.seed)

    files = sorted(os.listdir(args.corpus))[: args.sample_files]
    df = collections.Counter()
    abstracts = []
    for name in files:
        with open(os.path.join(args.corpus, name), encoding="utf-8") as f:
            paragraphs = f.read().split("\n\n")[1:]
        for p in paragraphs:
            words = [w.lower() for w in re.findall(r"[A-Za-z]{3,}", p)]
            # Distinct words in order of first use, not a set's order (which
            # changes with Python's string hashing from run to run).
            df.update(list(dict.fromkeys(w for w in words if w not in STOP)))
            abstracts.append(p)
    ranked = [w for w, _ in df.most_common()]
    n = len(ranked)
    common = ranked[: max(1, n // 500)]           # Top 0.2% of the vocabulary.
    mid = ranked[n // 500: n // 20]               # Middle band.
    rare = [w for w, c in df.items() if 2 <= c <= 5]
    out = []
    for _ in range(args.per_kind):
        out.append(("common", rng.choice(common)))
        out.append(("rare", rng.choice(rare)))
        out.append(("and2", " ".join(rng.sample(common + mid, 2))))
        out.append(("and3", " ".join(rng.sample(mid, 2) + [rng.choice(common)])))
        and4_6 = " ".join(rng.sample(mid + common, rng.randint(4, 6)))
        out.append(("and4_6", and4_6))
        # The same words, searched by paperdb with MATCHING_STRATEGY_ALL
        # (full matches only, as the peers search): search_bench and
        # grpc_search_bench read a kind ending in "_all" that way.
        out.append(("and4_6_all", and4_6))
        # The same words joined by OR, run as OR by every engine: the work
        # of paperdb's any-term fallback (the and4_6 queries with no full
        # match), like for like with the peers. No random draw, so the
        # other kinds stay the queries they were.
        out.append(("or4_6", " OR ".join(and4_6.split())))
        out.append(("or2_3", " OR ".join(rng.sample(mid, rng.randint(1, 2)) + [rng.choice(common)])))
        words = re.findall(r"[A-Za-z]{3,}", rng.choice(abstracts))
        k = rng.randint(2, 3)
        start = rng.randrange(0, max(1, len(words) - k))
        out.append(("phrase", '"' + " ".join(words[start:start + k]) + '"'))
    for kind, query in out:
        print(f"{kind}\t{query}")


if __name__ == "__main__":
    main()
