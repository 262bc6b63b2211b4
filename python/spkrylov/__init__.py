"""spkrylov: GPU Krylov solvers (CG, BiCGSTAB) with a choice of SpMV storage format.

Two ways in:

* ``spkrylov.Solver(A, **keys)``: one matrix set up once, then ``solve(b)`` as often as needed,
  ``update_values(data)`` for new coefficients on the same pattern. Every config key of the
  YAML file is a keyword (``format="ellpack-r"``, ``preconditioner="jacobi"``,
  ``check_every=32``...), checked by the same code, with the same messages.
* ``spkrylov.cg(A, b)``, ``spkrylov.bicgstab(A, b)`` and ``spkrylov.gmres(A, b)``: drop-in for
  ``scipy.sparse.linalg.cg``/``bicgstab``/``gmres``: SciPy's arguments (A also dense, x0="Mb",
  M a matrix or an operator; _scipy_args.py), ``(x, info)`` with SciPy's meaning of ``info``.

Example::

    import numpy as np, scipy.sparse as sp, spkrylov
    A = sp.diags([-1, 2, -1], [-1, 0, 1], shape=(100, 100), format="csr")
    x, info = spkrylov.cg(A, np.ones(100), rtol=1e-10)
    assert info == 0

Matrices: ``scipy.sparse`` or ``cupyx.scipy.sparse`` (any format: converted to CSR where it
lives), or ``(indptr, indices, data, shape)``. Vectors: NumPy arrays (host memory; a GPU solver
uploads them once per solve), or device arrays (CuPy; PyTorch, JAX and any other DLPack
producer through CuPy's zero-copy ``cupy.from_dlpack``), used in place on the GPU: no host
round trip, results in the caller's library. Real values only (float64; integer data is converted, complex is refused). On a machine without
a GPU, ``device="auto"`` (the default) solves on the CPU and warns once.
"""
from __future__ import annotations

import difflib
import json
import warnings
from typing import Any, Callable

import numpy as np

from . import _libraries  # first: loads the CUDA libraries _core links (an installed wheel)
from . import _core, _operators, _scipy_args
from ._core import NoDeviceError
from ._libraries import libraries

__all__ = ["Solver", "SolveResult", "Preconditioner", "cg", "bicgstab", "gmres", "solve_config",
           "info", "compare", "NoDeviceError", "config_keys", "libraries"]

# Keyword names that are not the YAML's own: SciPy's spellings, mapped to their key.
_ALIASES = {"maxiter": "solver.max_iterations"}
_TOP_KEYS = ("device", "precision")


def config_keys() -> dict[str, list[str]]:
    """Every keyword Solver accepts, by section, as the YAML config names them."""
    return {"solver": list(_core.solver_keys()), "spmv": list(_core.spmv_keys()),
            "top": list(_TOP_KEYS), "aliases": sorted([*_ALIASES, "rtol", "atol", "tol"])}


