#!/usr/bin/env python3
"""The tables of tools/old-new-runs.sh, old against new: each row's time and its change.
  tools/old_new_compare.py OUT_DIR [--limit 0.03]
Solver rows: ms per iteration (bench --solvers); preconditioner rows: solve ms and device
setup ms (bench --preconditioners); distributed smoke: ms per iteration of each run. Exits 1
when a row moved by more than the limit, 2 when a table is missing."""
import argparse
import csv
import os
import re
import sys


def rows(path):
    with open(path, newline="") as handle:
        return list(csv.DictReader(line for line in handle if not line.startswith("#")))


def solver_times(path):
    return {(r["matrix"], r["method"], r["solver"]): float(r["ms_per_iteration"])
            for r in rows(path)}


def preconditioner_times(path):
    times = {}
    for r in rows(path):
        times[(r["matrix"], r["preconditioner"], "solve ms")] = float(r["solve_ms"])
        times[(r["matrix"], r["preconditioner"], "setup ms")] = float(r["setup_device_ms"])
    return times


PER_ITERATION = re.compile(r"([0-9.]+) ms per iteration")


def smoke_times(folder):
    times = {}
    for name in sorted(os.listdir(folder)):
        if name.endswith(".log"):
            with open(os.path.join(folder, name)) as handle:
                found = PER_ITERATION.findall(handle.read())
            if found:
                times[(name[:-4], "ms per iteration")] = float(found[-1])
    return times


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--limit", type=float, default=0.03)
    args = parser.parse_args()
    tables = [("bench --solvers", solver_times, "solvers-{}.csv"),
              ("bench --preconditioners", preconditioner_times, "preconditioners-{}.csv"),
              ("distributed smoke", smoke_times, "smoke-{}")]
    outside = total = 0
    for title, read, pattern in tables:
        try:
            old = read(os.path.join(args.out, pattern.format("old")))
            new = read(os.path.join(args.out, pattern.format("new")))
        except (OSError, KeyError, ValueError) as error:
            print(f"{title}: no table ({error})")
            return 2
        print(f"\n{title}\n{'change':>8} {'old':>10} {'new':>10}  row")
        for key in old:
            if key not in new or old[key] <= 0:
                print(f"{'':>8} {old[key]:>10.4f} {'missing':>10}  {' / '.join(key)}")
                continue
            change = new[key] / old[key] - 1.0
            mark = " <-" if abs(change) > args.limit else ""
            outside += bool(mark)
            total += 1
            print(f"{change:>+8.1%} {old[key]:>10.4f} {new[key]:>10.4f}  {' / '.join(key)}{mark}")
    print(f"\n{total - outside} of {total} rows within ±{args.limit:.0%}")
    return 1 if outside else 0


if __name__ == "__main__":
    sys.exit(main())
