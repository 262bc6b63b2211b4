"""spkrylov.cg, bicgstab and gmres as SciPy users write them: dense A, x0="Mb", matrices and
operators as M, SciPy's argument errors, gmres's restart, maxiter and callback types; checked
against scipy.sparse.linalg on the same inputs (tools/scipy_suite.py runs SciPy's own tests)."""
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.linalg as sla

import spkrylov

CPU = dict(device="cpu")
SOLVERS = (spkrylov.cg, spkrylov.bicgstab, spkrylov.gmres)


def poisson1d(n=40):
    return sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(n, n), format="csr")


def convection(n=60):
    """A nonsymmetric tridiagonal system (upwinded convection-diffusion in 1-D)."""
    return sp.diags([-1.3, 2.0, -0.7], [-1, 0, 1], shape=(n, n), format="csr")


def relative_residual(A, b, x):
    return np.linalg.norm(b - A @ x) / np.linalg.norm(b)


@pytest.mark.filterwarnings("ignore:the matrix subclass:PendingDeprecationWarning")
@pytest.mark.parametrize("method", SOLVERS)
def test_a_dense_matrix_solves_as_its_csr_form(method):
    A = poisson1d()
    b = np.arange(A.shape[0], dtype=float)
    x_sparse, info_sparse = method(A, b, rtol=1e-10, **CPU)
    for dense in (A.toarray(), np.asmatrix(A.toarray()), A.toarray().astype(np.float32)):
        x, info = method(dense, b, rtol=1e-10, **CPU)
        assert info == info_sparse == 0
        np.testing.assert_allclose(x, x_sparse, rtol=1e-12, atol=1e-12)
        assert x.dtype == np.float64 and x.shape == b.shape
    peer, _ = getattr(sla, method.__name__)(A.toarray(), b, rtol=1e-10)
    np.testing.assert_allclose(x_sparse, peer, rtol=1e-7)


@pytest.mark.parametrize("method", SOLVERS)
def test_complex_inputs_are_the_documented_type_error(method):
    A = poisson1d(10).toarray()
    b = np.ones(10)
    for args in ((A + 1j * np.eye(10), b), (A, b + 1j), (sp.csr_array(A).astype(complex), b)):
        with pytest.raises(TypeError, match="spkrylov solves real systems"):
            method(*args, **CPU)
    with pytest.raises(TypeError, match="spkrylov solves real systems"):
        method(A, b, M=np.eye(10, dtype=complex), **CPU)


@pytest.mark.parametrize("method", SOLVERS)
def test_shapes_and_types_scipy_refuses_are_refused(method):
    A = poisson1d(10)
    b = np.ones(10)
    with pytest.raises(ValueError, match="expected square matrix"):
        method(np.ones((10, 9)), b, **CPU)
    with pytest.raises(ValueError, match="must be 2-d"):
        method(np.ones(10), b, **CPU)
    with pytest.raises(TypeError, match="A must be a matrix"):
        method([[1.0, 0.0], [0.0, 1.0]], np.ones(2), **CPU)
    with pytest.raises(ValueError, match="b has shape"):
        method(A, np.ones(11), **CPU)
    with pytest.raises(ValueError, match="b has shape"):
        method(A, np.ones((1, 10)), **CPU)
    with pytest.raises(ValueError, match="x0 has shape"):
        method(A, b, x0=np.ones(9), **CPU)
    with pytest.raises(ValueError, match="x0 must be an array, None or 'Mb'"):
        method(A, b, x0="Mx", **CPU)
    with pytest.raises(ValueError, match="matrix and preconditioner have different shapes"):
        method(A, b, M=np.eye(9), **CPU)
    with pytest.raises(TypeError):  # keyword-only after x0, as SciPy's
        method(A, b, None, 1e-5)
    x, info = method(A, b.reshape(10, 1), x0=np.zeros((10, 1)), **CPU)  # (N, 1) is fine
    assert info == 0 and x.shape == (10,)


