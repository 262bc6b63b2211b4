"""User operators (spkrylov/_operators.py): a LinearOperator or any matvec object as A, a
LinearOperator or a callable as M, through the C++ operator interface. On the CPU path a
matrix-free A takes the iterations of the CSR solve of the same matrix; errors name the
operator and leave the solver usable; what a user operator cannot take is refused. The GPU
tests (CuPy views of the device vectors, the solver's stream) skip without CuPy or a GPU.
"""
import gc
import os
import pathlib
import re
import warnings
import weakref

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.linalg as sla

import spkrylov
from spkrylov import _operators


def poisson3d(n):
    t = sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(n, n))
    eye = sp.identity(n)
    return (sp.kron(sp.kron(t, eye), eye) + sp.kron(sp.kron(eye, t), eye)
            + sp.kron(sp.kron(eye, eye), t)).tocsr()


def stencil7(n, xp=np):
    """y = A x for the 7-point Laplacian on an n^3 grid (6 on the diagonal, -1 per neighbour,
    Dirichlet outside), from the grid alone: poisson3d(n) without the matrix."""
    def matvec(x):
        u = x.reshape(n, n, n)
        y = 6.0 * u
        y[1:, :, :] -= u[:-1, :, :]
        y[:-1, :, :] -= u[1:, :, :]
        y[:, 1:, :] -= u[:, :-1, :]
        y[:, :-1, :] -= u[:, 1:, :]
        y[:, :, 1:] -= u[:, :, :-1]
        y[:, :, :-1] -= u[:, :, 1:]
        return y.reshape(-1)
    return matvec


class Duck:
    """Not a LinearOperator: any object with matvec and shape."""

    def __init__(self, matvec, n):
        self.matvec, self.shape = matvec, (n, n)


def relative_residual(A, b, x):
    return np.linalg.norm(b - A @ x) / np.linalg.norm(b)


@pytest.mark.parametrize("method", ["cg", "bicgstab", "gmres"])
def test_linear_operator_takes_the_csr_solves_iterations(method):
    A = poisson3d(10)
    n = A.shape[0]
    b = np.random.default_rng(1).uniform(-1, 1, n)
    op = sla.LinearOperator(A.shape, matvec=stencil7(10), dtype=np.float64)
    keys = dict(method=method, device="cpu", rtol=1e-9, check_every=1)
    x, result = spkrylov.Solver(op, preconditioner="none", **keys).solve(b)
    _, stored = spkrylov.Solver(A, preconditioner="none", **keys).solve(b)
    assert result.converged and result.iterations == stored.iterations
    assert relative_residual(A, b, x) <= 1e-9
    assert result.true_residual <= 1e-9 * np.linalg.norm(b)


def test_jacobi_from_a_given_diagonal_and_an_exact_jacobi_m_equal_the_built_in_jacobi():
    A = poisson3d(9)
    b = np.random.default_rng(2).uniform(-1, 1, A.shape[0])
    keys = dict(device="cpu", rtol=1e-9, check_every=1)
    _, built_in = spkrylov.Solver(A, preconditioner="jacobi", **keys).solve(b)
    op = Duck(stencil7(9), A.shape[0])
    _, diagonal = spkrylov.Solver(op, preconditioner="jacobi", diagonal=A.diagonal(),
                                  **keys).solve(b)
    as_operator = sla.LinearOperator(A.shape, matvec=lambda r: r / 6.0, dtype=np.float64)
    x, user_m = spkrylov.Solver(op, preconditioner=as_operator, **keys).solve(b)
    _, callable_m = spkrylov.Solver(op, preconditioner=lambda r: r / 6.0, **keys).solve(b)
    assert built_in.converged and built_in.iterations > 5
    assert diagonal.iterations == user_m.iterations == callable_m.iterations == built_in.iterations
    assert relative_residual(A, b, x) <= 1e-9


def test_scipy_style_cg_and_bicgstab_with_operators_match_scipy():
    A = poisson3d(8)
    b = np.random.default_rng(3).uniform(-1, 1, A.shape[0])
    op = sla.aslinearoperator(A)
    M = sla.LinearOperator(A.shape, matvec=lambda r: r / A.diagonal(), dtype=np.float64)
    for solve in (spkrylov.cg, spkrylov.bicgstab):
        x, info = solve(op, b, rtol=1e-10, M=M, device="cpu")
        assert info == 0 and relative_residual(A, b, x) <= 1e-10
    # a sparse matrix under a user M (its product runs in SciPy)
    x, info = spkrylov.cg(A, b, rtol=1e-10, M=M, device="cpu")
    reference, _ = sla.cg(A, b, rtol=1e-10, M=M)
    assert info == 0 and np.allclose(x, reference, rtol=1e-7, atol=1e-9)


