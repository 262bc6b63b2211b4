#!/usr/bin/env python3
"""Compares two `spkrylov bench --csv` tables cell by cell (median ms per matrix, backend and
precision) and prints the relative change; exits 1 when a cell moved more than --limit.
  tools/bench_compare.py OLD.csv NEW.csv [--limit 0.03]"""
import argparse
import csv
import sys


def load(path):
    """Cells keyed by (matrix, backend, precision); the auto row, whose backend label names
    its choice, is keyed as "auto"."""
    with open(path, newline="") as handle:
        rows = {}
        for row in csv.DictReader(handle):
            backend = "auto" if row["backend"].endswith("(auto)") else row["backend"]
            rows[(row["matrix"], backend, row["precision"])] = row
        return rows


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--limit", type=float, default=0.03)
    args = parser.parse_args()
    old, new = load(args.old), load(args.new)
    outside = 0
    print(f"{'change':>8} {'old ms':>9} {'new ms':>9}  matrix / backend")
    for key in sorted(old, key=lambda k: (k[0], k[1])):
        if key not in new:
            print(f"{'missing':>8} {'':9} {'':9}  {key[0]} / {key[1]}")
            outside += 1
            continue
        a, b = float(old[key]["median_ms"]), float(new[key]["median_ms"])
        if a <= 0.0 or b <= 0.0:  # a refused or failed cell: its status must not change
            same = old[key]["status"].split(":")[0] == new[key]["status"].split(":")[0]
            outside += not same
            print(f"{'status':>8} {old[key]['status'].split(':')[0]:>9} "
                  f"{new[key]['status'].split(':')[0]:>9}  {key[0]} / {key[1]}"
                  f"{'' if same else '  <-- changed'}")
            continue
        change = b / a - 1.0
        flag = "" if abs(change) <= args.limit else "  <-- outside"
        outside += bool(flag)
        print(f"{100 * change:+7.1f}% {a:9.4f} {b:9.4f}  {key[0]} / {key[1]}{flag}")
    print(f"{len(old)} cells, {outside} outside +-{100 * args.limit:.0f}%")
    return 1 if outside else 0


if __name__ == "__main__":
    sys.exit(main())
