#!/usr/bin/env python3
"""A matrix-free A (a user operator) against the stored matrix, in one process: the 7-point
Poisson system on an n^3 grid (b = ones, x0 = 0, CG, no preconditioner, ||r|| <= rtol ||b||),
solved by spkrylov.Solver with

  csr       the CSR matrix in the SpMV format --format (GPU default ellpack-r), the library's
            own product, check_every and CUDA graphs at their defaults;
  operator  an object with matvec and shape whose matvec is the stencil itself (a CuPy
            RawKernel on the GPU, one pass over x, a new y from CuPy's pool; NumPy slices on
            the CPU), through spkrylov/_operators.py: CuPy views of the solver's vectors, the
            solver's stream, no host copies; check_every --check-every (1 for a SciPy user's
            matvec count; the csr run's 16 to compare like with like: both rows are printed).

Each configuration: one warm-up solve, then the median of --runs (time from the library's
solve_s). Printed per row: iterations, ms per iteration, the ratio to csr, and for the operator
the Python callback overhead per iteration (host time around the user's matvec minus the
time inside it: the GIL, the call, the views, the result checks, the copy into the solver's y;
spkrylov._operators.timings), and the true residual of the answer.

    PYTHONPATH=build/python tools/matrix_free_bench.py [--n 160] [--device gpu|cpu]
        [--format ellpack-r] [--rtol 1e-8] [--runs 3] [--check-every 1 --check-every 16]
        [--json out.json]

Exit 77 when the device asked for is not there (gpu: CuPy and a CUDA GPU).
"""
import argparse
import json
import statistics
import sys
import time

import numpy as np


def poisson3d(n):
    """The 7-point Laplacian on an n^3 grid (6 on the diagonal, -1 per neighbour inside the
    grid), rows ordered x fastest: the matrix the stencil applies."""
    import scipy.sparse as sp
    one = sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(n, n), format="csr")
    eye = sp.identity(n, format="csr")
    return (sp.kron(sp.kron(eye, eye), one) + sp.kron(sp.kron(eye, one), eye) +
            sp.kron(sp.kron(one, eye), eye)).tocsr()


STENCIL_SOURCE = r"""
extern "C" __global__ void spk_bench_stencil7(const double* __restrict__ x,
                                             double* __restrict__ y, int n) {
  const long long rows = (long long)n * n * n;
  const long long row = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  const int i = (int)(row % n), j = (int)((row / n) % n), k = (int)(row / ((long long)n * n));
  const long long plane = (long long)n * n;
  double sum = 6.0 * x[row];
  if (i > 0) sum -= x[row - 1];
  if (i + 1 < n) sum -= x[row + 1];
  if (j > 0) sum -= x[row - n];
  if (j + 1 < n) sum -= x[row + n];
  if (k > 0) sum -= x[row - plane];
  if (k + 1 < n) sum -= x[row + plane];
  y[row] = sum;
}
"""


