#!/usr/bin/env python3
"""The table of a tools/scaling-run.sh measurement, with the scaling model's prediction next to
each row.

  tools/scaling_table.py LOG_DIR

Reads LOG_DIR/runs.tsv (one line per run) and each run's JSON report (LOG_DIR/NAME.json, the
fields written by frontend/run_report.cpp) and prints a markdown table: iterations,
ms/iteration (solve time / iterations executed, the report's times_ms.per_iteration), the ratio
to the 1-GPU row of the same case (strong scaling: the speedup; weak scaling: the efficiency),
the share of the solve not hidden by the overlap, the halo bytes per product (the processes'
halo_size x 8) and each process's phase times when the report has them ("-" where a field is
absent). The prediction (tools/scaling_model.py) takes the measured 1-GPU ms/iteration of the
same case as its compute time and the link figures of the model (vendor and reported, the
"fast" and "slow" scenarios); the link is NVLink when LOG_DIR/topo.txt shows one between GPU0
and GPU1, else PCIe. The 1-GPU row of a case is its one-process run without mpirun (the report
has no "distributed" object), else any one-process run.

A second table gives each run's way to its first iteration (tools/distributed-runs.sh): the
setup in total and by phase (each the largest over the processes: the per-process "setup_ms"
of the report), with the launch (process start to MPI_Init, MPI_Init), the load and the
statistics before it, then the solve, ms/iteration and the true residual.
"""
import csv
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
try:
    import scaling_model
except ImportError as error:  # numpy missing: the measured table alone
    scaling_model = None
    MODEL_MISSING = str(error)

PHASES = ["product_ms", "local_ms", "halo_ms", "exchange_ms", "allreduce_ms"]
# the report's per-process "setup_ms" keys, in the order they run
LAUNCH = ["start", "mpi_init", "load", "stats"]
SETUP_PHASES = ["partition", "context", "communicator", "layouts", "preconditioner", "warm_up"]


def load_runs(log_dir):
    with open(os.path.join(log_dir, "runs.tsv")) as f:
        runs = list(csv.DictReader(f, delimiter="\t"))
    for run in runs:
        path = os.path.join(log_dir, run["name"] + ".json")
        run["report"] = None
        if os.path.exists(path):
            try:
                with open(path) as f:
                    run["report"] = json.load(f)
            except json.JSONDecodeError:
                pass
    return runs


def topology(log_dir):
    """'nvlink' when nvidia-smi topo -m shows NV# between GPU0 and GPU1, else 'pcie'; None when
    the file is missing or shows one GPU."""
    try:
        with open(os.path.join(log_dir, "topo.txt")) as f:
            for line in f:
                cells = [c.strip() for c in line.split("\t")]
                if cells and cells[0] == "GPU0" and len(cells) > 2 and cells[2].startswith(
                        ("NV", "SYS", "NODE", "PHB", "PXB", "PIX")):
                    return "nvlink" if cells[2].startswith("NV") else "pcie"
    except OSError:
        pass
    return None


def ms_per_iteration(report):
    return report["times_ms"]["per_iteration"] if report else None


def text(value, fmt="{:.4f}"):
    return "-" if value is None else fmt.format(value)


def phases_text(distributed):
    cells = []
    for process in distributed.get("per_process", []):
        phases = process.get("phases")
        if not isinstance(phases, dict):
            continue
        values = "/".join(text(phases.get(k)) for k in PHASES)
        cells.append(f"r{process.get('rank', '?')} {values}")
    return "; ".join(cells) if cells else "-"


