#!/usr/bin/env python3
"""The table of a tools/pipecg-runs.sh measurement: fused CG against pipelined CG.

  tools/pipecg_table.py LOG_DIR

Reads LOG_DIR/runs.tsv and each run's JSON report (frontend/run_report.cpp's fields). For each
(n, processes, preconditioner) row: both methods' iterations and ms/iteration (the report's
times_ms.per_iteration, solve time / iterations executed; of REPEAT solves the fastest), the
ratio pipecg / CG (the issue's target: <= 0.9 at 4 GPUs and 128³), the count difference in
percent (target: within 2%), the true relative residuals, and, over several processes, the
sums' wait per iteration on rank 0 (distributed.per_process[0].reduction_ms / iterations
executed: what the overlap did not hide on the mpi transport; 0 over NCCL, whose sums run on
the stream). A run without a report is "-", its exit code in runs.tsv.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scaling_table import load_runs  # noqa: E402  (runs.tsv and each run's report)


def fastest(runs):
    """The report with the smallest ms/iteration among converged runs, else any report."""
    reports = [r["report"] for r in runs if r["report"] is not None]
    converged = [r for r in reports if r.get("status") == "converged"]
    pool = converged or reports
    return min(pool, key=lambda r: r["times_ms"]["per_iteration"]) if pool else None


def wait_per_iteration(report):
    distributed = report.get("distributed") or {}
    processes = distributed.get("per_process") or []
    if not processes or not report.get("iterations_executed"):
        return None
    return processes[0].get("reduction_ms", 0.0) / report["iterations_executed"]


def text(value, form):
    return "-" if value is None else form.format(value)


def table(runs):
    groups = {}
    for run in runs:
        key = (int(run["n"]), int(run["processes"]), run["preconditioner"])
        groups.setdefault(key, {}).setdefault(run["method"], []).append(run)
    lines = [
        "| n | processes | preconditioner | CG iterations | pipecg iterations | count diff | "
        "CG ms/it | pipecg ms/it | pipecg / CG | CG sum wait ms/it | pipecg sum wait ms/it | "
        "pipecg true rel. residual |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for key in sorted(groups):
        n, processes, preconditioner = key
        cg = fastest(groups[key].get("cg", []))
        pipe = fastest(groups[key].get("pipecg", []))
        cg_ms = cg["times_ms"]["per_iteration"] if cg else None
        pipe_ms = pipe["times_ms"]["per_iteration"] if pipe else None
        ratio = pipe_ms / cg_ms if cg_ms and pipe_ms else None
        diff = (100.0 * (pipe["iterations"] - cg["iterations"]) / cg["iterations"]
                if cg and pipe and cg["iterations"] else None)
        lines.append("| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |".format(
            f"{n}³", processes, preconditioner,
            text(cg and cg["iterations"], "{}"), text(pipe and pipe["iterations"], "{}"),
            text(diff, "{:+.1f}%"), text(cg_ms, "{:.4f}"), text(pipe_ms, "{:.4f}"),
            text(ratio, "{:.3f}"), text(cg and wait_per_iteration(cg), "{:.4f}"),
            text(pipe and wait_per_iteration(pipe), "{:.4f}"),
            text(pipe and pipe.get("relative_true_residual"), "{:.2e}")))
    failed = [r["name"] + " (exit " + r["exit"] + ")" for r in runs
              if r["report"] is None or r["report"].get("status") != "converged"]
    if failed:
        lines.append("")
        lines.append("not converged or no report: " + ", ".join(failed))
    return "\n".join(lines)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: tools/pipecg_table.py LOG_DIR")
    print(table(load_runs(sys.argv[1])))


if __name__ == "__main__":
    main()
