#!/usr/bin/python3
"""Bytes of a paperdb store by column family, from its SST files.

Each SST file's properties block names the column family id it belongs to
("rocksdb.column.family.id", prefix-compressed as "column.family.id" and
followed by the id's varint); the store's LOG names the ids ("Created
column family [papers] (ID 2)"). Prints one row per column family: MiB,
share and, with --abstracts, bytes per abstract. Run on a store no process
is writing (after a one-shot ingest).

  bench/store_breakdown.py STORE_DIR [--abstracts N]
"""

import argparse
import glob
import os
import re


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("store")
    parser.add_argument("--abstracts", type=int, default=0)
    args = parser.parse_args()
    names = {0: "default"}
    for log in glob.glob(os.path.join(args.store, "LOG*")):
        with open(log, encoding="utf-8", errors="replace") as f:
            for m in re.finditer(r"Created column family \[(\w+)\] \(ID (\d+)\)", f.read()):
                names[int(m.group(2))] = m.group(1)
    sizes = {}
    for path in glob.glob(os.path.join(args.store, "*.sst")):
        with open(path, "rb") as f:
            data = f.read()
        at = data.rfind(b"column.family.id")
        family = data[at + len(b"column.family.id")] if at >= 0 else -1
        sizes[family] = sizes.get(family, 0) + os.path.getsize(path)
    total = sum(sizes.values()) or 1
    print("| column family | MiB | share | bytes per abstract |")
    print("|---|---:|---:|---:|")
    for family, size in sorted(sizes.items(), key=lambda kv: -kv[1]):
        per = f"{size / args.abstracts:,.0f}" if args.abstracts else ""
        print(f"| {names.get(family, family)} | {size / 2**20:,.1f} | "
              f"{100 * size / total:.1f}% | {per} |")
    per = f"{total / args.abstracts:,.0f}" if args.abstracts else ""
    print(f"| all SST files | {total / 2**20:,.1f} | 100% | {per} |")


if __name__ == "__main__":
    main()
