"""User operators: a matrix-free A and a user preconditioner M for :class:`spkrylov.Solver`,
:func:`spkrylov.cg` and :func:`spkrylov.bicgstab`, through the C++ API's operator interface
(include/spkrylov/user_operator.hpp; python/src/python_operator.hpp calls the functions made
here).

* A: a ``scipy.sparse.linalg.LinearOperator``, a ``cupyx.scipy.sparse.linalg.LinearOperator``,
  or any object with ``matvec(x)`` and ``shape`` (and ``dtype``, if it has one, real).
* M: the same, or a callable ``M(r)``, giving z = M r (an approximation of A^-1 r).

Each application runs the user's Python code on views of the solver's own vectors, no copies:

* CPU solver: NumPy views of the host vectors (x read-only); the product is written into y.
* GPU solver with CuPy, for an operator of CuPy arrays (a cupyx LinearOperator, or a duck-typed
  object: the default when CuPy imports): CuPy views of the device vectors
  (``cupy.cuda.UnownedMemory``), the user's code run on the solver's stream
  (``cupy.cuda.ExternalStream``), nothing synchronized; non-finite results are flagged on the
  device and raised after the solve.
* GPU solver, operator of NumPy arrays (SciPy's LinearOperator, ``operator_arrays="numpy"``, or
  no CuPy): the C++ side copies x to the host and y back, with one stream synchronization per
  application: 16 bytes per row over PCIe, as slow as it sounds.

A zero x on the host gives y = 0 without calling the user's code (the initial residual of a
solve from x0 = 0: SciPy makes no call there either, and its users count matvecs).

A user exception, a result of the wrong shape, a complex or a non-finite result becomes one
ValueError naming the operator ("user operator A: matvec raised ZeroDivisionError: ..."),
raised from the user's exception; the solver stays usable.
"""
from __future__ import annotations

import ctypes
import sys
import time
from typing import Any, Callable

import numpy as np


def _module_of(obj: Any) -> str:
    return type(obj).__module__ or ""


def is_operator(A: Any) -> bool:
    """Whether A is given as an operator (matvec and shape) rather than as a matrix."""
    return callable(getattr(A, "matvec", None)) and hasattr(A, "shape")


def is_user_preconditioner(M: Any) -> bool:
    """Whether M is a user preconditioner: an operator (matvec) or a callable, not a name, a
    spkrylov.Preconditioner or None."""
    if M is None or isinstance(M, str) or _module_of(M).startswith("spkrylov"):
        return False
    return callable(getattr(M, "matvec", None)) or callable(M)


def _cupy_or_none():
    try:
        import cupy
        return cupy
    except ImportError:
        return None


def _host_arrays(op: Any, arrays: str) -> bool:
    """Whether the operator takes NumPy arrays on a GPU solver: ``arrays`` "numpy" or "cupy",
    or "auto": NumPy for SciPy's LinearOperator (it converts with np.asarray) or without
    CuPy, CuPy for anything else."""
    if arrays not in ("auto", "numpy", "cupy"):
        raise ValueError(f"operator_arrays must be 'auto', 'numpy' or 'cupy', got {arrays!r}")
    if arrays == "auto":
        linalg = sys.modules.get("scipy.sparse.linalg")  # imported if op can be one of its
        scipy_operator = linalg is not None and isinstance(op, linalg.LinearOperator)
        return scipy_operator or _cupy_or_none() is None
    if arrays == "cupy" and _cupy_or_none() is None:
        raise TypeError("operator_arrays='cupy' needs CuPy: pip install cupy-cuda13x")
    return arrays == "numpy"


def _check_shape_and_dtype(op: Any, name: str, n: int | None) -> int:
    shape = tuple(int(s) for s in op.shape)
    if len(shape) != 2 or shape[0] != shape[1]:
        raise ValueError(f"user operator {name} has shape {shape}; it must be square")
    if n is not None and shape[0] != n:
        raise ValueError(f"user operator {name} has shape {shape}, expected ({n}, {n})")
    dtype = getattr(op, "dtype", None)
    if dtype is not None and np.dtype(dtype).kind == "c":
        raise TypeError(f"user operator {name} is complex ({np.dtype(dtype)}); spkrylov solves "
                        "real systems")
    return shape[0]


