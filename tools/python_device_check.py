#!/usr/bin/env python3
"""The Python package's device checks (issue 17), on the 7-point Poisson system of n^3 rows.

    PYTHONPATH=<built package> tools/python_device_check.py [--n 160] [--runs 5]
        [--format ellpack] [--json out.json]

1. zero copy: a CuPy x0 is filled in place by Solver.solve (the same pointer);
2. time to solution through Python (wall clock of Solver.solve, CuPy b and x0, setup excluded)
   against the C++ API's own time of the same solve (SolveResult.solve_s, measured inside the
   library), median of --runs after a warm-up;
3. spkrylov.cg against cupyx.scipy.sparse.linalg.cg, both with Jacobi, rtol 1e-8, CuPy arrays
   in and out, in the same run: iterations, true relative residual (computed here) and time
   (CUDA events, median of --runs after a warm-up).

Exit status: 0 when every check passed, 1 when one failed, 77 without CuPy or a GPU."""
import argparse
import json
import sys
import time


def poisson3d(n):
    import scipy.sparse as sp
    one = sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(n, n), format="csr")
    eye = sp.identity(n, format="csr")
    return (sp.kron(sp.kron(one, eye), eye) + sp.kron(sp.kron(eye, one), eye) +
            sp.kron(sp.kron(eye, eye), one)).tocsr()


def median(values):
    values = sorted(values)
    return values[len(values) // 2]


def timed_events(cupy, body):
    start, stop = cupy.cuda.Event(), cupy.cuda.Event()
    start.record()
    out = body()
    stop.record()
    stop.synchronize()
    return cupy.cuda.get_elapsed_time(start, stop), out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=160)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--format", default="ellpack")
    parser.add_argument("--json")
    args = parser.parse_args()
    try:
        import cupy
        import cupyx.scipy.sparse as csp
        import cupyx.scipy.sparse.linalg as cspla
        cupy.cuda.runtime.getDeviceCount()
    except Exception as error:  # noqa: BLE001 - no CuPy or no GPU: say so, exit 77 (skip)
        print(f"python_device_check: CuPy with a GPU is not available ({error})", file=sys.stderr)
        return 77
    import spkrylov

    host = poisson3d(args.n)
    a = csp.csr_matrix(host)
    n = a.shape[0]
    b = cupy.ones(n)
    failures = []
    report = {"n": args.n, "rows": n, "nnz": int(a.nnz), "format": args.format,
              "cupy": cupy.__version__, "device": cupy.cuda.runtime.getDeviceProperties(0)["name"].decode()}

    def true_residual(x):
        return float(cupy.linalg.norm(b - a @ x) / cupy.linalg.norm(b))

    # 1. zero copy
    solver = spkrylov.Solver(a, method="cg", preconditioner="jacobi", format=args.format,
                             tol=1e-8, device="gpu")
    x0 = cupy.zeros(n)
    pointer = x0.data.ptr
    x, result = solver.solve(b, x0)
    zero_copy = x is x0 and x0.data.ptr == pointer and result.converged
    report["zero_copy"] = {"passed": zero_copy, "iterations": result.iterations,
                           "true_relative_residual": true_residual(x0)}
    print(f"1. zero copy: {'PASS' if zero_copy else 'FAIL'} (x is x0, pointer {pointer:#x}, "
          f"{result.iterations} iterations, true residual {true_residual(x0):.2e})")
    if not zero_copy:
        failures.append("zero copy")

    # 2. Python wall time against the library's own solve time, same solves
    walls, inside = [], []
    for run in range(args.runs + 1):
        x0.fill(0.0)
        cupy.cuda.get_current_stream().synchronize()
        start = time.perf_counter()
        _, result = solver.solve(b, x0)
        wall = time.perf_counter() - start
        if run > 0:  # the first is the warm-up
            walls.append(wall)
            inside.append(result.solve_s)
    ratio = median(walls) / median(inside)
    report["python_overhead"] = {"python_wall_ms": 1e3 * median(walls),
                                 "cpp_solve_ms": 1e3 * median(inside), "ratio": ratio,
                                 "iterations": result.iterations, "passed": ratio <= 1.02}
    print(f"2. Solver.solve through Python {1e3 * median(walls):.2f} ms against the C++ API's "
          f"{1e3 * median(inside):.2f} ms (SolveResult.solve_s): ratio {ratio:.4f} "
          f"({'within' if ratio <= 1.02 else 'NOT within'} 2%)")
    if ratio > 1.02:
        failures.append("python overhead")

    # 3. spkrylov.cg against cupyx cg, Jacobi both, CuPy arrays in and out
    inverse_diagonal = csp.diags(1.0 / a.diagonal())
    count = [0]

    def counted(_):
        count[0] += 1

    def cupy_cg():
        count[0] = 0
        return cspla.cg(a, b, rtol=1e-8, atol=0.0, maxiter=20000, M=inverse_diagonal,
                        callback=counted)

    def spk_cg():
        return spkrylov.cg(a, b, rtol=1e-8, M="jacobi", format=args.format, device="gpu")

    rows = {}
    for name, body in (("cupyx.scipy.sparse.linalg.cg", cupy_cg), ("spkrylov.cg", spk_cg)):
        body()  # warm-up
        times = []
        for _ in range(args.runs):
            ms, (x, info) = timed_events(cupy, body)
            times.append(ms)
        iterations = count[0] if name.startswith("cupyx") else None
        rows[name] = {"solve_ms": median(times), "info": int(info),
                      "true_relative_residual": true_residual(x), "iterations": iterations,
                      "output_type": type(x).__module__ + "." + type(x).__name__}
    # spkrylov.cg builds its Solver inside; its iteration count comes from a Solver run
    rows["spkrylov.cg"]["iterations"] = report["python_overhead"]["iterations"]
    report["cg"] = rows
    base = rows["cupyx.scipy.sparse.linalg.cg"]["solve_ms"]
    print("3. | solver | iterations | true rel. residual | ms (incl. spkrylov.cg's setup) | vs CuPy |")
    for name, row in rows.items():
        print(f"   | {name} | {row['iterations']} | {row['true_relative_residual']:.2e} | "
              f"{row['solve_ms']:.1f} | {base / row['solve_ms']:.2f}x |")
        if row["true_relative_residual"] > 1e-8 or row["info"] != 0:
            failures.append(f"{name} did not converge")
    if "cupy" not in rows["spkrylov.cg"]["output_type"]:
        failures.append("spkrylov.cg did not return a CuPy array")
    report["failures"] = failures
    if args.json:
        with open(args.json, "w") as out:
            json.dump(report, out, indent=1)
    print("failures: " + (", ".join(failures) if failures else "none"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
