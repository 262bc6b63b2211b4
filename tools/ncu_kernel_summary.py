#!/usr/bin/env python3
"""Sums an Nsight Compute CSV (ncu --csv --metrics gpu__time_duration.sum) by kernel and grid.

Usage: tools/ncu_kernel_summary.py NCU.csv [--top N]

The CSV is what, for example,
  ncu --clock-control none --nvtx --nvtx-include "spk solve/" \\
      --metrics gpu__time_duration.sum --csv spkrylov bench --preconditioners amg ...
prints: one row per kernel launch inside the NVTX range "spk solve" (solver/krylov_driver.hpp).
The grid size tells the levels of an AMG cycle apart (it follows the rows).
"""
import argparse
import collections
import csv
import io
import sys


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("csv_file")
    parser.add_argument("--top", type=int, default=30)
    args = parser.parse_args()
    lines = open(args.csv_file, encoding="utf-8", errors="replace").read().splitlines()
    starts = [i for i, line in enumerate(lines) if line.startswith('"ID"')]
    if not starts:
        print(f"{args.csv_file}: no ncu CSV header (\"ID\",...) found", file=sys.stderr)
        return 1
    scale = {"ns": 1e-3, "nsecond": 1e-3, "us": 1.0, "usecond": 1.0, "ms": 1e3, "msecond": 1e3}
    total = collections.defaultdict(float)
    count = collections.Counter()
    for row in csv.DictReader(io.StringIO("\n".join(lines[starts[0]:]))):
        if row.get("Metric Name") != "gpu__time_duration.sum":
            continue
        unit = row["Metric Unit"]
        if unit not in scale:
            print(f"{args.csv_file}: unknown time unit '{unit}'", file=sys.stderr)
            return 1
        key = (row["Kernel Name"][:60], row["Grid Size"])
        total[key] += float(row["Metric Value"].replace(",", "")) * scale[unit]
        count[key] += 1
    print(f"total us {round(sum(total.values()))} kernels {sum(count.values())}")
    print(f"{'total us':>10} {'calls':>5} {'us/call':>8}  (kernel, grid)")
    for key, value in sorted(total.items(), key=lambda kv: -kv[1])[: args.top]:
        print(f"{value:10.1f} {count[key]:5d} {value / count[key]:8.1f}  {key}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