def _value_text(value: Any) -> str:
    """A keyword value as --set text (solve_config runs the CLI's own command)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):  # preconditioner_options={...}: a YAML flow map
        return json.dumps(value)
    return str(value)


def _plain(value: Any) -> Any:
    """NumPy scalars as the Python values they hold (the config reader takes bool, int, float,
    str, dict and list)."""
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, dict):
        return {name: _plain(item) for name, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    return value


def _settings(keys: dict[str, Any]) -> list[tuple[str, Any, str]]:
    """Keyword arguments as (config key path, value, keyword) triples for the config reader,
    which checks each as --set KEY.PATH=VALUE would be, the values handed over as they are
    (not as text) and its errors naming the keyword ("maxiter: must be >= 1, got '-5'")."""
    solver, spmv = set(_core.solver_keys()), set(_core.spmv_keys())
    settings = []
    for name, value in keys.items():
        if value is None:
            continue
        if name in _ALIASES:
            path = _ALIASES[name]
        elif name in solver:
            path = "solver." + name
        elif name in spmv:
            path = "spmv." + name
        elif name in _TOP_KEYS:
            path = name
        else:
            valid = sorted(solver | spmv | set(_TOP_KEYS) | set(_ALIASES))
            close = difflib.get_close_matches(name, valid, n=1, cutoff=0.75)
            hint = f", did you mean {close[0]!r}?" if close else ""
            raise ValueError(f"unknown keyword {name!r}{hint} (valid: {', '.join(valid)})")
        settings.append((path, _plain(value), name))
    return settings


def _tolerance_settings(rtol: float | None, atol: float | None,
                        keys: dict[str, Any]) -> list[tuple[str, Any, str]]:
    """SciPy's rtol (||r|| <= rtol ||b||) or atol (||r|| <= atol) as the config's tolerance and
    tolerance_mode, as _settings gives them; the default is rtol 1e-8. `tol` is taken as rtol,
    and `tolerance` as the config key it is (both taken out of `keys`). A Solver stops at one
    threshold: give one of them (spkrylov.cg takes rtol and atol together, as SciPy does)."""
    given = {name: value for name, value in (("rtol", rtol), ("atol", atol),
                                             ("tol", keys.pop("tol", None)),
                                             ("tolerance", keys.pop("tolerance", None)))
             if value is not None}
    if len(given) > 1:
        raise ValueError(f"give one of rtol, atol (or tolerance), not {' and '.join(given)}: a "
                         "Solver stops at one threshold (spkrylov.cg takes rtol and atol together)")
    if "atol" in given:
        mode = keys.pop("tolerance_mode", "absolute")
        if mode != "absolute":
            raise ValueError(f"atol is an absolute tolerance; tolerance_mode={mode!r} contradicts it")
        return [("solver.tolerance", _plain(given["atol"]), "atol"),
                ("solver.tolerance_mode", "absolute", "atol")]
    name, value = next(iter(given.items()), ("rtol", 1e-8))
    return [("solver.tolerance", _plain(value), name)]


def _is_device_array(a: Any) -> bool:
    """Whether ``a`` is an array in CUDA device memory (DLPack device type CUDA or managed)."""
    device = getattr(a, "__dlpack_device__", None)
    if device is not None:
        try:
            return int(device()[0]) in (2, 13)
        except Exception:
            return False
    return hasattr(a, "__cuda_array_interface__")


def _cupy():
    try:
        import cupy
    except ImportError as error:
        raise TypeError("device arrays need CuPy (spkrylov reads them through CuPy's zero-copy "
                        "DLPack import): pip install cupy-cuda13x") from error
    return cupy


def _as_cupy(a: Any):
    """A CuPy view of a device array (no copy)."""
    cupy = _cupy()
    return a if isinstance(a, cupy.ndarray) else cupy.from_dlpack(a)


def _like(x, original: Any):
    """x (a CuPy array) in the library ``original`` came from (a zero-copy view)."""
    cupy = _cupy()
    if original is None or isinstance(original, cupy.ndarray):
        return x
    module = type(original).__module__.split(".")[0]
    if module == "torch":
        import torch
        return torch.from_dlpack(x)
    if module in ("jax", "jaxlib"):
        import jax.dlpack
        return jax.dlpack.from_dlpack(x)
    return x


def _device_values(data, cupy):
    """Matrix values on the device as contiguous float64 (and the conversion note)."""
    if cupy.iscomplexobj(data):
        raise TypeError("complex matrices are not supported (spkrylov solves real systems)")
    note = ""
    if data.dtype != cupy.float64:
        if not (cupy.issubdtype(data.dtype, cupy.floating) or cupy.issubdtype(data.dtype, cupy.integer)
                or data.dtype == cupy.bool_):
            raise TypeError(f"matrix values of dtype {data.dtype} are not supported")
        if not cupy.issubdtype(data.dtype, cupy.floating):
            note = f"matrix values converted from {data.dtype} to float64"
    return cupy.ascontiguousarray(data, dtype=cupy.float64), note


def _device_indices(array, name: str, cupy):
    if array.size and int(array.max()) > np.iinfo(np.int32).max:
        raise ValueError(f"{name} has entries past 32 bits; spkrylov indexes a matrix with int32")
    return cupy.ascontiguousarray(array, dtype=cupy.int32)


def _device_csr_arrays(A: Any):
    """_csr_arrays for a cupyx.scipy.sparse matrix or a tuple of device arrays, on the device."""
    cupy = _cupy()
    if isinstance(A, tuple):
        indptr, indices, data, shape = (_as_cupy(A[0]), _as_cupy(A[1]), _as_cupy(A[2]), A[3])
        rows, cols = (int(s) for s in shape)
    else:
        csr = A.tocsr()
        csr.sort_indices()
        indptr, indices, data = csr.indptr, csr.indices, csr.data
        rows, cols = csr.shape
    if rows != cols:
        raise ValueError(f"the matrix must be square, got {rows} x {cols}")
    data, note = _device_values(data, cupy)
    return (_device_indices(indptr, "indptr", cupy), _device_indices(indices, "indices", cupy),
            data, rows, cols, note)


def _is_device_matrix(A: Any) -> bool:
    if isinstance(A, tuple) and len(A) == 4:
        return any(_is_device_array(part) for part in A[:3])
    return type(A).__module__.startswith("cupyx.")


class Preconditioner:
    """A preconditioner kind with its options (the YAML's ``solver.preconditioner`` and
    ``solver.preconditioner_options``), checked by the config reader when made. Pass it as
    ``M`` to :func:`cg`/:func:`bicgstab`, or as ``preconditioner`` to :class:`Solver`.

    Example::

        M = spkrylov.Preconditioner("amg", smoother_degree=2, precision="single")
        x, info = spkrylov.cg(A, b, rtol=1e-8, M=M)
    """

    KINDS = ("none", "jacobi", "chebyshev", "ic0", "ilu0", "amg", "block_jacobi")

    def __init__(self, kind: str, **options: Any):
        self.kind = kind
        self.options = dict(options)
        _core.check_overrides(self._settings())

    def _settings(self) -> list[tuple[str, Any, str]]:
        settings = [("solver.preconditioner", self.kind, "preconditioner")]
        if self.options:  # the YAML's preconditioner_options, named so in errors
            settings.append(("solver.preconditioner_options", _plain(self.options),
                             "preconditioner_options"))
        return settings

    def __repr__(self) -> str:
        options = "".join(f", {name}={value!r}" for name, value in self.options.items())
        return f"Preconditioner({self.kind!r}{options})"


def _csr_arrays(A: Any):
    """(indptr, indices, data, rows, cols, note) of a SciPy matrix or a CSR tuple (host), or of
    a cupyx matrix or a tuple of device arrays (device, in place)."""
    if _is_device_matrix(A):
        return _device_csr_arrays(A)
    note = ""
    if isinstance(A, tuple) and len(A) == 4:
        indptr, indices, data, shape = A
        rows, cols = (int(s) for s in shape)
    elif hasattr(A, "tocsr") and hasattr(A, "shape"):
        csr = A.tocsr()
        csr.sort_indices()
        indptr, indices, data = csr.indptr, csr.indices, csr.data
        rows, cols = csr.shape
    else:
        raise TypeError("A must be a scipy.sparse matrix or a tuple (indptr, indices, data, shape), "
                        f"not {type(A).__name__}")
    data = np.asarray(data)
    if np.iscomplexobj(data):
        raise TypeError("complex matrices are not supported (spkrylov solves real systems)")
    if not np.issubdtype(data.dtype, np.floating):
        if not (np.issubdtype(data.dtype, np.integer) or data.dtype == np.bool_):
            raise TypeError(f"matrix values of dtype {data.dtype} are not supported")
        note = f"matrix values converted from {data.dtype} to float64"
    if rows != cols:
        raise ValueError(f"the matrix must be square, got {rows} x {cols}")
    for name, array in (("indptr", indptr), ("indices", indices)):
        if len(array) and np.asarray(array).max(initial=0) > np.iinfo(np.int32).max:
            raise ValueError(f"{name} has entries past 32 bits; spkrylov indexes a matrix with int32")
    return (np.ascontiguousarray(indptr, dtype=np.int32),
            np.ascontiguousarray(indices, dtype=np.int32),
            np.ascontiguousarray(data, dtype=np.float64), rows, cols, note)


def _device_vector(v: Any, n: int, name: str, copy: bool, writable: bool = True):
    """A device vector as a CuPy float64 array: a view when it already is one and copy is
    False (x0, filled in place; b, read in place when not ``writable``), else a converted
    copy."""
    cupy = _cupy()
    array = _as_cupy(v)
    if cupy.iscomplexobj(array):
        raise TypeError(f"{name} is complex; spkrylov solves real systems")
    if array.ndim == 2 and 1 in array.shape:
        array = array.reshape(-1)
    if array.ndim != 1 or array.shape[0] != n:
        raise ValueError(f"{name} has shape {tuple(v.shape)}, expected ({n},)")
    if not copy and not writable and (array.dtype != cupy.float64 or not array.flags.c_contiguous):
        copy = True  # read-only: a converted copy does as well as the original
    if not copy:
        if array.dtype != cupy.float64 or not array.flags.c_contiguous:
            raise ValueError(f"{name} must be a contiguous float64 device array to be filled in "
                             f"place (got {array.dtype})")
        result = array
    else:
        result = cupy.array(array, dtype=cupy.float64, copy=True, order="C")
    _first_non_finite(result, name)
    return result


def _vector(v: Any, n: int, name: str) -> np.ndarray:
    array = np.asarray(v)
    if np.iscomplexobj(array):
        raise TypeError(f"{name} is complex; spkrylov solves real systems")
    array = array.reshape(-1) if array.ndim == 2 and 1 in array.shape else array
    if array.ndim != 1 or array.shape[0] != n:
        raise ValueError(f"{name} has shape {np.shape(v)}, expected ({n},)")
    return np.array(array, dtype=np.float64, copy=True, order="C")


class SolveResult:
    """What a solve did: ``status`` ("converged", "max_iterations", "breakdown", ...),
    ``message``, ``iterations``, ``true_residual`` (||b - A x||, computed at the end),
    ``recursive_residual``, ``relative_true_residual``, ``solve_s`` and ``history`` (the
    residual norm at every iteration, a NumPy array).

    Example::

        x, result = spkrylov.Solver(A).solve(b)
        print(result.status, result.iterations, result.true_residual)
    """

    def __init__(self, fields: dict[str, Any], notes: list[str]):
        self.__dict__.update(fields)
        self.history = np.asarray(fields["history_residual"], dtype=np.float64)
        self.history_elapsed_s = np.asarray(fields["history_elapsed_s"], dtype=np.float64)
        self.notes = list(notes)

    @property
    def converged(self) -> bool:
        return self.status == "converged"

    def _plot_run(self, label: str) -> tuple:
        """This run as a line of the CLI's plot: residual relative to ||b|| (absolute if b = 0)."""
        scale = self.b_norm if self.b_norm > 0 else 1.0
        return (label, list(self.history / scale), list(self.history_elapsed_s),
                self.threshold / scale)

    def _repr_svg_(self) -> str:
        """The CLI's convergence plot (output.plot), shown by notebooks."""
        label = "recursive residual ||r|| / ||b||" if self.b_norm > 0 else "recursive residual ||r||"
        run = self._plot_run(f"{self.status}, {self.iterations} iterations")
        return _core.convergence_svg("spkrylov solve", label, [run])

    def __repr__(self) -> str:
        return (f"SolveResult(status={self.status!r}, iterations={self.iterations}, "
                f"true_residual={self.true_residual:.3e})")


