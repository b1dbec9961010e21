"""Hybrid ranking with sentence embeddings, measured on the judged splits.

Reads paperdb's top 10 per query (relevance_eval --verbose), ranks all
papers by cosine to the query's vector, and scores on every split and tier
(nDCG@10, gain 2^grade - 1; `none` queries left out, as a dense ranking
always returns something):
  paperdb   paperdb alone;
  dense     the embeddings alone;
  rrf k=60  reciprocal rank fusion (Cormack et al. 2009) of paperdb's list
            and the dense top 20, each weighing 1;
  rrf k=10  the same with k 10 and the dense list at weight 0.5;
  fallback  "rrf k=10" only where paperdb fell back to any-term matching
            (no paper holds every word), else paperdb's list;
  append    paperdb's list, then dense results it lacks (fills a page).

  python3 fuse.py VECTORS.json RELEVANCE_EVAL DATA_DIR
"""
import json
import math
import re
import subprocess
import sys
from collections import defaultdict

R = "tests/relevance/"
SPLITS = {
    "tuning": ("queries", "judgments"),
    "test": ("test_queries", "test_judgments"),
    "fresh": ("fresh_queries", "fresh_judgments"),
}


def rows(path):
    for line in open(path, encoding="utf-8"):
        if line.startswith("#") or line.startswith("query_id") or line.startswith("paper_id"):
            continue
        yield line.rstrip("\n").split("\t")


def ndcg(ranked, grades):
    dcg = sum((2 ** grades.get(p, 0) - 1) / math.log2(i + 2) for i, p in enumerate(ranked[:10]))
    ideal = sorted(grades.values(), reverse=True)[:10]
    idcg = sum((2 ** g - 1) / math.log2(i + 2) for i, g in enumerate(ideal))
    return dcg / idcg if idcg > 0 else None


def cosine(a, b):
    return sum(x * y for x, y in zip(a, b)) / math.sqrt(sum(x * x for x in a) * sum(y * y for y in b))


def rrf(lists, k):
    scores = defaultdict(float)
    for ranked, weight in lists:
        for i, p in enumerate(ranked):
            scores[p] += weight / (k + i + 1)
    return sorted(scores, key=lambda p: -scores[p])


def main():
    vectors = json.load(open(sys.argv[1]))
    note_to_id = {r[3]: r[0] for r in rows(R + "papers.tsv")}
    papers = list(note_to_id.values())
    for split, (queries, judgments) in SPLITS.items():
        tiers = {r[0]: r[1] for r in rows(R + queries + ".tsv")}
        grades = defaultdict(dict)
        for r in rows(R + judgments + ".tsv"):
            grades[r[0]][r[1]] = int(r[2])
        out = subprocess.run(
            [sys.argv[2], "--data_dir=" + sys.argv[3], "--queries=" + R + queries + ".tsv",
             "--judgments=" + R + judgments + ".tsv", "--papers=" + R + "papers.tsv", "--verbose"],
            capture_output=True, text=True, check=True).stdout
        lexical, fallback, current = {}, {}, None
        for line in out.split("\n"):
            m = re.match(r"^(\S+)\s+nDCG", line)
            if m:
                current = m.group(1)
                continue
            m = re.match(r"^\s+paperdb:\s*(.*)$", line)
            if m and current:
                fallback[current] = "[any-term]" in m.group(1)
                lexical[current] = [note_to_id[t.split(":", 1)[1]] for t in m.group(1).split()
                                    if ":" in t and not t.startswith("[")]
        scores = defaultdict(lambda: defaultdict(list))
        for q, tier in tiers.items():
            if tier == "none" or q not in lexical:
                continue
            query = vectors["Q:" + q]
            dense = sorted(papers, key=lambda p: -cosine(query, vectors["P:" + p]))
            lex = lexical[q]
            runs = {
                "paperdb": lex,
                "dense": dense,
                "rrf k=60": rrf([(lex, 1.0), (dense[:20], 1.0)], 60),
                "rrf k=10": rrf([(lex, 1.0), (dense[:20], 0.5)], 10),
                "fallback": rrf([(lex, 1.0), (dense[:20], 0.5)], 10) if fallback[q] else lex,
                "append": lex + [p for p in dense if p not in lex],
            }
            for name, ranked in runs.items():
                value = ndcg(ranked, grades[q])
                if value is not None:
                    scores[name][tier].append(value)
                    scores[name]["all"].append(value)
        print(f"## {split} split (nDCG@10)")
        names = sorted(scores["paperdb"])
        print("| ranking | " + " | ".join(names) + " |")
        print("|---|" + "---:|" * len(names))
        for name, by_tier in scores.items():
            cells = " | ".join(f"{sum(by_tier[t]) / len(by_tier[t]):.3f}" for t in names)
            print(f"| {name} | {cells} |")
        print()


if __name__ == "__main__":
    main()