class OperatorCall:
    """The function PythonOperator (python/src/python_operator.hpp) calls for one operator:
    ``self(x_address, y_address, stream, on_device)`` computes y = op(x) into the solver's y.
    ``error`` keeps the user's exception of a failed call (for ``raise ... from``)."""

    _FLAG_KERNEL = None  # a CuPy kernel setting flag[0] = 1 where y is not finite

    def __init__(self, name: str, apply: Callable, what: str, n: int, host_arrays: bool):
        self.name, self.what, self.n = name, what, n
        self.host_arrays = host_arrays  # read by the C++ side
        self._apply = apply
        self.error: BaseException | None = None
        self._views: dict = {}
        self._streams: dict = {}
        self._flag = None  # device: int32 [1], set by a non-finite y
        self._reset_flag = False  # zero it at the solve's first call (on the solver's stream)
        self.user_s = 0.0  # host time inside the user's code (see timings)

    def __call__(self, x_address: int, y_address: int, stream: int, on_device: bool) -> None:
        try:
            if on_device:
                self._device_apply(x_address, y_address, stream)
            else:
                self._host_apply(x_address, y_address)
        except _OperatorFailure:
            raise
        except BaseException as error:  # KeyboardInterrupt too: raised as itself afterwards
            self.error = error
            hint = ""
            if on_device and "Implicit conversion to a NumPy array" in str(error):
                hint = " (it was given CuPy arrays: pass operator_arrays='numpy' for NumPy code)"
            raise _OperatorFailure(f"{self.what} raised {type(error).__name__}: {error}{hint}") \
                from error

    # --- host vectors (NumPy) ---
    def _host_view(self, address: int, writable: bool) -> np.ndarray:
        key = (address, writable)
        view = self._views.get(key)
        if view is None:
            if len(self._views) > 64:  # a solver uses a handful of vectors; b and x vary
                self._views.clear()
            view = np.frombuffer((ctypes.c_double * self.n).from_address(address), np.float64)
            view.flags.writeable = writable
            self._views[key] = view
        return view

    def _host_apply(self, x_address: int, y_address: int) -> None:
        x, y = self._host_view(x_address, False), self._host_view(y_address, True)
        if x[0] == 0.0 and not x.any():  # op(0) = 0 (a solve from x0 = 0): no call, as SciPy
            y.fill(0.0)
            return
        start = time.perf_counter()
        result = self._apply(x)
        self.user_s += time.perf_counter() - start
        if _module_of(result).startswith("cupy"):
            raise _OperatorFailure(f"{self.what} returned a CuPy array to a NumPy operator "
                                   "(operator_arrays='numpy' or a SciPy LinearOperator)")
        y[...] = self._checked(np.asarray(result) if result is not None else None)
        # The sum is finite unless an entry is NaN or Inf (or it overflows: then the exact test).
        # Not np.dot: a threaded BLAS would contend with the solver's OpenMP threads.
        if not np.isfinite(float(y.sum())):
            bad = np.flatnonzero(~np.isfinite(y))
            if bad.size:
                raise _OperatorFailure(
                    f"{self.what} returned {bad.size} non-finite entr"
                    f"{'y' if bad.size == 1 else 'ies'} (y[{bad[0]}] = {y[bad[0]]})")

    def _checked(self, result):
        """The product as an (n,) array of a real dtype, or _OperatorFailure saying why not."""
        if result is None:
            raise _OperatorFailure(f"{self.what} returned None, expected an array of shape "
                                   f"({self.n},)")
        shape = tuple(result.shape)
        if shape not in ((self.n,), (self.n, 1)):
            raise _OperatorFailure(f"{self.what} returned shape {shape}, expected ({self.n},)")
        if result.dtype.kind == "c":
            raise _OperatorFailure(f"{self.what} returned complex values ({result.dtype}); "
                                   "spkrylov solves real systems")
        if result.dtype.kind not in "fiub":
            raise _OperatorFailure(f"{self.what} returned values of dtype {result.dtype}")
        return result.reshape(self.n)

    # --- device vectors (CuPy) ---
    def _device_view(self, address: int):
        import cupy
        view = self._views.get(address)
        if view is None:
            if len(self._views) > 64:
                self._views.clear()
            memory = cupy.cuda.UnownedMemory(address, 8 * self.n, self)
            view = cupy.ndarray((self.n,), cupy.float64, cupy.cuda.MemoryPointer(memory, 0))
            self._views[address] = view
        return view

    def _device_apply(self, x_address: int, y_address: int, stream: int) -> None:
        import cupy
        external = self._streams.get(stream)
        if external is None:
            external = self._streams[stream] = cupy.cuda.ExternalStream(stream)
        x, y = self._device_view(x_address), self._device_view(y_address)
        with external:  # the user's kernels, the copy and the check on the solver's stream
            start = time.perf_counter()
            result = self._apply(x)
            self.user_s += time.perf_counter() - start
            if result is not None and not isinstance(result, cupy.ndarray):
                result = cupy.asarray(result)  # NumPy: uploaded; a DLPack/CUDA array: a view
            result = self._checked(result)
            if result.data.ptr != y.data.ptr:
                cupy.copyto(y, result, casting="unsafe")
            if OperatorCall._FLAG_KERNEL is None:
                OperatorCall._FLAG_KERNEL = cupy.ElementwiseKernel(
                    "T y", "raw int32 flag", "if (!isfinite(y)) flag[0] = 1;", "spk_non_finite")
            if self._flag is None:
                self._flag = cupy.zeros(1, dtype=cupy.int32)
            elif self._reset_flag:
                self._flag.fill(0)
            self._reset_flag = False
            OperatorCall._FLAG_KERNEL(y, self._flag)

    def begin_solve(self) -> None:
        self.error = None
        self._reset_flag = True  # ordered with the solve: done on its stream, at the first call

    def check_device_results(self) -> None:
        """After a GPU solve (which ends synchronized): a ValueError if a result of this solve
        was not finite (flagged on the device)."""
        if self._flag is not None and not self._reset_flag and int(self._flag[0]):
            raise ValueError(f"user operator {self.name}: {self.what} returned non-finite values "
                             "(NaN or Inf; flagged on the GPU and found after the solve)")