class Solver:
    """A matrix set up once for CG or BiCGSTAB (``method``), with a preconditioner and an SpMV
    format, on the GPU or the CPU (``device``). Keywords are the YAML config's keys.

    ``A`` may also be an operator (a ``LinearOperator``, or any object with ``matvec`` and
    ``shape``: matrix-free) and ``preconditioner`` a ``LinearOperator`` or a callable (a user
    M): spkrylov/_operators.py. With an operator A the default preconditioner is none, and
    ``jacobi`` takes ``diagonal=`` (diag(A)); ``operator_arrays`` ("auto", "numpy", "cupy") says
    what a GPU solver hands the operators.

    Example::

        solver = spkrylov.Solver(A, method="cg", preconditioner="jacobi", format="auto")
        x, result = solver.solve(b)
        solver.update_values(A2.data)   # same pattern, new values
    """

    _warned_cpu = False

    def __init__(self, A: Any, *, method: str = "cg", preconditioner: Any = None,
                 format: str = "csr", rtol: float | None = None, atol: float | None = None,
                 device: str = "auto", diagonal: Any = None, operator_arrays: str = "auto",
                 **keys: Any):
        if preconditioner is None:  # jacobi; for a user A only with its diagonal given
            preconditioner = "none" if _operators.is_operator(A) and diagonal is None else "jacobi"
        if isinstance(preconditioner, Preconditioner):
            if "preconditioner_options" in keys:
                raise ValueError("preconditioner_options: give the options in the Preconditioner "
                                 "object or here, not both")
            if preconditioner.options:
                keys["preconditioner_options"] = preconditioner.options
            preconditioner = preconditioner.kind
        self._calls: list = []  # user operators (A, M): the functions the solver calls
        if _operators.is_operator(A) or _operators.is_user_preconditioner(preconditioner):
            self._notes, self._nnz = [], 0
            rows = self._set_up_operators(A, preconditioner, diagonal, operator_arrays, rtol, atol,
                                          dict(method=method, format=format, device=device, **keys))
        else:
            if diagonal is not None:
                raise TypeError("diagonal is for a user operator A (its Jacobi preconditioner); a "
                                "matrix's own diagonal is used")
            indptr, indices, data, rows, cols, note = _csr_arrays(A)
            self._notes = [note] if note else []
            self._nnz = len(data)
            tolerance = _tolerance_settings(rtol, atol, keys)
            settings = _settings(dict(method=method, preconditioner=preconditioner, format=format,
                                      device=device, **keys)) + tolerance
            self._core = _core.Solver(indptr, indices, data, rows, cols, settings)
        self.n = rows
        if device == "auto" and self.setup_info["device"] == "cpu" and not Solver._warned_cpu:
            Solver._warned_cpu = True
            warnings.warn("spkrylov: no usable GPU; solving on the CPU (device='cpu' silences this)",
                          RuntimeWarning, stacklevel=2)

    def _set_up_operators(self, A, M, diagonal, arrays: str, rtol, atol, keys: dict) -> int:
        """The solver of a user A (an operator, or a matrix under a user M) and M: see
        spkrylov/_operators.py. The residual is looked at every iteration (check_every 1, unless
        given): the operators' calls are host round trips anyway, and a SciPy user counts
        matvecs. Returns the row count."""
        user_m = _operators.is_user_preconditioner(M)
        if _operators.is_operator(A):
            a_call = _operators.operator_call(A, arrays)
        else:  # a matrix under the user's M: its product in SciPy/CuPy
            a_call = _operators.matrix_call(A)
        m_call = _operators.preconditioner_call(M, a_call.n, arrays) if user_m else None
        if diagonal is not None:
            diagonal = np.ascontiguousarray(
                diagonal.get() if _is_device_array(diagonal) else diagonal, dtype=np.float64)
        keys.setdefault("check_every", 1)
        tolerance = _tolerance_settings(rtol, atol, keys)
        settings = _settings(dict(preconditioner="none" if user_m else M, **keys)) + tolerance
        self._core = _core.Solver(a_call.n, a_call, m_call, diagonal, settings)
        self._calls = [call for call in (a_call, m_call) if call is not None]
        return a_call.n

    @property
    def setup_info(self) -> dict[str, Any]:
        """Where and how the solver was set up: device, operator (format), bytes, setup time,
        and ``preconditioner``: what the CLI's report gives under that name (``name``, its
        numbers, ``setup_ms``, ``setup_phases_ms``, and for AMG ``levels``: rows, nnz and
        format of each level, finest first)."""
        info = self._core.setup_info()
        info["preconditioner"] = json.loads(info["preconditioner"])
        return info

    @property
    def config(self) -> str:
        """The resolved config (YAML), every key included."""
        return self._core.resolved_config()

    def solve(self, b: Any, x0: Any = None, callback: Callable[[np.ndarray], Any] | None = None,
              *, progress: Callable[[int, float], Any] | None = None) -> tuple[Any, SolveResult]:
        """Solves A x = b from x0 (zeros by default). Returns ``(x, result)``.

        NumPy vectors: x0 is not modified; x is a new array. Device vectors (CuPy, or any DLPack
        producer through CuPy): b is read in place, and a device x0 (float64, contiguous) is
        filled in place with the solution and returned (the same memory, in x0's library); with
        no x0, x is a new CuPy array. ``callback(xk)`` gets a copy of the current iterate at
        every convergence check (at most ``check_every`` iterations apart: one copy from the
        GPU each); an exception it raises stops the solve and is raised here.
        ``progress(iteration, residual)`` is called at the same checks (before ``callback``)
        with the iteration count and the recursive residual norm, and copies nothing.

        Example::

            import cupy, cupyx.scipy.sparse as csp
            solver = spkrylov.Solver(csp.csr_matrix(A), preconditioner="amg")
            x = cupy.zeros(A.shape[0])
            solver.solve(cupy.ones(A.shape[0]), x)   # x filled in place on the GPU
        """
        if _is_device_array(b) or (x0 is not None and _is_device_array(x0)):
            return self._solve_on_device(b, x0, callback, progress)
        rhs = _vector(b, self.n, "b")
        x = np.zeros(self.n) if x0 is None else _vector(x0, self.n, "x0")
        for name, v in (("b", rhs), ("x0", x)):
            _first_non_finite(v, name)
        precision = np.float32 if self._core.precision() == "single" else np.float64
        iterate = np.zeros(self.n if callback is not None else 0, dtype=precision)
        on_check = _check_function(callback, progress, lambda: iterate.astype(np.float64))
        fields = _operators.solve_with(self._calls,
                                       lambda: self._core.solve(rhs, x, iterate, on_check))
        return x, SolveResult(fields, self._notes)

    def _solve_on_device(self, b: Any, x0: Any, callback, progress) -> tuple[Any, SolveResult]:
        if not (_is_device_array(b) and (x0 is None or _is_device_array(x0))):
            raise ValueError("b and x0: one in host memory, one on the GPU; give both in one place")
        cupy = _cupy()
        rhs = _device_vector(b, self.n, "b", copy=not isinstance(b, cupy.ndarray))
        x = cupy.zeros(self.n) if x0 is None else _device_vector(x0, self.n, "x0", copy=False)
        iterate = np.zeros(self.n if callback is not None else 0, dtype=np.float64)
        on_check = _check_function(callback, progress, lambda: cupy.asarray(iterate))
        fields = _operators.solve_with(self._calls,
                                       lambda: self._core.solve(rhs, x, iterate, on_check))
        return (x if x0 is None else _like(x, x0)), SolveResult(fields, self._notes)

    def update_values(self, data: Any) -> None:
        """New matrix values on the same pattern: ``data`` in the CSR order of the matrix
        given (``A.tocsr().data`` after sorting its indices). A device array is read in place."""
        if self._calls:
            raise TypeError("update_values: the system is given by user operators (change what "
                            "your operator applies instead)")
        if _is_device_array(data):
            cupy = _cupy()
            values, _ = _device_values(_as_cupy(data).reshape(-1), cupy)
            if values.shape[0] != self._nnz:
                raise ValueError(f"update_values: {values.shape[0]} values given, the matrix has "
                                 f"{self._nnz} entries")
            self._core.update_values(values)
            return
        values = np.asarray(data)
        if np.iscomplexobj(values):
            raise TypeError("update_values: complex values are not supported")
        values = np.ascontiguousarray(values, dtype=np.float64).reshape(-1)
        if values.shape[0] != self._nnz:
            raise ValueError(f"update_values: {values.shape[0]} values given, the matrix has "
                             f"{self._nnz} entries")
        self._core.update_values(values)


