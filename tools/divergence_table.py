#!/usr/bin/env python3
"""What the divergence test costs: each case solved with solver.divergence_factor = 1e10 and
with it off (0, the default), b = ones, x0 = 0, tolerance 1e-8 relative to ||b||.

For each run: status, iterations, residual replacements, the true relative residual
||b - A x|| / ||b|| from spkrylov's report, and the peak of the recursive residual history
relative to ||r0||. The table is the evidence behind the default (BENCHMARKS.md).

  tools/divergence_table.py [--spkrylov build/apps/spkrylov] [--device cpu|gpu]
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# (label, matrix.generate keys as KEY=VALUE, solver.method)
CASES = [
    ("convdiff2d 128^2 upwind Pe=2", "kind=convdiff2d n=128 peclet=2", "bicgstab"),
    ("convdiff2d 128^2 upwind Pe=5", "kind=convdiff2d n=128 peclet=5", "bicgstab"),
    ("convdiff2d 128^2 upwind Pe=10", "kind=convdiff2d n=128 peclet=10", "bicgstab"),
    ("convdiff2d 128^2 upwind Pe=20", "kind=convdiff2d n=128 peclet=20", "bicgstab"),
    ("convdiff2d 128^2 upwind Pe=50", "kind=convdiff2d n=128 peclet=50", "bicgstab"),
    ("convdiff2d 256^2 upwind Pe=10", "kind=convdiff2d n=256 peclet=10", "bicgstab"),
    ("convdiff2d 128^2 central Pe=2", "kind=convdiff2d n=128 peclet=2 convection=central", "bicgstab"),
    ("convdiff3d 32^3 upwind Pe=10", "kind=convdiff3d n=32 peclet=10", "bicgstab"),
    ("convdiff3d 64^3 upwind Pe=10", "kind=convdiff3d n=64 peclet=10", "bicgstab"),
    ("convdiff3d 64^3 central Pe=1", "kind=convdiff3d n=64 peclet=1 convection=central", "bicgstab"),
    ("convdiff2d 128^2 upwind Pe=10 (CG)", "kind=convdiff2d n=128 peclet=10", "cg"),
]


def run(spkrylov, generate, method, factor, device, work):
    report = os.path.join(work, "report.json")
    history = os.path.join(work, "history.csv")
    for path in (report, history):
        if os.path.exists(path):
            os.remove(path)
    command = [spkrylov, "solve", "--quiet", "--set", f"solver.method={method}",
               "--set", f"solver.divergence_factor={factor}", "--set", f"device={device}",
               "--set", f"output.report={report}", "--set", f"output.history={history}"]
    for item in generate.split():
        command += ["--set", f"matrix.generate.{item}"]
    proc = subprocess.run(command, capture_output=True, text=True)
    if not os.path.exists(report):
        return None, proc.stderr.strip()
    with open(report) as f:
        result = json.load(f)
    with open(history) as f:
        residuals = [float(row["residual"]) for row in csv.DictReader(f)]
    peak = max(residuals) / residuals[0] if residuals and residuals[0] > 0 else float("nan")
    return result, peak


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--spkrylov", default=os.path.join(ROOT, "build/apps/spkrylov"))
    parser.add_argument("--device", default="cpu", choices=["cpu", "gpu"])
    args = parser.parse_args()
    print(f"| case | method | divergence_factor | status | iterations | replacements | "
          f"true rel. residual | peak ‖r‖/‖r0‖ | solve ms |")
    print("|---|---|---|---|---|---|---|---|---|")
    errors = 0
    with tempfile.TemporaryDirectory() as work:
        for label, generate, method in CASES:
            for factor in ("1e10", "0"):
                result, peak = run(args.spkrylov, generate, method, factor, args.device, work)
                if result is None:
                    print(f"| {label} | {method} | {factor} | error: {peak} | | | | | |")
                    errors += 1
                    continue
                print(f"| {label} | {method} | {factor} | {result['status']} | {result['iterations']} | "
                      f"{result['residual_replacements']} | {result['relative_true_residual']:.1e} | "
                      f"{peak:.1e} | {result['times_ms']['solve']:.0f} |", flush=True)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
