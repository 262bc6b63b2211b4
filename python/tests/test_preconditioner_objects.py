"""spkrylov.Preconditioner: a kind with its options, checked when made, as M or preconditioner."""
import numpy as np
import pytest
import scipy.sparse as sp

import spkrylov

CPU = dict(device="cpu")


def poisson3d(n):
    t = sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(n, n))
    eye = sp.identity(n)
    return (sp.kron(sp.kron(t, eye), eye) + sp.kron(sp.kron(eye, t), eye)
            + sp.kron(sp.kron(eye, eye), t)).tocsr()


def test_an_object_as_m_gives_the_iterations_of_the_same_keys():
    A = poisson3d(12)
    b = np.ones(A.shape[0])
    M = spkrylov.Preconditioner("amg", smoother_degree=2, precision="single")
    x, info = spkrylov.cg(A, b, rtol=1e-10, M=M, **CPU)
    assert info == 0
    assert np.linalg.norm(b - A @ x) <= 1e-10 * np.linalg.norm(b)
    with_keys = spkrylov.Solver(A, preconditioner="amg", tol=1e-10, **CPU,
                                preconditioner_options={"smoother_degree": 2, "precision": "single"})
    with_object = spkrylov.Solver(A, preconditioner=M, tol=1e-10, **CPU)
    assert with_object.solve(b)[1].iterations == with_keys.solve(b)[1].iterations
    assert "precision: single" in with_object.config and "smoother_degree: 2" in with_object.config


def test_unknown_options_and_kinds_fail_when_made():
    with pytest.raises(ValueError, match="unknown key.*valid keys: strength_threshold"):
        spkrylov.Preconditioner("amg", smoother_degre=2)
    with pytest.raises(ValueError, match="^preconditioner: unknown value 'multigrid'"):
        spkrylov.Preconditioner("multigrid")
    with pytest.raises(ValueError, match="precision"):
        spkrylov.Preconditioner("amg", precision="half")


def test_options_in_the_object_and_as_a_keyword_is_an_error():
    M = spkrylov.Preconditioner("chebyshev", degree=2)
    with pytest.raises(ValueError, match="not both"):
        spkrylov.Solver(poisson3d(4), preconditioner=M, preconditioner_options={"degree": 3}, **CPU)


def test_repr_names_kind_and_options():
    assert repr(spkrylov.Preconditioner("jacobi")) == "Preconditioner('jacobi')"
    assert repr(spkrylov.Preconditioner("chebyshev", degree=2)) == \
        "Preconditioner('chebyshev', degree=2)"
