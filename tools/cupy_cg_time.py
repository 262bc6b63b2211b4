#!/usr/bin/env python3
"""CuPy's cg on the 3-D Poisson systems spkrylov generates (n^3 rows, 7- or 27-point, rhs
ones), with Jacobi or without a preconditioner: what a Python user has on the GPU, timed the
way `spkrylov bench` times (CUDA events, one warm-up solve, the median of the timed ones).
Prints one line per n; --json writes them.

    tools/cupy_cg_time.py --n 160 [--n 256] [--stencil 7|27] [--preconditioner jacobi|none]
                          [--runs 3] [--json out.json]

The true residual ||b - A x|| / ||b|| of each answer is computed and printed: a count is only
worth comparing when that meets the tolerance."""
import argparse
import json
import sys


def poisson3d(n, stencil=7):
    import scipy.sparse as sp
    eye = sp.identity(n, format="csr")
    if stencil == 27:  # 26 on the diagonal, -1 for each of the 26 neighbours (as spkrylov's)
        ones = sp.diags([1.0, 1.0, 1.0], [-1, 0, 1], shape=(n, n), format="csr")
        return (27.0 * sp.identity(n ** 3, format="csr") -
                sp.kron(sp.kron(ones, ones), ones)).tocsr()
    one = sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(n, n), format="csr")
    return (sp.kron(sp.kron(one, eye), eye) + sp.kron(sp.kron(eye, one), eye) +
            sp.kron(sp.kron(eye, eye), one)).tocsr()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, action="append", required=True)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--tolerance", type=float, default=1e-8)
    parser.add_argument("--stencil", type=int, choices=(7, 27), default=7)
    parser.add_argument("--preconditioner", choices=("jacobi", "none"), default="jacobi")
    parser.add_argument("--json")
    args = parser.parse_args()
    try:
        import cupy
        import cupyx.scipy.sparse as csp
        import cupyx.scipy.sparse.linalg as cspla
        cupy.cuda.runtime.getDeviceCount()
    except Exception as error:  # noqa: BLE001 - no CuPy or no GPU: say so, exit 77 (skip)
        print(f"cupy_cg_time: CuPy with a GPU is not available ({error})", file=sys.stderr)
        return 77
    rows = []
    for n in args.n:
        a = csp.csr_matrix(poisson3d(n, args.stencil))
        b = cupy.ones(a.shape[0])
        m = csp.diags(1.0 / a.diagonal()) if args.preconditioner == "jacobi" else None
        count = [0]

        def callback(_):
            count[0] += 1

        def solve():
            count[0] = 0
            try:
                return cspla.cg(a, b, rtol=args.tolerance, atol=0.0, maxiter=20000, M=m,
                                callback=callback)
            except TypeError:  # older CuPy calls it tol
                return cspla.cg(a, b, tol=args.tolerance, atol=0.0, maxiter=20000, M=m,
                                callback=callback)

        solve()  # warm-up: kernels compiled, cuSPARSE handles made
        times = []
        for _ in range(args.runs):
            start, stop = cupy.cuda.Event(), cupy.cuda.Event()
            start.record()
            x, info = solve()
            stop.record()
            stop.synchronize()
            times.append(cupy.cuda.get_elapsed_time(start, stop))
        times.sort()
        residual = float(cupy.linalg.norm(b - a @ x) / cupy.linalg.norm(b))
        row = {"n": n, "rows": n ** 3, "iterations": count[0], "info": int(info),
               "solve_ms": times[len(times) // 2], "ms_per_iteration": times[len(times) // 2] / max(1, count[0]),
               "true_relative_residual": residual, "cupy": cupy.__version__}
        rows.append(row)
        row["stencil"] = args.stencil
        row["preconditioner"] = args.preconditioner
        print(f"cupy cg ({args.preconditioner}) {args.stencil}-point n={n} ({n**3} rows): "
              f"{count[0]} iterations, info {info}, "
              f"solve {row['solve_ms']:.1f} ms ({row['ms_per_iteration']:.4f} ms/iter), "
              f"true relative residual {residual:.2e}, CuPy {cupy.__version__}")
    if args.json:
        with open(args.json, "w") as out:
            json.dump(rows, out, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