def _check_function(callback, progress, iterate: Callable[[], Any]):
    """What _core.Solver.solve calls at each convergence check, (iteration, residual): progress
    with those, then callback with the iterate (which _core copied into the buffer that
    ``iterate`` reads, only when there is a callback). None when there is neither."""
    if callback is None and progress is None:
        return None

    def on_check(iteration: int = 0, residual: float = 0.0) -> None:
        if progress is not None:
            progress(iteration, residual)
        if callback is not None:
            callback(iterate())
    return on_check


def _rows(A: Any) -> int:
    """The row count of a matrix given as SciPy/CuPy sparse or as a CSR tuple."""
    if isinstance(A, tuple) and len(A) == 4:
        return int(A[3][0])
    if hasattr(A, "shape"):
        return int(A.shape[0])
    raise TypeError("A must be a scipy.sparse matrix or a tuple (indptr, indices, data, shape), "
                    f"not {type(A).__name__}")


def _first_non_finite(v, name: str) -> None:
    """Raises ValueError naming the first NaN/Inf entry of v (NumPy or CuPy)."""
    module = _cupy() if not isinstance(v, np.ndarray) else np
    bad = module.flatnonzero(~module.isfinite(v))
    if bad.size:
        index = int(bad[0])
        raise ValueError(f"{name}[{index}] is {float(v[index])} ({bad.size} non-finite "
                         f"entr{'y' if bad.size == 1 else 'ies'}); spkrylov solves finite systems")


