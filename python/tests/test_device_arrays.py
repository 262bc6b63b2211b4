"""Device arrays (CuPy, DLPack) used in place on the GPU. Skipped without CuPy or a GPU.

On a GPU machine: PYTHONPATH=<the built package> python3 -m pytest python/tests
"""
import numpy as np
import pytest
import scipy.sparse as sp

import spkrylov

cupy = pytest.importorskip("cupy")
csp = pytest.importorskip("cupyx.scipy.sparse")
try:
    GPU = cupy.cuda.runtime.getDeviceCount() > 0
except Exception:  # no driver
    GPU = False
pytestmark = pytest.mark.skipif(not GPU, reason="no CUDA GPU")


def poisson3d(n):
    t = sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(n, n))
    eye = sp.identity(n)
    return (sp.kron(sp.kron(t, eye), eye) + sp.kron(sp.kron(eye, t), eye)
            + sp.kron(sp.kron(eye, eye), t)).tocsr()


def relative_residual(A, b, x):
    b, x = cupy.asnumpy(b), cupy.asnumpy(x)
    return np.linalg.norm(b - A @ x) / np.linalg.norm(b)


def test_solve_fills_a_cupy_x0_in_place():
    A = poisson3d(16)
    b = cupy.asarray(np.random.default_rng(1).uniform(-1, 1, A.shape[0]))
    x0 = cupy.zeros(A.shape[0])
    pointer = x0.data.ptr
    solver = spkrylov.Solver(csp.csr_matrix(A), device="gpu", tol=1e-10)
    x, result = solver.solve(b, x0)
    assert result.converged
    assert x is x0 and x.data.ptr == pointer
    assert relative_residual(A, b, x0) <= 1e-10


def test_cg_with_cupy_returns_cupy_and_leaves_x0_alone():
    A = poisson3d(12)
    b = cupy.ones(A.shape[0])
    x0 = cupy.zeros(A.shape[0])
    x, info = spkrylov.cg(csp.csr_matrix(A), b, x0=x0, rtol=1e-10, M="jacobi", device="gpu")
    assert info == 0 and isinstance(x, cupy.ndarray)
    assert x.data.ptr != x0.data.ptr and float(cupy.abs(x0).max()) == 0.0
    assert relative_residual(A, b, x) <= 1e-10
    scipy_x, scipy_info = spkrylov.cg(A, np.ones(A.shape[0]), rtol=1e-10, M="jacobi", device="gpu")
    assert scipy_info == 0 and np.allclose(cupy.asnumpy(x), scipy_x, rtol=1e-8, atol=1e-12)


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo"])
def test_cupyx_matrices_of_every_format(fmt):
    A = poisson3d(10)
    device_matrix = getattr(csp, f"{fmt}_matrix")(A.asformat(fmt))
    b = cupy.ones(A.shape[0])
    x, info = spkrylov.cg(device_matrix, b, rtol=1e-10, device="gpu")
    assert info == 0 and relative_residual(A, b, x) <= 1e-10


def test_update_values_with_a_cupy_array():
    A = poisson3d(12)
    changed = A.copy()
    changed.setdiag(changed.diagonal() * 1.5)
    changed.sort_indices()
    b = cupy.ones(A.shape[0])
    solver = spkrylov.Solver(csp.csr_matrix(A), preconditioner="amg", device="gpu", tol=1e-10)
    solver.update_values(cupy.asarray(changed.data))
    x, result = solver.solve(b)
    assert result.converged and relative_residual(changed, b, x) <= 1e-10


def test_mixed_host_and_device_vectors_are_a_value_error():
    A = poisson3d(6)
    solver = spkrylov.Solver(A, device="gpu")
    with pytest.raises(ValueError, match="one place"):
        solver.solve(cupy.ones(A.shape[0]), np.zeros(A.shape[0]))


def test_nan_in_a_device_b_is_a_value_error():
    A = poisson3d(6)
    b = cupy.ones(A.shape[0])
    b[3] = cupy.nan
    with pytest.raises(ValueError, match="non-finite"):
        spkrylov.Solver(A, device="gpu").solve(b)


def test_a_device_x0_of_the_wrong_dtype_is_not_silently_copied():
    A = poisson3d(6)
    with pytest.raises(ValueError, match="float64"):
        spkrylov.Solver(A, device="gpu").solve(cupy.ones(A.shape[0]),
                                               cupy.zeros(A.shape[0], dtype=cupy.float32))


def test_device_arrays_on_a_cpu_solver_are_a_value_error():
    A = poisson3d(6)
    with pytest.raises(ValueError, match="runs on the CPU"):
        spkrylov.Solver(A, device="cpu").solve(cupy.ones(A.shape[0]))


def test_pytorch_tensors_through_dlpack():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("PyTorch has no CUDA device")
    A = poisson3d(10)
    b = torch.ones(A.shape[0], dtype=torch.float64, device="cuda")
    x0 = torch.zeros(A.shape[0], dtype=torch.float64, device="cuda")
    solver = spkrylov.Solver(A, device="gpu", tol=1e-10)
    x, result = solver.solve(b, x0)
    assert result.converged
    assert isinstance(x, torch.Tensor) and x.data_ptr() == x0.data_ptr()  # filled in place
    assert relative_residual(A, cupy.asarray(b), cupy.asarray(x0)) <= 1e-10
    y, info = spkrylov.cg(A, b, rtol=1e-10, device="gpu")
    assert info == 0 and isinstance(y, torch.Tensor) and y.device.type == "cuda"


def test_jax_arrays_through_dlpack():
    jax = pytest.importorskip("jax")
    jnp = pytest.importorskip("jax.numpy")
    if not any(d.platform == "gpu" for d in jax.devices()):
        pytest.skip("JAX has no GPU device")
    jax.config.update("jax_enable_x64", True)
    A = poisson3d(10)
    b = jnp.ones(A.shape[0], dtype=jnp.float64)
    x, info = spkrylov.cg(A, b, rtol=1e-10, device="gpu")  # JAX arrays are immutable: no x0 fill
    assert info == 0
    assert relative_residual(A, cupy.ones(A.shape[0]), cupy.from_dlpack(x)) <= 1e-10