class _OperatorFailure(RuntimeError):
    """A failed application, its text what the solver reports ("user operator A: " + text)."""


def matrix_call(A: Any, name: str = "A") -> OperatorCall:
    """A matrix (SciPy/CuPy sparse, dense, or a CSR tuple) as an operator: its product in
    SciPy or CuPy, for a system whose M is the user's (the C++ API takes a user M with a user
    A only). Host matrices take NumPy arrays, device matrices CuPy arrays."""
    from . import _csr_arrays
    indptr, indices, data, rows, cols, _ = _csr_arrays(A)
    if isinstance(data, np.ndarray):
        import scipy.sparse as sp
        matrix, host = sp.csr_matrix((data, indices, indptr), shape=(rows, cols)), True
    else:
        import cupyx.scipy.sparse as csp
        matrix, host = csp.csr_matrix((data, indices, indptr), shape=(rows, cols)), False
    return OperatorCall(name, matrix.dot, "the matrix product", rows, host)


def operator_call(A: Any, arrays: str = "auto") -> OperatorCall:
    """A (matvec and shape) as the function the solver calls."""
    n = _check_shape_and_dtype(A, "A", None)
    return OperatorCall("A", A.matvec, "matvec", n, _host_arrays(A, arrays))


def preconditioner_call(M: Any, n: int, arrays: str = "auto") -> OperatorCall:
    """M (matvec, or a callable) as the function the solver calls; z = M r."""
    if callable(getattr(M, "matvec", None)):
        if hasattr(M, "shape"):
            _check_shape_and_dtype(M, "M", n)
        return OperatorCall("M", M.matvec, "matvec", n, _host_arrays(M, arrays))
    name = getattr(M, "__name__", type(M).__name__)
    return OperatorCall("M", M, f"M (the callable {name})", n, _host_arrays(M, arrays))


def solve_with(calls: list[OperatorCall], solve: Callable[[], Any]) -> Any:
    """Runs solve() with the operators' calls: a failure in one of them is raised from the
    user's exception (KeyboardInterrupt and other non-Exceptions as themselves), and a GPU
    result flagged non-finite is raised after the solve."""
    for call in calls:
        call.begin_solve()
    try:
        fields = solve()
    except Exception as failure:
        cause = next((call.error for call in calls if call.error is not None), None)
        for call in calls:
            call.error = None
        if cause is None:
            raise
        if not isinstance(cause, Exception):
            raise cause from None
        raise failure from cause
    for call in calls:
        call.check_device_results()
    return fields


def timings(solver) -> dict[str, dict[str, float]]:
    """Per user operator of a spkrylov.Solver ("A", "M"): completed applications, the host
    seconds they took (C++ side: the GIL, the call, the views, the checks, the copy into y,
    the host staging if any) and the seconds inside the user's own code; ``overhead_s`` is the
    difference: the cost of the callback mechanism. Since the solver was made."""
    result = {}
    for call, (count, seconds) in zip(solver._calls, solver._core.operator_times()):
        result[call.name] = dict(calls=count, seconds=seconds, user_s=call.user_s,
                                 overhead_s=seconds - call.user_s)
    return result