def test_an_exact_inverse_m_takes_one_iteration_and_few_matvecs():
    """SciPy's test_precond_inverse: at most 3 products with A from x0 = 0."""
    A = poisson3d(5)
    b = np.ones(A.shape[0])
    dense = A.toarray()
    calls = [0]

    def matvec(x):
        calls[0] += 1
        return A @ x
    op = sla.LinearOperator(A.shape, matvec=matvec, dtype=np.float64)
    M = sla.LinearOperator(A.shape, matvec=lambda r: np.linalg.solve(dense, r), dtype=np.float64)
    for solve in (spkrylov.cg, spkrylov.bicgstab):
        calls[0] = 0
        x, info = solve(op, b, x0=np.zeros_like(b), rtol=1e-8, M=M, device="cpu")
        assert info == 0 and relative_residual(A, b, x) <= 1e-8
        assert calls[0] <= 3, solve.__name__


@pytest.mark.parametrize("which", ["A", "M"])
def test_a_raising_operator_is_one_error_naming_it_and_the_solver_stays_usable(which):
    A = poisson3d(6)
    b = np.ones(A.shape[0])
    failing = [True]

    def product(x):
        if failing[0]:
            raise ZeroDivisionError("the user's own failure")
        return A @ x if which == "A" else x / 6.0
    a = Duck(product if which == "A" else (lambda x: A @ x), A.shape[0])
    solver = spkrylov.Solver(a, preconditioner=product if which == "M" else "none", device="cpu")
    with pytest.raises(ValueError, match=f"user operator {which}: .*ZeroDivisionError: the user's "
                                         "own failure") as error:
        solver.solve(b)
    assert isinstance(error.value.__cause__, ZeroDivisionError)
    failing[0] = False
    x, result = solver.solve(b)
    assert result.converged and relative_residual(A, b, x) <= 1e-8


@pytest.mark.parametrize("which", ["A", "M"])
@pytest.mark.parametrize("fault", ["nan", "inf", "short", "matrix", "complex", "none"])
def test_a_wrong_result_is_one_error_naming_the_operator(which, fault):
    A = poisson3d(5)
    n = A.shape[0]
    b = np.ones(n)
    active = [True]

    def product(x):
        y = A @ x if which == "A" else x / 6.0
        if not active[0]:
            return y
        if fault in ("nan", "inf"):
            y[3] = np.nan if fault == "nan" else -np.inf
        return {"short": y[:-1], "matrix": np.ones((n, 2)), "complex": y + 1j,
                "none": None}.get(fault, y)
    a = Duck(product, n) if which == "A" else Duck(lambda x: A @ x, n)
    solver = spkrylov.Solver(a, preconditioner=product if which == "M" else "none", device="cpu")
    words = {"nan": r"1 non-finite entry \(y\[3\] = nan\)", "inf": r"y\[3\] = -inf",
             "short": rf"shape \({n - 1},\)", "matrix": rf"shape \({n}, 2\)",
             "complex": "complex", "none": "returned None"}[fault]
    with pytest.raises(ValueError, match=f"user operator {which}: .*{words}"):
        solver.solve(b)
    active[0] = False
    x, result = solver.solve(b)
    assert result.converged and relative_residual(A, b, x) <= 1e-8


def test_keyboard_interrupt_in_a_matvec_is_raised_as_itself():
    A = poisson3d(5)
    raising = [True]

    def matvec(x):
        if raising[0]:
            raise KeyboardInterrupt
        return A @ x
    solver = spkrylov.Solver(Duck(matvec, A.shape[0]), device="cpu")
    with pytest.raises(KeyboardInterrupt):
        solver.solve(np.ones(A.shape[0]))
    raising[0] = False
    assert solver.solve(np.ones(A.shape[0]))[1].converged


def test_wrong_shapes_and_what_a_user_operator_cannot_take_are_refused():
    A = poisson3d(4)
    n = A.shape[0]
    op = sla.aslinearoperator(A)
    with pytest.raises(ValueError, match=r"user operator A has shape \(64, 65\); it must be square"):
        spkrylov.Solver(sla.LinearOperator((n, n + 1), matvec=lambda x: x[:n], dtype=float))
    wrong_m = sla.LinearOperator((n + 1, n + 1), matvec=lambda r: r, dtype=float)
    with pytest.raises(ValueError, match=r"user operator M has shape \(65, 65\), expected"):
        spkrylov.Solver(op, preconditioner=wrong_m, device="cpu")
    with pytest.raises(ValueError, match="different shapes"):  # SciPy's words
        spkrylov.cg(op, np.ones(n), M=wrong_m, device="cpu")
    with pytest.raises(TypeError, match="complex"):
        spkrylov.Solver(sla.LinearOperator((n, n), matvec=lambda x: x, dtype=complex))
    for keys, error, words in [
            (dict(format="ellpack-r"), TypeError, "spmv.format ellpack-r"),
            (dict(format="auto"), TypeError, "spmv.format auto"),
            (dict(preconditioner="amg"), TypeError, "solver.preconditioner amg"),
            (dict(preconditioner="ic0"), TypeError, "solver.preconditioner ic0"),
            (dict(preconditioner="jacobi"), ValueError, "needs diag"),
            (dict(precision="single"), TypeError, "float64")]:
        with pytest.raises(error, match=words):
            spkrylov.Solver(op, device="cpu", **keys)
    solver = spkrylov.Solver(op, device="cpu")
    with pytest.raises(TypeError, match="update_values"):
        solver.update_values(A.data)
    with pytest.raises(TypeError, match="diagonal is for a user operator"):
        spkrylov.Solver(A, diagonal=A.diagonal(), device="cpu")
    with pytest.raises(ValueError, match="b has shape"):
        solver.solve(np.ones(n + 1))
    assert solver.setup_info["operator"] == "user operator"


