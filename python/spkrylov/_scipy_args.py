"""SciPy's argument rules for spkrylov.cg, spkrylov.bicgstab and spkrylov.gmres.

Mirrors what ``scipy.sparse.linalg``'s solvers accept and raise (SciPy 1.17.1:
``_isolve/utils.py`` ``make_system`` and ``_isolve/iterative.py`` ``_get_atol_rtol``), for
spkrylov's inputs:

* A: a dense 2-D array (``np.ndarray``, ``np.matrix``: converted to a CSR matrix, zeros
  dropped), a ``scipy.sparse``/``cupyx.scipy.sparse`` matrix or array, a CSR tuple, or an
  operator (``matvec`` and ``shape``: a ``LinearOperator``). Not square: ValueError; anything
  else: TypeError (SciPy's ``aslinearoperator``). Complex values: TypeError (spkrylov solves
  real systems).
* b and x0: shape (N,) or (N, 1), else ValueError; ``x0="Mb"`` is M @ b (b without M).
* M: None (then A's ``psolve``, if A has one, as SciPy takes it), a preconditioner name or a
  ``spkrylov.Preconditioner``, a dense or sparse matrix (applied as M @ r), a
  ``LinearOperator`` or a callable. A shape other than A's: ValueError.
* atol: None, ``"legacy"`` or negative: ValueError, with SciPy's message. spkrylov also
  refuses a NaN atol and a NaN or negative rtol (SciPy accepts them and compares against NaN,
  or ignores a negative rtol); an infinite rtol or atol is accepted (x0 is then the answer).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from . import _operators

MB = "Mb"  # x0 = M @ b


def check_tolerances(name: str, rtol: Any, atol: Any) -> tuple[float, float]:
    """rtol and atol as floats, or SciPy's ValueError (``_get_atol_rtol``)."""
    if isinstance(atol, str) or atol is None or not is_real(atol) or atol < 0:
        raise ValueError(f"'spkrylov.{name}' called with invalid `atol`={atol}; if set, `atol` "
                         "must be a real, non-negative number.")
    if np.isnan(atol):
        raise ValueError(f"'spkrylov.{name}' called with atol=nan; it must be a real, "
                         "non-negative number")
    if not is_real(rtol) or np.isnan(rtol) or rtol < 0:
        raise ValueError(f"'spkrylov.{name}' called with invalid `rtol`={rtol}; it must be a "
                         "real, non-negative number")
    return float(rtol), float(atol)


def is_real(value: Any) -> bool:
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool)


def _is_dense(a: Any) -> bool:
    return isinstance(a, np.ndarray)  # np.matrix too


def _is_complex(dtype: Any) -> bool:
    try:
        return np.dtype(dtype).kind == "c"
    except TypeError:  # another library's dtype (torch.float64): it says itself
        return bool(getattr(dtype, "is_complex", False))


def _refuse_complex(what: str, dtype: Any) -> None:
    if dtype is not None and _is_complex(dtype):
        raise TypeError(f"{what} is complex ({np.dtype(dtype)}); spkrylov solves real systems "
                        "(complex matrices are not supported)")


def system_matrix(A: Any) -> tuple[Any, int]:
    """A as spkrylov's Solver takes it (a dense array made CSR), and its size n."""
    if _is_dense(A):
        if A.ndim != 2:
            raise ValueError(f"invalid shape {A.shape!r} (must be 2-d)")
        _refuse_complex("A", A.dtype)
        if A.dtype.kind not in "fiub":
            raise TypeError(f"A has values of dtype {A.dtype}; spkrylov takes real numbers")
        import scipy.sparse as sp
        A = sp.csr_array(np.asarray(A))
    if isinstance(A, tuple) and len(A) == 4:
        shape = tuple(int(s) for s in A[3])
    elif hasattr(A, "shape") and (hasattr(A, "tocsr") or _operators.is_operator(A)):
        shape = tuple(int(s) for s in A.shape)
        _refuse_complex("A", getattr(A, "dtype", None))
    else:
        raise TypeError("A must be a matrix (a dense 2-D array, a scipy.sparse or "
                        "cupyx.scipy.sparse matrix or array, a CSR tuple (indptr, indices, data, "
                        "shape)) or an operator with matvec and shape (a LinearOperator), not "
                        f"{type(A).__name__}")
    if len(shape) != 2 or shape[0] != shape[1]:
        raise ValueError(f"expected square matrix, but got shape={(shape,)}")
    return A, shape[0]


