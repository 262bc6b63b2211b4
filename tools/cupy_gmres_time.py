#!/usr/bin/env python3
"""CuPy's gmres(restart=30) on a Matrix Market file (b = ones, x0 = 0, no preconditioner),
timed as `spkrylov bench` times (CUDA events, one warm-up solve, the median of the timed ones),
with the true residual of its answer: the GPU peer of spkrylov's GMRES (issue 31).

    tools/cupy_gmres_time.py MATRIX.mtx [--restart 30] [--tolerance 1e-8] [--runs 3]

Writes one line: rows, iterations (CuPy's inner iterations: callback_type='pr_norm' calls),
median solve time in ms, true relative residual. Exit 77 where CuPy or a GPU is missing."""
import argparse
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("matrix")
    parser.add_argument("--restart", type=int, default=30)
    parser.add_argument("--tolerance", type=float, default=1e-8)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--max-iterations", type=int, default=20000)
    args = parser.parse_args()
    try:
        import cupy
        import cupyx.scipy.sparse as csp
        import cupyx.scipy.sparse.linalg as cspla
        import scipy.io
        import scipy.sparse as sp
        cupy.cuda.runtime.getDeviceCount()
    except Exception as error:  # noqa: BLE001 - no CuPy or no GPU: say so, exit 77 (skip)
        print(f"cupy_gmres_time: CuPy with a GPU is not available ({error})", file=sys.stderr)
        return 77
    a = csp.csr_matrix(sp.csr_matrix(scipy.io.mmread(args.matrix)))
    b = cupy.ones(a.shape[0])
    count = [0]

    def callback(_):
        count[0] += 1

    cycles = (args.max_iterations + args.restart - 1) // args.restart

    def solve():
        count[0] = 0
        keys = dict(atol=0.0, restart=args.restart, maxiter=cycles, callback=callback,
                    callback_type="pr_norm")
        try:
            return cspla.gmres(a, b, rtol=args.tolerance, **keys)
        except TypeError:  # CuPy before rtol: tol
            count[0] = 0
            return cspla.gmres(a, b, tol=args.tolerance, **keys)

    solve()  # warm-up: kernels compiled, memory pool filled
    times = []
    for _ in range(args.runs):
        start, stop = cupy.cuda.Event(), cupy.cuda.Event()
        start.record()
        x, info = solve()
        stop.record()
        stop.synchronize()
        times.append(cupy.cuda.get_elapsed_time(start, stop))
    residual = float(cupy.linalg.norm(b - a @ x) / cupy.linalg.norm(b))
    times.sort()
    print(f"cupy gmres({args.restart}) rows {a.shape[0]} iterations {count[0]} info {info} "
          f"median_ms {times[len(times) // 2]:.1f} true_relative_residual {residual:.2e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
