"""spkrylov's Python API on the CPU path: against SciPy's cg/bicgstab (iteration counts within
max(3, 5%), as tools/peer_check.py, and every answer judged by its true residual), the result,
update_values, the keywords, and every bad input of the issue's table."""
import json

import numpy as np
import pytest
import scipy.io
import scipy.sparse as sp
import scipy.sparse.linalg as sla

import spkrylov

CPU = dict(device="cpu")


def poisson(n, dims):
    t = sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(n, n))
    eye = sp.identity(n)
    if dims == 2:
        return (sp.kron(t, eye) + sp.kron(eye, t)).tocsr()
    return (sp.kron(sp.kron(t, eye), eye) + sp.kron(sp.kron(eye, t), eye)
            + sp.kron(sp.kron(eye, eye), t)).tocsr()


def convection_diffusion(n, peclet=0.5):
    """1-D upwind convection-diffusion in each direction of an n x n grid (nonsymmetric)."""
    t = sp.diags([-1.0 - peclet, 2.0 + peclet, -1.0], [-1, 0, 1], shape=(n, n))
    eye = sp.identity(n)
    return (sp.kron(t, eye) + sp.kron(eye, t)).tocsr()


def relative_residual(A, b, x):
    return np.linalg.norm(b - A @ x) / np.linalg.norm(b)


def scipy_iterations(method, A, b, M=None):
    count = [0]
    x, info = method(A, b, rtol=1e-8, atol=0.0, maxiter=20000, M=M,
                     callback=lambda _: count.__setitem__(0, count[0] + 1))
    return x, info, count[0]


def agree(ours, theirs):
    return abs(ours - theirs) <= max(3, 0.05 * theirs)


# BiCGSTAB with Jacobi: SciPy and spkrylov apply M at different places of the recurrence, and
# the counts differ by more than the rule on this system (SciPy 76, spkrylov 82): judged by the
# true residual only.
@pytest.mark.parametrize("name,A,method,preconditioner,counts_agree", [
    ("poisson2d 40", poisson(40, 2), "cg", "none", True),
    ("poisson3d 12", poisson(12, 3), "cg", "none", True),
    ("poisson3d 12 jacobi", poisson(12, 3), "cg", "jacobi", True),
    ("convdiff 40", convection_diffusion(40), "bicgstab", "none", True),
    ("convdiff 40 jacobi", convection_diffusion(40), "bicgstab", "jacobi", False),
])
def test_counts_agree_with_scipy(name, A, method, preconditioner, counts_agree):
    b = np.ones(A.shape[0])
    M = None
    if preconditioner == "jacobi":
        inverse = 1.0 / A.diagonal()
        M = sla.LinearOperator(A.shape, matvec=lambda v: inverse * v)
    scipy_method = sla.cg if method == "cg" else sla.bicgstab
    x_peer, info_peer, peer_iterations = scipy_iterations(scipy_method, A, b, M)
    assert info_peer == 0 and relative_residual(A, b, x_peer) <= 1e-7, name
    x, result = spkrylov.Solver(A, method=method, preconditioner=preconditioner,
                                tol=1e-8, **CPU).solve(b)
    assert result.status == "converged", result.message
    assert relative_residual(A, b, x) <= 1e-8
    assert result.relative_true_residual == pytest.approx(relative_residual(A, b, x), rel=1e-6)
    if counts_agree:
        assert agree(result.iterations, peer_iterations), (name, result.iterations,
                                                           peer_iterations)


def test_shared_matrix_bcsstk13_against_scipy(data_dir):
    A = scipy.io.mmread(data_dir / "bcsstk13.mtx").tocsr()
    b = np.ones(A.shape[0])
    inverse = 1.0 / A.diagonal()
    M = sla.LinearOperator(A.shape, matvec=lambda v: inverse * v)
    _, info_peer, peer_iterations = scipy_iterations(sla.cg, A, b, M)
    x, info = spkrylov.cg(A, b, rtol=1e-8, M="jacobi", maxiter=20000, **CPU)
    assert info == 0
    assert relative_residual(A, b, x) <= 1e-8 * 1.0001
    if info_peer == 0:
        _, result = spkrylov.Solver(A, preconditioner="jacobi", max_iterations=20000,
                                    **CPU).solve(b)
        assert agree(result.iterations, peer_iterations)


