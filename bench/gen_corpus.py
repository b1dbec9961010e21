#!/usr/bin/python3
"""Deterministic synthetic paper lists for scale tests and benchmarks.

Writes N abstracts in paperdb's input format (a header line "<venue> <year>
论文列表", then one abstract per blank-line-separated paragraph), 1,000 per
file, over several venues and years. Words follow a Zipf distribution over a
vocabulary seeded from the bundled abstracts (data/, most frequent first) and
Debian's English word list (wamerican, /usr/share/dict/american-english).
Abstracts have 120-330 words and carry technical tokens: model names
("ABC-Net"), percentages ("5.4%"), LaTeX ("$\\alpha$") and GitHub URLs.
The same --seed and --count always give the same bytes.

  bench/gen_corpus.py --count 100000 --out /tmp/corpus100k
"""

import argparse
import collections
import itertools
import os
import random
import re
import sys

VENUES = ["ICLR", "NeurIPS", "ICML", "ACL", "CVPR", "AAAI", "KDD", "EMNLP"]
YEARS = list(range(2016, 2025))
GREEK = ["alpha", "beta", "gamma", "delta", "epsilon", "eta", "lambda", "theta", "sigma"]
DICT = "/usr/share/dict/american-english"


def vocabulary(repo, rng):
    counts = collections.Counter()
    data = os.path.join(repo, "data")
    for name in sorted(os.listdir(data)):
        with open(os.path.join(data, name), encoding="utf-8") as f:
            counts.update(w.lower() for w in re.findall(r"[A-Za-z]+", f.read()))
    seeded = [w for w, _ in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))]
    known = set(seeded)
    extra = []
    if os.path.exists(DICT):
        with open(DICT, encoding="utf-8") as f:
            extra = sorted({w.strip() for w in f if re.fullmatch(r"[a-z]{3,}", w.strip())} - known)
    else:
        print(f"gen_corpus: {DICT} missing (apt-get install wamerican); "
              "using the bundled words only", file=sys.stderr)
    rng.shuffle(extra)
    return seeded + extra


def technical_token(rng):
    kind = rng.randrange(4)
    if kind == 0:
        return "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") for _ in range(rng.randint(2, 4))) + "-Net"
    if kind == 1:
        return f"{rng.randint(1, 99)}.{rng.randint(0, 9)}%"
    if kind == 2:
        return f"$\\{rng.choice(GREEK)}$"
    return f"https://github.com/user{rng.randrange(10000)}/repo{rng.randrange(1000)}"


def abstract(rng, words, cum_weights):
    n = rng.randint(120, 330)
    tokens = rng.choices(words, cum_weights=cum_weights, k=n)
    out = []
    sentence_left = 0
    for i, token in enumerate(tokens):
        if sentence_left == 0:
            token = token.capitalize()
            sentence_left = rng.randint(12, 28)
        if rng.random() < 0.02:
            token = technical_token(rng)
        sentence_left -= 1
        if sentence_left == 0 or i == n - 1:
            token += "."
        out.append(token)
    return " ".join(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, required=True, help="number of abstracts")
    parser.add_argument("--out", required=True, help="output directory (created)")
    parser.add_argument("--per_file", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=20240101)
    parser.add_argument("--zipf_s", type=float, default=1.0, help="Zipf exponent")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    words = vocabulary(repo, rng)
    cum_weights = list(itertools.accumulate(1.0 / (r + 2.7) ** args.zipf_s
                                            for r in range(len(words))))
    os.makedirs(args.out, exist_ok=True)
    files = (args.count + args.per_file - 1) // args.per_file
    for f in range(files):
        venue = VENUES[f % len(VENUES)]
        year = YEARS[(f // len(VENUES)) % len(YEARS)]
        n = min(args.per_file, args.count - f * args.per_file)
        paragraphs = [abstract(rng, words, cum_weights) for _ in range(n)]
        path = os.path.join(args.out, f"{f:05d}_{venue.lower()}{year}.txt")
        with open(path, "w", encoding="utf-8") as out:
            out.write(f"{venue} {year} 论文列表\n\n")
            out.write("\n\n".join(paragraphs))
            out.write("\n")
    print(f"gen_corpus: {args.count} abstracts in {files} files under {args.out}")


if __name__ == "__main__":
    main()