def test_a_solver_whose_matvec_refers_to_it_is_collected():
    A = poisson3d(4)
    holder = {}
    holder["solver"] = spkrylov.Solver(Duck(lambda x: A @ x if holder else x, A.shape[0]),
                                       device="cpu")
    ref = weakref.ref(holder["solver"])
    del holder
    gc.collect()
    assert ref() is None


def test_callback_overhead_is_measured():
    A = poisson3d(8)
    solver = spkrylov.Solver(Duck(stencil7(8), A.shape[0]), device="cpu", rtol=1e-8)
    _, result = solver.solve(np.ones(A.shape[0]))
    times = _operators.timings(solver)["A"]
    assert times["calls"] >= result.iterations
    assert 0.0 < times["user_s"] < times["seconds"] and times["overhead_s"] > 0.0


def test_the_docs_example_runs():
    source = pathlib.Path(os.environ.get("SPK_SOURCE_DIR", pathlib.Path(__file__).parents[2]))
    text = (source / "docs" / "python.md").read_text()
    section = text[text.index("## User operators"):]
    namespace = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # device auto without a GPU
        exec(re.search(r"```python\n(.*?)```", section, re.S).group(1), namespace)
        assert namespace["info"] == 0
        x, result = namespace["solver"].solve(np.ones(namespace["n"] ** 3))
    assert result.converged and result.iterations > 1


# --- GPU: CuPy views of the device vectors on the solver's stream ---

def _gpu():
    cupy = pytest.importorskip("cupy")
    try:
        if cupy.cuda.runtime.getDeviceCount() == 0:
            pytest.skip("no CUDA GPU")
    except Exception:
        pytest.skip("no CUDA driver")
    return cupy


class CupyStencil:
    """A CuPy 7-point stencil that records the stream and the array type it is given."""

    def __init__(self, n, cupy):
        self.shape, self.dtype = (n ** 3, n ** 3), np.float64
        self._matvec, self.cupy = stencil7(n, cupy), cupy
        self.streams, self.types = set(), set()

    def matvec(self, x):
        self.streams.add(self.cupy.cuda.get_current_stream().ptr)
        self.types.add(type(x).__module__.split(".")[0])
        return self._matvec(x)


@pytest.mark.parametrize("method", ["cg", "bicgstab"])
def test_gpu_cupy_operator_takes_the_csr_solves_iterations(method):
    cupy = _gpu()
    A = poisson3d(12)
    b = np.random.default_rng(4).uniform(-1, 1, A.shape[0])
    op = CupyStencil(12, cupy)
    keys = dict(method=method, device="gpu", rtol=1e-9, check_every=1, preconditioner="none")
    x, result = spkrylov.Solver(op, **keys).solve(cupy.asarray(b))
    _, stored = spkrylov.Solver(A, **keys).solve(b)
    assert result.converged
    # The stencil sums a row in another order than the CSR kernel: CG keeps the count,
    # BiCGSTAB's moves with rounding (measured on an H100: 43 against 42).
    if method == "cg":
        assert result.iterations == stored.iterations
    else:
        assert abs(result.iterations - stored.iterations) <= 0.1 * stored.iterations
    assert relative_residual(A, b, cupy.asnumpy(x)) <= 1e-9
    assert op.types == {"cupy"} and 0 not in op.streams and len(op.streams) == 1


def test_gpu_scipy_operator_and_m_run_on_host_copies():
    _gpu()
    A = poisson3d(8)
    b = np.ones(A.shape[0])
    M = sla.LinearOperator(A.shape, matvec=lambda r: r / 6.0, dtype=np.float64)
    x, info = spkrylov.cg(sla.aslinearoperator(A), b, rtol=1e-10, M=M, device="gpu")
    assert info == 0 and relative_residual(A, b, x) <= 1e-10


def test_gpu_non_finite_result_is_raised_after_the_solve():
    cupy = _gpu()
    A = poisson3d(6)
    op = CupyStencil(6, cupy)
    good = op._matvec
    op._matvec = lambda x: good(x) * cupy.nan
    solver = spkrylov.Solver(op, device="gpu")
    with pytest.raises(ValueError, match="user operator A: matvec returned non-finite"):
        solver.solve(cupy.ones(A.shape[0]))
    op._matvec = good
    x, result = solver.solve(cupy.ones(A.shape[0]))
    assert result.converged