def test_scipy_signature_and_info():
    A = poisson(30, 2)
    b = np.ones(A.shape[0])
    x0 = np.zeros(A.shape[0])
    x, info = spkrylov.cg(A, b, x0, rtol=1e-6, **CPU)
    assert info == 0 and relative_residual(A, b, x) <= 1e-6
    assert np.all(x0 == 0.0)  # like SciPy, x0 is not written
    x, info = spkrylov.cg(A, b, maxiter=3, **CPU)
    assert info > 0  # not converged: SciPy's positive info
    x, info = spkrylov.cg(A, b, atol=1e-3, rtol=0.0, **CPU)
    assert info == 0 and np.linalg.norm(b - A @ x) <= 1e-3
    x, info = spkrylov.cg(A, np.zeros(A.shape[0]), **CPU)
    assert info == 0 and not x.any()


def test_no_answer_skips_the_solve_unless_b_is_zero():
    """The one result that skips the solve is b = 0 (x = 0 exactly); rtol = atol = 0 asks for an
    exact zero residual, which SciPy and spkrylov iterate for until maxiter."""
    A = poisson(12, 2)
    b = np.ones(A.shape[0])
    for method in (spkrylov.cg, spkrylov.bicgstab):
        x, info = method(A, b, rtol=0.0, atol=0.0, maxiter=5, **CPU)
        assert info > 0, "a zero tolerance cannot be met in 5 iterations"
        assert x.any() and np.linalg.norm(b - A @ x) < np.linalg.norm(b)  # it did iterate
        x, info = method(A, np.zeros(A.shape[0]), rtol=0.0, atol=0.0, **CPU)
        assert info == 0 and not x.any() and np.linalg.norm(A @ x) == 0.0
        x, info = method(A, np.zeros(A.shape[0]), **CPU)
        assert info == 0 and not x.any()
    peer, peer_info = sla.cg(A, b, rtol=0.0, atol=0.0, maxiter=5)
    assert peer_info > 0  # SciPy agrees: not converged


@pytest.mark.parametrize("keywords,name", [
    (dict(rtol=-1e-8), "rtol"), (dict(atol=-1.0), "atol"), (dict(rtol=float("nan")), "rtol"),
    (dict(atol=float("nan")), "atol"), (dict(atol=None), "atol"), (dict(atol="legacy"), "atol")])
def test_negative_or_nan_tolerances_are_value_errors(keywords, name):
    A = poisson(8, 2)
    for method in (spkrylov.cg, spkrylov.bicgstab, spkrylov.gmres):
        with pytest.raises(ValueError, match=f"'spkrylov.{method.__name__}' called with .*{name}"):
            method(A, np.ones(A.shape[0]), **keywords, **CPU)


def test_an_infinite_tolerance_returns_x0_as_scipy_does():
    A = poisson(8, 2)
    x0 = np.linspace(0.0, 1.0, A.shape[0])
    for method in (spkrylov.cg, spkrylov.bicgstab, spkrylov.gmres):
        for keywords in (dict(atol=np.inf), dict(rtol=np.inf)):
            x, info = method(A, np.ones(A.shape[0]), x0=x0, **keywords, **CPU)
            peer, peer_info = getattr(sla, method.__name__)(A, np.ones(A.shape[0]), x0=x0,
                                                           **keywords)
            assert info == peer_info == 0
            np.testing.assert_array_equal(x, x0)
            np.testing.assert_array_equal(peer, x0)
            assert x is not x0


def test_nan_in_b_names_the_entry_not_the_tolerance():
    A = poisson(8, 2)
    b = np.ones(A.shape[0])
    b[17] = np.nan
    b[40] = np.inf
    for call in (lambda: spkrylov.cg(A, b, **CPU),
                 lambda: spkrylov.Solver(A, **CPU).solve(b)):
        with pytest.raises(ValueError, match=r"b\[17\] is nan \(2 non-finite entries\)") as error:
            call()
        assert "tolerance" not in str(error.value)


def test_b_of_two_columns_is_named_as_given():
    A = poisson(8, 2)
    with pytest.raises(ValueError, match=r"b has shape \(64, 2\), expected \(64,\)"):
        spkrylov.cg(A, np.ones((64, 2)), **CPU)