# SciPy's info for a BiCGSTAB breakdown: -10 where rho = (r_hat, r) vanished, -11 where
# (r_hat, v) or omega did.
_BREAKDOWN_INFO = {"rho=(r_hat,r)": -10, "(r_hat,v)": -11, "omega": -11}
# SciPy's callback_type warning of gmres, word for word (code written for SciPy filters on it).
_GMRES_CALLBACK_TYPE_WARNING = (
    "scipy.sparse.linalg.gmres called without specifying `callback_type`. The default value "
    "will be changed in a future release. For compatibility, specify a value for "
    "`callback_type` explicitly, e.g., ``gmres(..., callback_type='pr_norm')``, or to retain "
    "the old behavior ``gmres(..., callback_type='legacy')``")


def _scipy_style(method: str, A, b, x0, rtol, atol, maxiter, M, callback, keys,
                 gmres: tuple[int, str | None] | None = None):
    """The body of cg, bicgstab and gmres: SciPy's arguments (spkrylov/_scipy_args.py) made a
    Solver and one solve, SciPy's (x, info) back. gmres: (restart, callback_type)."""
    A, n = _scipy_args.system_matrix(A)
    _scipy_args.check_vector(b, n, "b")
    preconditioner = _scipy_args.preconditioner(M, A, n)
    _scipy_args.check_initial_guess(x0, n)
    rtol, atol = _scipy_args.check_tolerances(method, rtol, atol)
    if maxiter is not None and (not _scipy_args.is_real(maxiter) or int(maxiter) != maxiter
                                or maxiter < 1):
        raise ValueError(f"maxiter must be an integer >= 1, got {maxiter!r}")
    device = _is_device_array(b)
    if device:  # device arrays: x0 is copied on the device (never written), x comes back there
        cupy = _cupy()
        rhs = _device_vector(b, n, "b", copy=False, writable=False)
        b_norm = float(cupy.linalg.norm(rhs))
    else:
        rhs = _vector(b, n, "b")
        _first_non_finite(rhs, "b")
        b_norm = float(np.linalg.norm(rhs))
    if b_norm == 0.0:  # b = 0: x = 0 is exact (SciPy returns it too); no solve needed
        return (_like(cupy.zeros(n), b) if device else np.zeros(n)), 0
    start = _scipy_args.m_times_b(preconditioner, A, rhs) if isinstance(x0, str) else x0
    # SciPy stops at ||r|| <= max(rtol ||b||, atol): that threshold, as an absolute tolerance.
    threshold = max(rtol * b_norm, atol)
    if threshold == np.inf:  # any x0 meets it: SciPy returns x0 as it is
        if start is None:
            return (_like(cupy.zeros(n), b) if device else np.zeros(n)), 0
        return (_like(_device_vector(start, n, "x0", copy=True), b) if device
                else _vector(start, n, "x0")), 0
    # rtol = atol = 0 asks for an exact zero residual: SciPy then runs to maxiter, and so do we
    # (the smallest normal double stands for 0, which the tolerance key refuses).
    threshold = threshold or float(np.finfo(np.float64).tiny)
    limit = int(maxiter) if maxiter is not None else 10 * n  # SciPy's default; gmres: cycles
    iterations = limit  # the solver's max_iterations
    on_x, progress, cycle_ends = callback, None, None
    if gmres is not None:
        restart, callback_type = gmres
        restart = keys["restart"] = min(int(restart), n)
        if callback_type != "legacy":  # maxiter counts restart cycles
            iterations = limit * restart
        if callback_type in ("legacy", "pr_norm"):  # ||r|| / ||b|| after every inner iteration
            keys.setdefault("check_every", 1)
            on_x, progress = None, lambda _, residual: callback(np.float64(residual / b_norm))
        elif callback_type == "x":  # the iterate after every restart cycle
            keys.setdefault("check_every", restart)
            on_x, progress, cycle_ends = _cycle_end_callback(callback, restart)
    solver = Solver(A, method=method, preconditioner=preconditioner, atol=threshold,
                    maxiter=iterations, **keys)
    if device:
        start = cupy.zeros(n) if start is None else _device_vector(start, n, "x0", copy=True)
        x, result = solver.solve(rhs, start, on_x, progress=progress)
        x = _like(x, b)
    else:
        x, result = solver.solve(rhs, start, on_x, progress=progress)
    if cycle_ends is not None and result.iterations > cycle_ends[0]:
        callback(x)  # the last cycle, ended before its restart steps (converged, stopped)
    if result.status == "converged":
        return x, 0
    if result.status == "breakdown":
        return x, _BREAKDOWN_INFO.get(result.breakdown, -1)
    if result.status == "max_iterations":
        return x, limit
    if result.status in ("time_limit", "stagnated", "no_progress"):
        done = result.iterations if iterations == limit else -(-result.iterations // restart)
        return x, max(1, done)
    return x, -1  # non-finite, diverged: SciPy's "illegal input or breakdown"


def _cycle_end_callback(callback, restart: int):
    """gmres's callback_type "x": (callback for Solver.solve, its progress, [the last
    iteration reported]): the user's callback(xk) at the checks that end a restart cycle."""
    now, reported = [0], [0]

    def progress(iteration: int, _residual: float) -> None:
        now[0] = iteration

    def on_x(xk) -> None:
        if now[0] > reported[0] and now[0] % restart == 0:
            reported[0] = now[0]
            callback(xk)
    return on_x, progress, reported


def cg(A, b, x0=None, *, rtol: float = 1e-5, atol: float = 0.0, maxiter: int | None = None,
       M=None, callback: Callable | None = None, **keys) -> tuple[np.ndarray, int]:
    """Conjugate Gradient with ``scipy.sparse.linalg.cg``'s arguments and return value
    ``(x, info)``: info 0 converged, > 0 iterations without convergence (``maxiter`` when it
    ran out), < 0 breakdown.

    A: a dense 2-D array (made CSR), a SciPy (or CuPy) sparse matrix or array, a CSR tuple, or
    an operator with ``matvec`` and ``shape`` (a ``LinearOperator``: matrix-free). M: None,
    a preconditioner name or :class:`Preconditioner`, a matrix, a ``LinearOperator`` or a
    callable. ``x0="Mb"`` starts from M @ b. Arguments SciPy refuses are refused the same way
    (ValueError: atol None, "legacy" or negative, shapes that do not match); complex A, b or M
    raise TypeError (spkrylov solves real systems). x is float64, whatever the input's dtype.
    ``callback(xk)`` is called at every convergence check: at most ``check_every`` iterations
    apart (16 by default, 1 for an operator A or M; pass ``check_every=1`` for SciPy's every
    iteration, at a cost on a GPU). Other keywords are Solver's (``format``, ``device``...).

    Example::

        x, info = spkrylov.cg(A, b, rtol=1e-8, M="jacobi", format="ellpack-r")
    """
    return _scipy_style("cg", A, b, x0, rtol, atol, maxiter, M, callback, keys)


def bicgstab(A, b, x0=None, *, rtol: float = 1e-5, atol: float = 0.0,
             maxiter: int | None = None, M=None, callback: Callable | None = None,
             **keys) -> tuple[np.ndarray, int]:
    """BiCGSTAB with ``scipy.sparse.linalg.bicgstab``'s arguments and return value (info -10:
    rho broke down, -11: (r_hat, v) or omega did); the inputs as for :func:`cg`.

    Example::

        x, info = spkrylov.bicgstab(A, b, rtol=1e-8, M="jacobi")
    """
    return _scipy_style("bicgstab", A, b, x0, rtol, atol, maxiter, M, callback, keys)


def gmres(A, b, x0=None, *, rtol: float = 1e-5, atol: float = 0.0, restart: int | None = None,
          maxiter: int | None = None, M=None, callback: Callable | None = None,
          callback_type: str | None = None, **keys) -> tuple[np.ndarray, int]:
    """Restarted GMRES with ``scipy.sparse.linalg.gmres``'s arguments and return value; the
    inputs as for :func:`cg`. ``restart``: Arnoldi steps per cycle (SciPy's default 20, at
    most n); ``maxiter``: restart cycles (10 n by default), info > 0 is the cycles run.
    ``callback_type``: ``"x"``, callback(xk) after every cycle; ``"pr_norm"``, callback(||r|| /
    ||b||) after every inner iteration; ``"legacy"`` (SciPy's default when a callback is given,
    with its DeprecationWarning), the same, and maxiter counts inner iterations.

    spkrylov's GMRES preconditions on the right (``solver.method: gmres``): it minimises the
    true residual ||b - A x||, which is what the callback gets, where SciPy's left
    preconditioning reports ||M (b - A x)||; without M they agree.

    Example::

        x, info = spkrylov.gmres(A, b, rtol=1e-8, restart=30, M="ilu0")
    """
    if callback is not None and callback_type is None:
        warnings.warn(_GMRES_CALLBACK_TYPE_WARNING, DeprecationWarning, stacklevel=2)
    if callback_type is None:
        callback_type = "legacy"
    if callback_type not in ("x", "pr_norm", "legacy"):
        raise ValueError(f"Unknown callback_type: {callback_type!r}")
    if restart is not None and (not _scipy_args.is_real(restart) or restart < 1):
        raise ValueError(f"restart must be an integer >= 1, got {restart!r}")
    return _scipy_style("gmres", A, b, x0, rtol, atol, maxiter, M, callback, keys,
                        gmres=(20 if restart is None else restart,
                               callback_type if callback is not None else None))


def solve_config(config: str | None = None, *, quiet: bool = True, **overrides: Any) -> dict:
    """Runs what ``spkrylov solve CONFIG --set KEY=VALUE ...`` runs (the CLI's own code: the
    problem, the solve or the format comparison, the outputs the config asks for), prints the
    CLI's report, and returns the JSON report as a dict, with ``"exit_code"`` added (0
    converged, 2 not). Keys of nested sections are spelled with ``__`` for the dots.

    Example::

        report = spkrylov.solve_config("configs/quickstart.yaml", matrix__generate__n=32,
                                       device="cpu")
        print(report["status"], report["iterations"])
    """
    settings = [f"{name.replace('__', '.')}={_value_text(value)}"
                for name, value in overrides.items()]
    code, report_text = _core.solve_config(config or "", settings, quiet)
    report = json.loads(report_text)
    report["exit_code"] = code
    return report


class MatrixInfo(dict):
    """The statistics ``spkrylov info`` prints (rows, nnz, row lengths, symmetry, diagonal
    dominance, ...), as a dict; ``str()`` gives the CLI's table."""

    def __init__(self, fields, text: str):
        super().__init__((name, json.loads(value)) for name, value in fields)
        self.text = text

    def __str__(self) -> str:
        return self.text


def info(A: Any) -> MatrixInfo:
    """The matrix statistics of ``spkrylov info`` for a SciPy matrix or a CSR tuple.

    Example::

        stats = spkrylov.info(A)
        print(stats)                      # the CLI's table
        stats["numerically_symmetric"]   # one figure
    """
    indptr, indices, data, rows, cols, _ = _csr_arrays(A)
    fields, text = _core.matrix_info(indptr, indices, data, rows, cols)
    return MatrixInfo(fields, text)


class Comparison(list):
    """One dict per format (format, operator, status, iterations, ms per iteration, solve and
    setup seconds, true residual); ``dataframe()`` gives a pandas DataFrame when pandas is
    installed, and a notebook shows the runs' convergence plot."""

    def __init__(self, rows: list[dict], results: list[SolveResult]):
        super().__init__(rows)
        self._results = results

    def dataframe(self):
        import pandas  # optional dependency

        return pandas.DataFrame(list(self))

    def _repr_svg_(self) -> str:
        runs = [result._plot_run(f"{row['format']} ({row['operator']}): {row['iterations']} "
                                 "iterations") for row, result in zip(self, self._results)]
        title = "spkrylov compare"
        if any(row["device"] == "cpu" for row in self):
            title += " (CPU path: every format runs the same CSR product)"
        return _core.convergence_svg(title, "recursive residual ||r|| / ||b||", runs)


def compare(A: Any, b: Any, formats: list[str] | str, **keys: Any) -> Comparison:
    """Solves A x = b once per SpMV format (the other keywords as for Solver) and tabulates
    the runs, as the CLI's ``compare:`` does. On the CPU path every format runs the same
    reference product: as the CLI, it solves once and names that run once per format asked
    for (the table only means something on a GPU).

    Example::

        table = spkrylov.compare(A, b, formats=["csr", "ellpack-r", "hyb"], preconditioner="none")
        for row in table:
            print(row["format"], row["ms_per_iteration"])
    """
    if isinstance(formats, str):  # one format: compare(A, b, formats="hyb")
        formats = [formats]
    rows, results = [], []
    cpu_result = None  # the CPU path: one solve stands for every format (the same product)
    for name in formats:
        solver = Solver(A, format=name, **keys)  # every name is checked, on either path
        setup = solver.setup_info
        on_cpu = setup["device"] == "cpu"
        if on_cpu and cpu_result is not None:
            result = cpu_result
        else:
            _, result = solver.solve(b)
            cpu_result = result if on_cpu else None
        row = dict(format=name, operator=setup["operator"], device=setup["device"],
                   status=result.status, iterations=result.iterations,
                   ms_per_iteration=1e3 * result.solve_s / max(1, result.iterations_executed),
                   solve_s=result.solve_s, setup_s=setup["setup_s"],
                   true_residual=result.true_residual)
        if on_cpu:
            row["note"] = _core.cpu_compare_note  # the CLI's own words
        rows.append(row)
        results.append(result)
    return Comparison(rows, results)