def check_vector(v: Any, n: int, name: str) -> None:
    """SciPy's shape rule for b and x0: (N,) or (N, 1). Complex: TypeError."""
    shape = tuple(np.shape(v)) if not hasattr(v, "shape") else tuple(v.shape)
    if shape not in ((n,), (n, 1)):
        raise ValueError(f"{name} has shape {shape}, expected ({n},) or ({n}, 1): the shapes of "
                         f"A {(n, n)} and {name} are incompatible")
    dtype = getattr(v, "dtype", None)
    if dtype is None:
        dtype = np.asarray(v).dtype
    _refuse_complex(name, dtype)


def preconditioner(M: Any, A: Any, n: int) -> Any:
    """M as Solver's ``preconditioner`` takes it: a name, a spkrylov.Preconditioner, or a user
    operator (a matrix is applied as M @ r through SciPy's or CuPy's LinearOperator)."""
    if M is None:
        psolve = getattr(A, "psolve", None)  # SciPy: an operator A may carry its preconditioner
        return psolve if callable(psolve) else "none"
    if isinstance(M, str) or type(M).__module__.startswith("spkrylov"):
        return M
    if _is_dense(M) or hasattr(M, "tocsr"):
        shape = tuple(int(s) for s in M.shape)
        if shape != (n, n):
            raise ValueError("matrix and preconditioner have different shapes")
        _refuse_complex("M", M.dtype)
        if type(M).__module__.startswith("cupyx"):
            from cupyx.scipy.sparse.linalg import aslinearoperator
        else:
            from scipy.sparse.linalg import aslinearoperator
        return aslinearoperator(M)
    if _operators.is_user_preconditioner(M):
        if hasattr(M, "shape") and tuple(int(s) for s in M.shape) != (n, n):
            raise ValueError("matrix and preconditioner have different shapes")
        _refuse_complex("M", getattr(M, "dtype", None))
        return M
    raise TypeError("M must be None, a preconditioner name (none, jacobi, chebyshev, ic0, ilu0, "
                    "amg, block_jacobi), a spkrylov.Preconditioner, a matrix, a LinearOperator or "
                    f"a callable, not {type(M).__name__}")


def check_initial_guess(x0: Any, n: int) -> None:
    """x0: None, "Mb" or a vector of SciPy's shapes."""
    if x0 is None:
        return
    if isinstance(x0, str):
        if x0 != MB:
            raise ValueError(f"x0 must be an array, None or 'Mb' (M @ b), not {x0!r}")
        return
    check_vector(x0, n, "x0")


def m_times_b(M: Any, A: Any, b: Any) -> Any:
    """x0 = "Mb": M @ b for M as preconditioner() gave it (b itself without one; Jacobi's
    b / diag(A)). spkrylov's other preconditioners are built inside the solver, out of reach."""
    kind = M if isinstance(M, str) else getattr(M, "kind", None)
    options = getattr(M, "options", None)
    if kind == "none":
        return b.copy()
    if kind == "jacobi" and not options and not _operators.is_operator(A):
        return b / _diagonal(A, b)
    if kind is None and _operators.is_user_preconditioner(M):
        apply = M.matvec if callable(getattr(M, "matvec", None)) else M
        result = apply(b.copy())
        if tuple(result.shape) not in ((b.shape[0],), (b.shape[0], 1)):
            raise ValueError(f"x0='Mb': M returned shape {tuple(result.shape)}, expected "
                             f"({b.shape[0]},)")
        return result.reshape(-1)
    raise ValueError(f"x0='Mb' with M={M!r}: spkrylov applies that preconditioner inside the "
                     "solver only; give x0 as an array, or M as a matrix or an operator")


def _diagonal(A: Any, b: Any):
    """diag(A) where b lives (NumPy or CuPy)."""
    if isinstance(A, tuple):
        indptr, indices, data, shape = A
        module = type(data).__module__.split(".")[0]
        if module == "numpy":
            import scipy.sparse as sp
            A = sp.csr_array((data, indices, indptr), shape=tuple(shape))
        else:
            import cupyx.scipy.sparse as csp
            A = csp.csr_matrix((data, indices, indptr), shape=tuple(shape))
    diagonal = A.diagonal()
    if type(b).__module__.split(".")[0] == "numpy":
        host = diagonal.get() if hasattr(diagonal, "get") else diagonal
        return np.asarray(host, dtype=np.float64)
    import cupy
    return cupy.asarray(diagonal, dtype=cupy.float64)