def test_solver_takes_scipys_keywords():
    A = poisson(16, 2)
    b = np.ones(A.shape[0])
    x, result = spkrylov.Solver(A, rtol=1e-6, maxiter=500, **CPU).solve(b)
    assert result.converged and relative_residual(A, b, x) <= 1e-6
    assert "max_iterations: 500" in spkrylov.Solver(A, maxiter=500, **CPU).config
    x, result = spkrylov.Solver(A, atol=1e-3, **CPU).solve(b)
    assert result.converged and np.linalg.norm(b - A @ x) <= 1e-3
    assert result.threshold == 1e-3
    with pytest.raises(ValueError, match="give one of rtol, atol"):
        spkrylov.Solver(A, rtol=1e-6, atol=1e-3, **CPU)
    with pytest.raises(ValueError, match="contradicts"):
        spkrylov.Solver(A, atol=1e-3, tolerance_mode="rhs", **CPU)
    with pytest.raises(ValueError, match="^maxiter: "):
        spkrylov.Solver(A, maxiter=-5, **CPU)


def test_result_fields_and_history():
    A = poisson(20, 2)
    _, result = spkrylov.Solver(A, **CPU).solve(np.ones(A.shape[0]))
    assert result.converged
    assert result.history.shape == (result.iterations + 1,)
    assert result.history[-1] <= result.threshold
    assert result.true_residual <= result.threshold
    assert "converged in" in result.message
    info = spkrylov.Solver(A, format="csr", **CPU).setup_info
    assert info["device"] == "cpu" and info["preconditioner"]["name"] == "jacobi"
    amg = spkrylov.Solver(poisson(40, 2), preconditioner="amg", **CPU).setup_info["preconditioner"]
    assert amg["name"] == "amg" and len(amg["levels"]) >= 2
    assert amg["levels"][0] == {"rows": 1600, "nnz": 7840, "format": amg["levels"][0]["format"]}
    assert amg["operator_complexity"] >= 1.0 and "setup_phases_ms" in amg


def test_update_values_solves_the_new_system():
    A = poisson(16, 2)
    solver = spkrylov.Solver(A, **CPU)
    B = (A + 2.0 * sp.identity(A.shape[0])).tocsr()
    B.sort_indices()
    solver.update_values(B.data)
    b = np.ones(A.shape[0])
    x, result = solver.solve(b)
    assert result.converged and relative_residual(B, b, x) <= 1e-8
    with pytest.raises(ValueError, match="values given"):
        solver.update_values(B.data[:-1])


def test_keywords_are_the_config_keys():
    keys = spkrylov.config_keys()
    assert "check_every" in keys["solver"] and "format" in keys["spmv"]
    A = poisson(10, 2)
    x, result = spkrylov.Solver(A, check_every=1, preconditioner="chebyshev",
                                preconditioner_options={"degree": 2}, **CPU).solve(
                                    np.ones(A.shape[0]))
    assert result.converged
    assert "degree: 2" in spkrylov.Solver(A, preconditioner="chebyshev",
                                          preconditioner_options={"degree": 2}, **CPU).config


# ---- bad input: one exception, the CLI's one-line message -------------------------------

def test_wrong_shape_is_value_error():
    A = poisson(8, 2)
    with pytest.raises(ValueError, match="expected"):
        spkrylov.Solver(A, **CPU).solve(np.ones(A.shape[0] + 1))


def test_complex_is_type_error():
    A = poisson(8, 2).astype(np.complex128)
    with pytest.raises(TypeError, match="complex"):
        spkrylov.Solver(A, **CPU)
    with pytest.raises(TypeError, match="complex"):
        spkrylov.Solver(poisson(8, 2), **CPU).solve(np.ones(64, dtype=np.complex128))


def test_integer_data_is_converted_with_a_note():
    A = (poisson(8, 2) * 1).astype(np.int64)
    _, result = spkrylov.Solver(A, **CPU).solve(np.ones(64))
    assert result.converged
    assert any("converted" in note for note in result.notes)


def test_non_finite_values_are_value_errors():
    A = poisson(8, 2)
    A.data[3] = np.nan
    with pytest.raises(ValueError, match="non-finite"):
        spkrylov.Solver(A, **CPU)
    with pytest.raises(ValueError, match="non-finite"):
        spkrylov.Solver(poisson(8, 2), **CPU).solve(np.full(64, np.inf))


def test_non_square_is_value_error():
    with pytest.raises(ValueError, match="square"):
        spkrylov.Solver(sp.random(5, 4, density=0.5, format="csr"), **CPU)


def test_unknown_key_lists_the_valid_ones():
    with pytest.raises(ValueError, match="unknown keyword 'tolx'.*check_every"):
        spkrylov.Solver(poisson(8, 2), tolx=1e-6, **CPU)
    with pytest.raises(ValueError, match="^check_every: "):
        spkrylov.Solver(poisson(8, 2), check_every=0, **CPU)
    with pytest.raises(ValueError, match="unknown value 'csrr'"):
        spkrylov.Solver(poisson(8, 2), format="csrr", **CPU)