@pytest.mark.parametrize("method", SOLVERS)
def test_x0_mb_starts_from_m_times_b(method):
    A = poisson1d()
    b = np.arange(A.shape[0], dtype=float) + 1.0
    diagonal = A.diagonal()
    scale = lambda r: r / diagonal  # noqa: E731 (a callable M: Jacobi)
    for M, start in ((None, b), ("none", b), ("jacobi", b / diagonal), (scale, b / diagonal),
                     (sp.diags(1.0 / diagonal), b / diagonal)):
        x, info = method(A, b, x0="Mb", M=M, rtol=1e-10, **CPU)
        expected, expected_info = method(A, b, x0=start.copy(), M=M, rtol=1e-10, **CPU)
        assert info == expected_info == 0
        np.testing.assert_allclose(x, expected, rtol=1e-12, atol=1e-12)
    with pytest.raises(ValueError, match="x0='Mb' with M='amg'"):
        method(A, b, x0="Mb", M="amg", **CPU)


@pytest.mark.parametrize("method", SOLVERS)
def test_m_as_a_matrix_or_operator_matches_scipy(method):
    A = convection() if method is not spkrylov.cg else poisson1d(60)
    b = np.ones(A.shape[0])
    inverse_diagonal = sp.diags(1.0 / A.diagonal())
    for M in (inverse_diagonal, inverse_diagonal.toarray(), sla.aslinearoperator(inverse_diagonal)):
        x, info = method(A, b, M=M, rtol=1e-10, **CPU)
        peer, peer_info = getattr(sla, method.__name__)(A, b, M=M, rtol=1e-10)
        assert info == peer_info == 0
        assert relative_residual(A, b, x) <= 1e-10
        np.testing.assert_allclose(x, peer, rtol=1e-7)
    # SciPy's rule: without M, an operator A's psolve is the preconditioner
    operator = sla.aslinearoperator(A)
    calls = []
    operator.psolve = lambda r: calls.append(1) or inverse_diagonal @ r
    x, info = method(operator, b, rtol=1e-10, **CPU)
    assert info == 0 and calls and relative_residual(A, b, x) <= 1e-10


def test_bicgstab_breakdowns_are_scipys_negative_infos():
    A = np.array([[0.0, 1.0], [1.0, 0.0]])
    b = np.array([1.0, 0.0])  # (r_hat, A r_hat) = 0 at once
    x, info = spkrylov.bicgstab(A, b, breakdown_restarts=0, **CPU)
    _, peer_info = sla.bicgstab(A, b)
    assert info == peer_info == -11
    assert not np.isnan(x).any()


def test_gmres_takes_scipys_inner_iterations_and_solution():
    A = convection()
    b = np.ones(A.shape[0])
    for restart in (5, 10, 30):
        ours, theirs = [], []
        x, info = spkrylov.gmres(A, b, rtol=1e-10, restart=restart, callback=ours.append,
                                 callback_type="pr_norm", **CPU)
        peer, peer_info = sla.gmres(A, b, rtol=1e-10, restart=restart, callback=theirs.append,
                                    callback_type="pr_norm")
        assert info == peer_info == 0
        assert len(ours) == len(theirs)  # one callback per inner iteration, as many
        # ||r|| / ||b|| to rounding (the last, near 1e-11, differs in its third digit)
        np.testing.assert_allclose(ours, theirs, rtol=1e-9, atol=1e-12)
        assert all(isinstance(value, float) for value in ours)
        np.testing.assert_allclose(x, peer, rtol=1e-8)
        assert relative_residual(A, b, x) <= 1e-10