def prediction(run, one_gpu, link, transport, overlap):
    """(predicted ms, predicted ratio to 1 GPU) as text, fast–slow links."""
    if scaling_model is None or one_gpu is None or run["report"] is None:
        return "-", "-"
    gpus, processes = int(run["gpus"]), int(run["processes"])
    case = run["case"]
    if processes == 1:
        return "(its compute time)", "-"
    if gpus != processes or case not in scaling_model.CASES or link is None:
        return "-", "-"  # processes sharing a GPU, or an unknown link
    expected = scaling_model.case_matrix(case, gpus).rows
    if run["report"]["matrix"]["rows"] != expected:
        return "-", "-"  # not the case's size (a pipeline test)
    fast, slow = scaling_model.calibrated_prediction(
        case, gpus, ms_per_iteration(one_gpu), link,
        "nccl" if str(transport).startswith("nccl") else "mpi", str(overlap).lower() == "true")
    one = ms_per_iteration(one_gpu)
    return (scaling_model.span(fast, slow, "{:.4f}"),
            scaling_model.span(one / fast, one / slow, "{:.2f}") + "×")


def table(log_dir):
    runs = load_runs(log_dir)
    link = topology(log_dir)
    one_gpu = {}
    for r in runs:  # per case: a one-process run without mpirun, else any one-process run
        if r["processes"] == "1" and r["report"] is not None:
            if not r["report"].get("distributed") or r["case"] not in one_gpu:
                one_gpu[r["case"]] = r["report"]
    lines = ["| case | GPUs | processes | transport | overlap | status | iterations | "
             "ms/iteration | vs 1 GPU | model ms/iteration | model vs 1 GPU | not hidden | "
             "halo MB per product | phases per process: product/local/halo/exchange/sum ms |",
             "|---" * 14 + "|"]
    for run in runs:
        report = run["report"]
        if report is None:
            lines.append(f"| {run['name']} | {run['gpus']} | {run['processes']} | "
                         f"{run['transport']} | {run['overlap']} | no report (exit "
                         f"{run['exit']}) |" + " - |" * 8)
            continue
        distributed = report.get("distributed") or {}
        # as the report says; else as asked (runs.tsv), marked *
        transport = distributed.get("transport", run["transport"] + "*" if distributed else "-")
        overlap = distributed.get("overlap", run["overlap"] + "*" if distributed else "-")
        ms = ms_per_iteration(report)
        one = one_gpu.get(run["case"])
        ratio = (f"{ms_per_iteration(one) / ms:.2f}×" if one is not None and ms else "-")
        halo = (sum(p.get("halo_size", 0) for p in distributed.get("per_process", [])) * 8e-6
                if distributed else None)
        share = distributed.get("not_hidden_share") if distributed else None
        model_ms, model_ratio = prediction(run, one, link, str(transport).rstrip("*"),
                                           str(overlap).rstrip("*"))
        lines.append(
            f"| {run['case']} | {run['gpus']} | {run['processes']} | {transport} | "
            f"{str(overlap).lower()} | {report['status']} | {report['iterations']} "
            f"({report['iterations_executed']}) | {text(ms)} | {ratio} | {model_ms} | "
            f"{model_ratio} | {text(None if share is None else 100 * share, '{:.1f}%')} | "
            f"{text(halo, '{:.3f}')} | {phases_text(distributed) if distributed else '-'} |")
    notes = [
        "",
        "iterations: the iteration that produced x (executed, a multiple of check_every). "
        "ms/iteration: solve time / iterations executed. vs 1 GPU: the 1-GPU row's ms/iteration "
        "over this row's (weak7: the weak-scaling efficiency). *: as asked in runs.tsv (the "
        "report has no such field). phases: medians timed after the solve, per process.",
        "model: tools/scaling_model.py with the 1-GPU row's ms/iteration as the compute time "
        f"and the {link or 'unknown (no topo.txt)'} link's vendor/reported figures "
        "(fast–slow); '-' for processes sharing a GPU or a size other than the case's.",
    ]
    if scaling_model is None:
        notes.append(f"model: not available here ({MODEL_MISSING}).")
    return "\n".join(lines + notes)


def largest_setup(per_process, key):
    """The largest per-process setup_ms[key]; None when no process has it."""
    values = [p["setup_ms"][key] for p in per_process
              if isinstance(p.get("setup_ms"), dict) and p["setup_ms"].get(key) is not None]
    return max(values) if values else None