def test_errors_name_the_keyword_as_written_and_suggest_a_close_key():
    A = poisson(8, 2)
    with pytest.raises(ValueError, match=r"^maxiter: must be an integer >= 1, got '-5'$"):
        spkrylov.Solver(A, maxiter=-5, **CPU)
    with pytest.raises(ValueError, match=r"^rtol: must be > 0, got '-1.0'"):
        spkrylov.Solver(A, rtol=-1.0, **CPU)
    with pytest.raises(ValueError, match=r"^format: unknown value 'csrr'"):
        spkrylov.Solver(A, format="csrr", **CPU)
    with pytest.raises(ValueError, match=r"^preconditioner_options.smoothr: unknown key, did you "
                                         r"mean 'smoother'\?"):
        spkrylov.Solver(A, preconditioner="amg", preconditioner_options={"smoothr": "jacobi"},
                        **CPU)
    with pytest.raises(ValueError, match=r"^preconditioner_options.smoothr: unknown key"):
        spkrylov.Preconditioner("amg", smoothr="jacobi")
    with pytest.raises(ValueError, match=r"unknown keyword 'check_evry', did you mean "
                                         r"'check_every'\?"):
        spkrylov.Solver(A, check_evry=4, **CPU)
    for message in ("--set", "solver.max_iterations"):  # the CLI's words stay out
        with pytest.raises(ValueError) as error:
            spkrylov.Solver(A, maxiter=-5, **CPU)
        assert message not in str(error.value)


def test_gpu_without_a_gpu_is_no_device_error():
    try:
        spkrylov.Solver(poisson(8, 2), device="gpu")
    except spkrylov.NoDeviceError as error:
        assert isinstance(error, RuntimeError)
        assert "GPU" in str(error)
    else:
        pytest.skip("this machine has a GPU")


def test_an_m_that_is_no_operator_is_a_clear_type_error():
    # a LinearOperator or a callable is a user M (test_user_operators.py); an object is not
    A = poisson(8, 2)
    with pytest.raises(TypeError, match="preconditioner name"):
        spkrylov.cg(A, np.ones(64), M=object(), **CPU)


def test_ctrl_c_stops_a_solve_and_the_solver_stays_usable():
    import os
    import signal
    import threading
    import time

    A = poisson(48, 3)
    b = np.ones(A.shape[0])
    # a solve that would run for many seconds (an unreachable tolerance), bounded by a time
    # limit so that the test cannot hang
    solver = spkrylov.Solver(A, preconditioner="none", tol=1e-300, max_iterations=10 ** 6,
                             check_every=1, time_limit_s=30, **CPU)
    # Ctrl-C is sent once the solve is running (its first check), not after a fixed delay: on
    # a loaded machine a timer could fire before the solve began, or after it ended. Python's
    # own handler is installed for the test: a process started with SIGINT ignored (a
    # background job of a shell) inherits SIG_IGN, and Ctrl-C would then never arrive.
    running = threading.Event()
    sent = []

    def press_ctrl_c():
        if running.wait(timeout=60):
            time.sleep(0.2)  # some iterations in
            sent.append(time.monotonic())
            os.kill(os.getpid(), signal.SIGINT)

    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    sender = threading.Thread(target=press_ctrl_c)
    try:
        sender.start()
        with pytest.raises(KeyboardInterrupt):
            solver.solve(b, callback=lambda xk: running.set())
        stopped = time.monotonic()
        sender.join()
    finally:
        signal.signal(signal.SIGINT, previous)
    assert sent, "the solve never reached its first check"
    assert stopped - sent[0] < 10  # at the next check (one iteration), not at the 30 s limit
    x, result = spkrylov.Solver(A, **CPU).solve(b)
    assert result.converged


