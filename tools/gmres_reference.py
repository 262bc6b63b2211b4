#!/usr/bin/env python3
"""SciPy's restarted GMRES iteration counts, the reference for spkrylov's GMRES tests
(tests/cpu/test_gmres_cpu.cpp holds them as constants, with this command).

For each case: b = ones, x0 = 0, rtol 1e-8 (||b - A x|| <= 1e-8 ||b||), restart 30, no
preconditioner, SciPy's scipy.sparse.linalg.gmres. The count is SciPy's INNER iterations
(Arnoldi steps, one product with A each): the calls of a callback_type='pr_norm' callback,
made once per inner iteration in SciPy >= 1.12 (whose maxiter then counts restart cycles; the
'legacy' type counts the same inner iterations but lets maxiter cap them). The true residual of
SciPy's answer is checked, not its info flag.

  tools/gmres_reference.py [--spkrylov build/apps/spkrylov] [--restart 30] [--matrices DIR]
                           [--device cpu|gpu] [--jacobi]

The generated matrices come from `spkrylov info --generate KEYS --write FILE`, so they are
exactly the ones the C++ test generates. Prints one line per case: rows, SciPy's inner
iterations, info and true relative residual; with --device, spkrylov's gmres (solve --device
DEVICE, JSON report) beside it: iterations, status, true relative residual, and the difference
in percent. --jacobi adds Jacobi on both sides where the diagonal has no zero: SciPy
preconditions on the left (it minimises ||M^-1 r||), spkrylov on the right (||r||), so those
counts are reported, not expected to agree.
"""
import argparse
import os
import sys
import tempfile

try:
    import numpy as np
    import scipy
    import scipy.io
    import scipy.sparse.linalg as spla
except ImportError as missing:
    print(f"gmres_reference: skipped, {missing}")
    sys.exit(77)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from peer_common import generated_matrix, solve_with_report  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOLERANCE = 1e-8
MAX_ITERATIONS = 20000

# (label, generator keys or a file name under --matrices)
CASES = [
    ("convdiff2d n=48 central Pe=1", "kind=convdiff2d,n=48,peclet=1,convection=central"),
    ("convdiff2d n=48 central Pe=10", "kind=convdiff2d,n=48,peclet=10,convection=central"),
    ("convdiff2d n=48 central Pe=50", "kind=convdiff2d,n=48,peclet=50,convection=central"),
    ("convdiff2d n=48 upwind Pe=1", "kind=convdiff2d,n=48,peclet=1"),
    ("convdiff2d n=48 upwind Pe=10", "kind=convdiff2d,n=48,peclet=10"),
    ("convdiff2d n=48 upwind Pe=50", "kind=convdiff2d,n=48,peclet=50"),
    ("convdiff3d n=16 central Pe=1", "kind=convdiff3d,n=16,peclet=1,convection=central"),
    ("convdiff3d n=16 central Pe=10", "kind=convdiff3d,n=16,peclet=10,convection=central"),
    ("convdiff3d n=16 upwind Pe=1", "kind=convdiff3d,n=16,peclet=1"),
    ("convdiff3d n=16 upwind Pe=10", "kind=convdiff3d,n=16,peclet=10"),
    ("convdiff3d n=16 upwind Pe=50", "kind=convdiff3d,n=16,peclet=50"),
    ("west0479", "west0479.mtx"),
    ("rajat01", "rajat01.mtx"),
    ("watt_2", "watt_2.mtx"),
    ("Pd", "Pd.mtx"),
]


def scipy_gmres(a, restart, jacobi=False):
    b = np.ones(a.shape[0])
    m = scipy.sparse.diags(1.0 / a.diagonal()) if jacobi else None
    count = [0]

    def callback(_):
        count[0] += 1

    cycles = (MAX_ITERATIONS + restart - 1) // restart
    with np.errstate(all="ignore"):
        x, info = spla.gmres(a, b, rtol=TOLERANCE, atol=0.0, restart=restart, maxiter=cycles, M=m,
                             callback=callback, callback_type="pr_norm")
        residual = float(np.linalg.norm(b - a @ x) / np.linalg.norm(b))
    return count[0], int(info), residual


def run_spkrylov(args, path, preconditioner, work):
    report = solve_with_report(
        args.spkrylov,
        f"matrix: {{file: {path}}}\nrhs: ones\n"
        f"solver: {{method: gmres, restart: {args.restart}, tolerance: {TOLERANCE}, "
        f"tolerance_mode: rhs, max_iterations: {MAX_ITERATIONS}, preconditioner: {preconditioner}}}\n"
        f"device: {args.device}\n", work)
    result = report.get("result", report)
    return {"iterations": result.get("iterations", -1), "status": result.get("status", "error"),
            "relative_true_residual": result.get("relative_true_residual", float("nan"))}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spkrylov", default=os.path.join(ROOT, "build/apps/spkrylov"))
    parser.add_argument("--restart", type=int, default=30)
    parser.add_argument("--matrices", default=os.path.join(ROOT, "../shared/matrices"))
    parser.add_argument("--device", choices=["cpu", "gpu"], help="also run spkrylov there")
    parser.add_argument("--jacobi", action="store_true", help="also both with Jacobi")
    args = parser.parse_args()
    print(f"# SciPy {scipy.__version__}, gmres(restart={args.restart}, rtol={TOLERANCE}), "
          "b = ones, x0 = 0; inner iterations (callback_type='pr_norm')")
    with tempfile.TemporaryDirectory() as work:
        for label, source in CASES:
            if source.endswith(".mtx"):
                path = os.path.join(args.matrices, source)
                if not os.path.exists(path):
                    path = os.path.join(ROOT, "data", source)
                if not os.path.exists(path):
                    print(f"{label:34s} missing")
                    continue
            else:
                path = generated_matrix(args.spkrylov, source, work)
            a = scipy.sparse.csr_array(scipy.io.mmread(path))
            preconditioners = ["none"]
            if args.jacobi and np.all(a.diagonal() != 0):
                preconditioners.append("jacobi")
            for preconditioner in preconditioners:
                iterations, info, residual = scipy_gmres(a, args.restart, preconditioner == "jacobi")
                line = (f"{label:34s} {preconditioner:6s} {a.shape[0]:7d} {iterations:6d} {info:6d} "
                        f"{residual:.2e}")
                if args.device:
                    ours = run_spkrylov(args, path, preconditioner, work)
                    line += (f"   spkrylov {ours['iterations']:6d} {ours['status']:14s} "
                             f"{ours.get('relative_true_residual', float('nan')):.2e} "
                             f"{100.0 * (ours['iterations'] - iterations) / iterations:+6.1f}%")
                print(line, flush=True)


if __name__ == "__main__":
    main()