def setup_table(log_dir):
    """Each run's setup by phase, the largest over its processes, in ms."""
    runs = load_runs(log_dir)
    if not any(r["report"] for r in runs):
        return ""
    phases = LAUNCH + ["total"] + SETUP_PHASES
    lines = ["| case | processes | launcher | status | iterations | " +
             " | ".join(f"{p.replace('_', ' ')} ms" for p in phases) +
             " | solve ms | ms/iteration | true residual (relative) |",
             "|---" * (len(phases) + 8) + "|"]
    for run in runs:
        report = run["report"]
        if report is None:
            lines.append(f"| {run['case']} | {run['processes']} | - | no report (exit "
                         f"{run['exit']}) |" + " - |" * (len(phases) + 4))
            continue
        distributed = report.get("distributed") or {}
        per_process = distributed.get("per_process", [])
        times = report["times_ms"]
        if distributed:
            cells = [largest_setup(per_process, key) for key in phases]
        else:  # one process without mpirun: the Solver's setup, not split into phases
            cells = [None, None, times.get("load"), None, times.get("setup")] + \
                [None] * len(SETUP_PHASES)
        lines.append(
            f"| {run['case']} | {run['processes']} | {'mpirun' if distributed else 'solver'} | "
            f"{report['status']} | {report['iterations']} | " +
            " | ".join(text(c, "{:.1f}") for c in cells) +
            f" | {text(times.get('solve'), '{:.1f}')} | {text(ms_per_iteration(report))} | "
            f"{text(report.get('relative_true_residual'), '{:.2e}')} |")
    notes = [
        "",
        "setup: the largest over the processes of each phase (a phase that waits in a collective "
        "call holds the wait for the slowest process). start: process start to MPI_Init, in "
        "10 ms steps; load: its rows and b; stats: the report's matrix statistics; total: the "
        "solver's setup, partition (checks, split, halo plan) to warm-up (one product and one "
        "sum: NCCL's connections). solver rows: the one-process Solver without mpirun (its "
        "setup is not split; load is the whole matrix's).",
    ]
    return "\n".join(lines + notes)


def loop_table(log_dir):
    """The time loops (config steps > 1): each run's loop, its update_values and solves, and the
    iterations of the first and last solves; None when no run has one."""
    runs = [r for r in load_runs(log_dir) if r["report"] and r["report"].get("steps")]
    if not runs:
        return None
    lines = ["| case | processes | launch | steps | loop ms | update ms | solve ms | "
             "setup ms | setup + loop ms | iterations (first, last) | worst true residual |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for run in runs:
        report, loop = run["report"], run["report"]["steps"]
        after = loop["after_the_first"]
        worst = max([report["relative_true_residual"]] +
                    [s["relative_true_residual"] for s in after])
        statuses = {report["status"]} | {s["status"] for s in after}
        setup = report["times_ms"]["setup"]
        lines.append(
            f"| {run['case']} | {run['processes']} | "
            f"{'mpirun' if report.get('distributed') else 'solver'} | {loop['count']} | "
            f"{loop['loop_ms']:.1f} | {loop['update_ms']:.1f} | {loop['solve_ms']:.1f} | "
            f"{setup:.1f} | {setup + loop['loop_ms']:.1f} | "
            f"{report['iterations']}, {after[-1]['iterations']} | {worst:.2e}"
            f"{'' if statuses == {'converged'} else ' (' + ', '.join(sorted(statuses)) + ')'} |")
    lines += ["", "loop: the first solve and each later step's wall time (update_values, then a "
              "solve from x = 0 after every value is scaled by 1 + 0.01 (k - 1)); setup: the "
              "first setup (the largest process's under mpirun)."]
    return "\n".join(lines)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: tools/scaling_table.py LOG_DIR")
    print(table(sys.argv[1]))
    setups = setup_table(sys.argv[1])
    if setups:
        print("\n" + setups)
    loops = loop_table(sys.argv[1])
    if loops:
        print("\n" + loops)


if __name__ == "__main__":
    main()