def test_solve_config_runs_the_cli_and_returns_its_report(tmp_path):
    config = tmp_path / "run.yaml"
    config.write_text("matrix:\n  generate: {kind: poisson2d, n: 24}\nsolver:\n  method: cg\n")
    report = spkrylov.solve_config(str(config), device="cpu", solver__tolerance=1e-10)
    assert report["exit_code"] == 0
    assert report["status"] == "converged"
    assert report["matrix"]["rows"] == 576
    assert "tolerance: 1e-10" in report["config"]
    # The report comes back in memory: its config names no temporary file that is gone.
    assert "report: /" not in report["config"] and "spkrylov-report" not in report["config"]
    written = tmp_path / "report.json"
    asked = spkrylov.solve_config(str(config), device="cpu", output__report=str(written))
    assert json.loads(written.read_text())["iterations"] == asked["iterations"]
    assert f"report: {written}" in asked["config"]
    with pytest.raises(ValueError, match="solver.tol: unknown key"):
        spkrylov.solve_config(str(config), solver__tol=1)
    with pytest.raises(ValueError, match="does not exist"):
        spkrylov.solve_config(str(tmp_path / "missing.yaml"))


def test_info_gives_the_cli_statistics():
    stats = spkrylov.info(poisson(10, 2))
    assert stats["rows"] == 100 and stats["nnz"] == 460
    assert stats["numerically_symmetric"] is True
    assert "rows" in str(stats)
    bad = poisson(10, 2)
    bad.data[0] = np.inf
    with pytest.raises(ValueError, match="non-finite"):
        spkrylov.info(bad)


def test_result_shows_its_convergence_plot():
    _, result = spkrylov.Solver(poisson(12, 2), **CPU).solve(np.ones(144))
    svg = result._repr_svg_()
    assert svg.startswith("<svg") and "</svg>" in svg
    assert "iterations" in svg


def test_compare_tabulates_one_run_per_format():
    A = poisson(12, 2)
    table = spkrylov.compare(A, np.ones(144), formats=["csr", "ellpack-r"], **CPU)
    assert [row["format"] for row in table] == ["csr", "ellpack-r"]
    assert all(row["status"] == "converged" for row in table)
    assert table[0]["iterations"] == table[1]["iterations"]  # the CPU path: the same product
    assert table._results[0] is table._results[1]  # solved once, as the CLI does
    assert all("same CSR product" in row["note"] for row in table)
    svg = table._repr_svg_()
    assert svg.startswith("<svg")
    assert "csr (cpu-csr)" in svg and "ellpack-r (cpu-csr)" in svg  # named as requested
    assert "every format runs the same CSR product" in svg
    with pytest.raises(ValueError, match="unknown value 'ell'"):
        spkrylov.compare(A, np.ones(144), formats=["ell"], **CPU)
    one = spkrylov.compare(A, np.ones(144), formats="hyb", **CPU)  # a string is one format
    assert [row["format"] for row in one] == ["hyb"]


def test_callback_gets_each_checks_iterate():
    A = poisson(16, 2)
    b = np.ones(A.shape[0])
    seen = []
    x, info = spkrylov.cg(A, b, rtol=1e-8, check_every=4, callback=lambda xk: seen.append(xk), **CPU)
    assert info == 0 and len(seen) >= 2
    residuals = [np.linalg.norm(b - A @ xk) for xk in seen]
    assert residuals[-1] < residuals[0]  # real iterates, not one buffer seen twice
    assert np.allclose(seen[-1], x)


def test_an_exception_in_the_callback_stops_the_solve():
    A = poisson(16, 2)

    def stop(_):
        raise RuntimeError("enough")

    with pytest.raises(RuntimeError, match="enough"):
        spkrylov.Solver(A, **CPU).solve(np.ones(A.shape[0]), callback=stop)


def test_single_precision_solves_to_its_tolerance():
    A = poisson(16, 2)
    b = np.ones(A.shape[0])
    seen = []
    x, result = spkrylov.Solver(A, precision="single", tol=1e-5, check_every=8, **CPU).solve(
        b, callback=lambda xk: seen.append(xk))
    assert result.converged, result.message
    assert x.dtype == np.float64 and relative_residual(A, b, x) <= 2e-5
    assert seen and seen[0].dtype == np.float64


def test_mixed_precision_meets_the_fp64_tolerance_by_the_true_residual():
    # Diagonal values not exact in fp32: fp32 matrix values, fp64 vectors and true residual.
    A = (poisson(16, 2) + sp.diags(np.linspace(0.1, 0.7, 256))).tocsr()
    b = np.ones(A.shape[0])
    x, result = spkrylov.Solver(A, precision="mixed", tol=1e-12, **CPU).solve(b)
    assert result.converged, result.message
    assert x.dtype == np.float64 and relative_residual(A, b, x) <= 1e-12
    with pytest.raises(ValueError, match="overflows fp32"):
        spkrylov.Solver(A * 1e38, precision="mixed", **CPU)
