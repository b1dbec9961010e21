#!/usr/bin/python3
"""Checks issue 28's performance targets against one bench/run.sh run.

Reads the markdown rows run.sh writes into docs/benchmarks.md (ingest, search
latency, gRPC load) and prints one markdown table row per target, for the
largest corpus in the run: the target, what this run measured, and whether
it is met. Where a target is not met, docs/performance.md holds the profile
that explains why and what meeting it would take (linked from the row).

  targets.py --ingest ingest.md --query query.md --grpc grpc.md
"""

import argparse


def cells(line):
    return [c.strip().strip("`") for c in line.strip().strip("|").split("|")]


def number(text):
    return float(text.replace(",", "").rstrip("x%"))


def read_rows(path):
    with open(path, encoding="utf-8") as f:
        return [cells(line) for line in f if line.startswith("|")]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ingest", required=True)
    parser.add_argument("--query", required=True)
    parser.add_argument("--grpc", required=True)
    args = parser.parse_args()

    # | abstracts | engine | seconds | CPU seconds | abstracts/s | ... | store MiB |
    ingest = read_rows(args.ingest)
    size = max(int(r[0]) for r in ingest)
    by_engine = {r[1]: r for r in ingest if int(r[0]) == size}
    ours, fts5 = by_engine["paperdb"], by_engine["SQLite FTS5"]
    # | abstracts | kind | timings | p50 | p95 | p99 | FTS5 p50 | p95 | p99 |
    #   Xapian p50 | p95 | p99 | ...
    query = {r[1]: r for r in read_rows(args.query) if int(r[0]) == size}
    # | rpc | concurrency | requests | errors | QPS | p50 | p95 | p99 | share |
    grpc = {(r[0], r[1]): r for r in read_rows(args.grpc)}

    rows = []

    def add(target, measured, met, why):
        verdict = "met" if met else f"not met ([why]({why}))"
        rows.append(f"| {target} | {measured} | {verdict} |")

    tails = "performance.md#where-the-tails-are"
    slower = []
    for kind, r in sorted(query.items()):
        if kind == "all":
            continue
        ratio = number(r[11]) / max(number(r[5]), 1e-6)
        if ratio < 2:
            slower.append(f"{kind} {ratio:.1f}x")
    add("every kind's p99 at least 2x lower than Xapian's",
        "all kinds" if not slower else "below 2x: " + ", ".join(slower),
        not slower, tails)
    p95 = number(query["all"][4])
    add("p95 over the mix under 3 ms", f"{p95:.2f} ms", p95 < 3, tails)
    phrase = number(query["phrase"][5])
    add("phrase p99 under 10 ms", f"{phrase:.2f} ms", phrase < 10, tails)
    if "or4_6" in query:
        r = query["or4_6"]
        p50x = number(r[9]) / max(number(r[3]), 1e-6)
        p99x = number(r[11]) / max(number(r[5]), 1e-6)
        add("or4_6 (the fallback's work, as OR in every engine) 2x faster than Xapian",
            f"Xapian/paperdb p50 {p50x:.1f}x, p99 {p99x:.1f}x", p50x >= 2 and p99x >= 2,
            tails)

    cost = "performance.md#the-per-call-cost-of-a-grpc-answer"
    for name, goal in (("paperdb.v1.QueryService/SearchPapers", 45),
                       ("paperdb.v1.QueryService/SearchPapers (read_mask)", 60)):
        r = grpc.get((name, "4"))
        if r is None:
            continue
        share = number(r[8])
        add(f"{name.split('/')[1]} at concurrency 4: at least {goal}% of health QPS",
            f"{share:.0f}%", share >= goal, cost)

    lean = "performance.md#the-ingest-pipeline-ingest_servicebulk_ingestcc-paperdbindex"
    rate = number(ours[4]) / number(fts5[4])
    add("ingest abstracts/s (wall) at least 1.5x FTS5's", f"{rate:.2f}x", rate >= 1.5, lean)
    cpu = number(ours[3]) / number(fts5[3])
    add("ingest CPU seconds at most 1.2x FTS5's", f"{cpu:.2f}x", cpu <= 1.2, lean)
    store, fts5_store = number(ours[-1]), number(fts5[-1])
    add("store no larger than FTS5's (index and abstract text)",
        f"{store:,.0f} MiB against {fts5_store:,.0f} MiB", store <= fts5_store,
        "performance.md#store-size")

    print(f"Targets of issue 28, at {size:,} abstracts in this run:\n")
    print("| target | measured | |")
    print("|---|---|---|")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
