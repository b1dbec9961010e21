#!/usr/bin/python3
"""Merges repeated runs of the search benchmarks into docs/benchmarks.md rows.

Each input is a table as printed by search_bench, fts5_bench and xapian_bench
("kind queries p50_ms p95_ms p99_ms" lines). For one corpus size, prints one
markdown row per query kind: each engine's median over the runs of its p50,
p95 and p99, the peers' medians over paperdb's, and how far paperdb's p50
moved between runs (max / min - 1). Appends "size kind paperdb fts5 xapian"
p50 and p99 lines to --plot_data for bench/plot.gp
(size, kind, then p50 of paperdb, FTS5, Xapian, then their p99).

  merge_runs.py --size 10000 --paperdb a1 a2 --fts5 b1 b2 --xapian c1 c2 \\
      --plot_data plot.dat
"""

import argparse
import statistics


def read_table(path):
    rows = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            parts = line.split()
            if len(parts) != 5 or parts[0] == "kind":
                continue
            rows[parts[0]] = (int(parts[1]), [float(x) for x in parts[2:]])
    return rows


def medians(paths):
    runs = [read_table(p) for p in paths]
    out = {}
    for kind in runs[0]:
        count = sum(r[kind][0] for r in runs if kind in r)
        values = [r[kind][1] for r in runs if kind in r]
        out[kind] = (count, [statistics.median(v[i] for v in values) for i in range(3)],
                     [v[0] for v in values])
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, required=True)
    parser.add_argument("--paperdb", nargs="+", required=True)
    parser.add_argument("--fts5", nargs="+", required=True)
    parser.add_argument("--xapian", nargs="+", required=True)
    parser.add_argument("--plot_data", required=True)
    args = parser.parse_args()
    ours, fts5, xapian = medians(args.paperdb), medians(args.fts5), medians(args.xapian)
    kinds = sorted(k for k in ours if k != "all") + ["all"]
    with open(args.plot_data, "a", encoding="utf-8") as plot:
        for kind in kinds:
            count, (p50, p95, p99), p50_runs = ours[kind]
            f = fts5[kind][1]
            x = xapian[kind][1]
            spread = max(p50_runs) / max(min(p50_runs), 1e-6) - 1
            print(f"| {args.size} | {kind} | {count} | {p50:.3f} | {p95:.3f} | {p99:.3f} "
                  f"| {f[0]:.3f} | {f[1]:.3f} | {f[2]:.3f} "
                  f"| {x[0]:.3f} | {x[1]:.3f} | {x[2]:.3f} "
                  f"| {f[0] / max(p50, 1e-6):.1f}x | {f[2] / max(p99, 1e-6):.1f}x "
                  f"| {x[0] / max(p50, 1e-6):.1f}x | {x[2] / max(p99, 1e-6):.1f}x "
                  f"| {spread * 100:.0f}% |")
            plot.write(f"{args.size} {kind} {p50} {f[0]} {x[0]} {p99} {f[2]} {x[2]}\n")


if __name__ == "__main__":
    main()