class CupyStencil:
    """y = A x for poisson3d(n) with one CuPy RawKernel, on CuPy's current stream (the
    solver's, inside a solve)."""

    def __init__(self, n, cupy):
        self.n, self.cupy = n, cupy
        self.shape, self.dtype = (n ** 3, n ** 3), np.float64
        self._kernel = cupy.RawKernel(STENCIL_SOURCE, "spk_bench_stencil7")

    def matvec(self, x):
        y = self.cupy.empty_like(x)
        rows = self.n ** 3
        self._kernel(((rows + 255) // 256,), (256,), (x, y, np.int32(self.n)))
        return y


class NumpyStencil:
    """y = A x for poisson3d(n) with NumPy slices (the CPU path)."""

    def __init__(self, n):
        self.n, self.shape, self.dtype = n, (n ** 3, n ** 3), np.float64

    def matvec(self, x):
        u = x.reshape(self.n, self.n, self.n)
        y = 6.0 * u
        for axis in range(3):
            lower = [slice(None)] * 3
            upper = [slice(None)] * 3
            lower[axis], upper[axis] = slice(1, None), slice(None, -1)
            y[tuple(lower)] -= u[tuple(upper)]
            y[tuple(upper)] -= u[tuple(lower)]
        return y.reshape(-1)


def run(solver, b, zeros, runs):
    """Warm-up, then `runs` solves: (median seconds per executed iteration, the last result,
    its x, the iterations executed by all the solves)."""
    per_iteration, result, x, executed = [], None, None, 0
    for attempt in range(runs + 1):
        x, result = solver.solve(b, zeros())
        executed += result.iterations_executed
        if attempt > 0:
            per_iteration.append(result.solve_s / max(1, result.iterations_executed))
    return statistics.median(per_iteration), result, x, executed


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=160)
    parser.add_argument("--device", choices=("gpu", "cpu"), default="gpu")
    parser.add_argument("--format", default=None, help="the csr run's SpMV format "
                        "(default ellpack-r on the GPU, csr on the CPU)")
    parser.add_argument("--rtol", type=float, default=1e-8)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--check-every", type=int, action="append",
                        help="the operator runs' check_every (repeatable; default 1 and 16)")
    parser.add_argument("--json")
    args = parser.parse_args()
    import spkrylov
    from spkrylov import _operators

    cupy = None
    if args.device == "gpu":
        try:
            import cupy
            if cupy.cuda.runtime.getDeviceCount() == 0:
                raise RuntimeError("no CUDA GPU")
        except Exception as error:  # noqa: BLE001 - no CuPy or no GPU: skip
            print(f"matrix_free_bench: CuPy with a GPU is not available ({error})",
                  file=sys.stderr)
            return 77
    fmt = args.format or ("ellpack-r" if args.device == "gpu" else "csr")
    rows = args.n ** 3
    start = time.perf_counter()
    A = poisson3d(args.n)
    build_s = time.perf_counter() - start
    if cupy is not None:
        b = cupy.ones(rows)
        zeros = lambda: cupy.zeros(rows)  # noqa: E731
        operator = CupyStencil(args.n, cupy)
        check = operator.matvec(b) - cupy.asarray(A @ np.ones(rows))
        assert float(cupy.abs(check).max()) == 0.0, "the stencil is not the matrix"
    else:
        b = np.ones(rows)
        zeros = lambda: np.zeros(rows)  # noqa: E731
        operator = NumpyStencil(args.n)
        assert np.array_equal(operator.matvec(b), A @ b), "the stencil is not the matrix"

    def true_residual(x):
        x = cupy.asnumpy(x) if cupy is not None else x
        return float(np.linalg.norm(A @ x - 1.0) / np.sqrt(rows))

    common = dict(method="cg", preconditioner="none", rtol=args.rtol, device=args.device,
                  max_iterations=20000)
    table = []
    csr = spkrylov.Solver(A, format=fmt, **common)
    csr_s, csr_result, x, _ = run(csr, b, zeros, args.runs)
    table.append(dict(run=f"csr {fmt}", check_every=16, iterations=csr_result.iterations,
                      ms_per_iteration=1e3 * csr_s, ratio=1.0, overhead_us_per_iteration=None,
                      true_relative_residual=true_residual(x), status=csr_result.status))
    for check_every in args.check_every or [1, 16]:
        solver = spkrylov.Solver(operator, check_every=check_every, **common)
        before = _operators.timings(solver)["A"]
        seconds, result, x, executed = run(solver, b, zeros, args.runs)
        after = _operators.timings(solver)["A"]
        overhead = (after["overhead_s"] - before["overhead_s"]) / executed
        table.append(dict(run="operator", check_every=check_every, iterations=result.iterations,
                          ms_per_iteration=1e3 * seconds, ratio=seconds / csr_s,
                          overhead_us_per_iteration=1e6 * overhead,
                          calls_per_iteration=(after["calls"] - before["calls"]) / executed,
                          true_relative_residual=true_residual(x), status=result.status))
    device = csr.setup_info["device_name"]
    print(f"7-point Poisson {args.n}^3 ({rows:,} rows), CG, rtol {args.rtol:g}, {device}; "
          f"matrix built in {build_s:.1f} s; median of {args.runs} solves after a warm-up")
    print(f"{'run':<16}{'check_every':>12}{'iterations':>11}{'ms/iter':>10}{'ratio':>7}"
          f"{'callback overhead us/iter':>27}{'true res.':>11}")
    for row in table:
        overhead = ("" if row["overhead_us_per_iteration"] is None
                    else f"{row['overhead_us_per_iteration']:.1f}")
        print(f"{row['run']:<16}{row['check_every']:>12}{row['iterations']:>11}"
              f"{row['ms_per_iteration']:>10.4f}{row['ratio']:>7.2f}{overhead:>27}"
              f"{row['true_relative_residual']:>11.1e}")
    same = all(row["iterations"] == table[0]["iterations"] for row in table)
    print("iterations: " + ("the same in every run" if same else "DIFFER"))
    if args.json:
        with open(args.json, "w") as out:
            json.dump(dict(n=args.n, device=device, rtol=args.rtol, runs=table), out, indent=1)
    return 0 if same and all(row["status"] == "converged" for row in table) else 1


if __name__ == "__main__":
    sys.exit(main())