def test_gmres_maxiter_counts_restart_cycles_and_legacy_counts_steps():
    A = convection()
    b = np.ones(A.shape[0])
    steps = []
    x, info = spkrylov.gmres(A, b, rtol=1e-12, restart=5, maxiter=3, callback=steps.append,
                             callback_type="pr_norm", **CPU)
    assert info == 3 and len(steps) == 15  # 3 cycles of 5 steps
    iterates = []
    x, info = spkrylov.gmres(A, b, rtol=1e-12, restart=5, maxiter=3,
                             callback=lambda xk: iterates.append(xk.copy()), callback_type="x",
                             **CPU)
    theirs = []
    peer, peer_info = sla.gmres(A, b, rtol=1e-12, restart=5, maxiter=3,
                                callback=lambda xk: theirs.append(xk.copy()), callback_type="x")
    assert info == peer_info == 3 and len(iterates) == len(theirs) == 3  # one per cycle
    for mine, peer_x in zip(iterates, theirs):
        np.testing.assert_allclose(mine, peer_x, rtol=1e-9, atol=1e-12)
    np.testing.assert_array_equal(x, iterates[-1])
    legacy = []
    with pytest.warns(DeprecationWarning, match="called without specifying `callback_type`"):
        x, info = spkrylov.gmres(A, b, rtol=1e-12, restart=5, maxiter=3,
                                 callback=legacy.append, **CPU)
    assert info == 3 and len(legacy) == 3  # legacy: maxiter counts inner iterations
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning without a callback
        x, info = spkrylov.gmres(A, b, rtol=1e-10, restart=5, **CPU)
    assert info == 0
    with pytest.raises(ValueError, match="Unknown callback_type: 'residual'"):
        spkrylov.gmres(A, b, callback_type="residual", **CPU)


def test_gmres_x_callback_ends_with_the_converged_cycle():
    A = convection()
    b = np.ones(A.shape[0])
    ours, theirs = [], []
    x, info = spkrylov.gmres(A, b, rtol=1e-10, restart=30, callback=ours.append,
                             callback_type="x", **CPU)
    sla.gmres(A, b, rtol=1e-10, restart=30, callback=lambda xk: theirs.append(xk.copy()),
              callback_type="x")
    assert info == 0 and len(ours) == len(theirs)
    np.testing.assert_array_equal(ours[-1], x)


def test_solver_progress_gets_each_checks_iteration_and_residual():
    A = poisson1d(50)
    b = np.ones(50)
    seen = []
    x, result = spkrylov.Solver(A, check_every=1, **CPU).solve(
        b, progress=lambda iteration, residual: seen.append((iteration, residual)))
    assert result.converged
    assert [iteration for iteration, _ in seen] == list(range(1, result.iterations + 1))
    np.testing.assert_allclose([residual for _, residual in seen], result.history[1:],
                               rtol=1e-12)


def test_gmres_with_device_arrays_matches_the_cpu_solve():
    cupy = pytest.importorskip("cupy")
    csp = pytest.importorskip("cupyx.scipy.sparse")
    try:
        gpu = cupy.cuda.runtime.getDeviceCount() > 0
    except Exception:  # no driver
        gpu = False
    if not gpu:
        pytest.skip("no CUDA GPU")
    A = convection(1000)
    b = np.linspace(1.0, 2.0, A.shape[0])
    keywords = dict(x0="Mb", M="jacobi", rtol=1e-10, restart=30, callback_type="pr_norm")
    on_gpu, on_cpu = [], []
    x, info = spkrylov.gmres(csp.csr_matrix(A), cupy.asarray(b), callback=on_gpu.append,
                             device="gpu", **keywords)
    host, host_info = spkrylov.gmres(A, b, callback=on_cpu.append, **keywords, **CPU)
    assert info == host_info == 0 and isinstance(x, cupy.ndarray)
    assert relative_residual(A, b, cupy.asnumpy(x)) <= 1e-10
    # the same inner iterations, to rounding (measured on an H100: 1,475 against 1,471)
    assert abs(len(on_gpu) - len(on_cpu)) <= max(2, 0.01 * len(on_cpu))
    np.testing.assert_allclose(cupy.asnumpy(x), host, rtol=1e-7)
