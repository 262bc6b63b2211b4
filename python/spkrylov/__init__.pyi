"""Type stubs of the spkrylov package (see __init__.py for the documentation)."""
from typing import Any, Callable

import numpy as np

class NoDeviceError(RuntimeError): ...

def config_keys() -> dict[str, list[str]]: ...
def libraries() -> dict[str, str]: ...

class SolveResult:
    status: str
    breakdown: str
    message: str
    iterations: int
    iterations_executed: int
    residual_replacements: int
    breakdown_restarts: int
    second_passes: int
    threshold: float
    b_norm: float
    initial_residual: float
    recursive_residual: float
    true_residual: float
    relative_true_residual: float
    solve_s: float
    history: np.ndarray
    history_elapsed_s: np.ndarray
    notes: list[str]
    @property
    def converged(self) -> bool: ...

class Preconditioner:
    KINDS: tuple[str, ...]
    kind: str
    options: dict[str, Any]
    def __init__(self, kind: str, **options: Any) -> None: ...

class Solver:
    n: int
    def __init__(self, A: Any, *, method: str = ..., preconditioner: Any = ...,
                 format: str = ..., rtol: float | None = ..., atol: float | None = ...,
                 device: str = ..., diagonal: Any = ..., operator_arrays: str = ...,
                 **keys: Any) -> None: ...
    @property
    def setup_info(self) -> dict[str, Any]: ...
    @property
    def config(self) -> str: ...
    def solve(self, b: Any, x0: Any = ..., callback: Callable[[Any], Any] | None = ..., *,
              progress: Callable[[int, float], Any] | None = ...) -> tuple[Any, SolveResult]: ...
    def update_values(self, data: Any) -> None: ...

def cg(A: Any, b: Any, x0: Any = ..., *, rtol: float = ..., atol: float = ...,
       maxiter: int | None = ..., M: Any = ...,
       callback: Callable[..., Any] | None = ..., **keys: Any) -> tuple[Any, int]: ...
def bicgstab(A: Any, b: Any, x0: Any = ..., *, rtol: float = ..., atol: float = ...,
             maxiter: int | None = ..., M: Any = ...,
             callback: Callable[..., Any] | None = ..., **keys: Any) -> tuple[Any, int]: ...
def gmres(A: Any, b: Any, x0: Any = ..., *, rtol: float = ..., atol: float = ...,
          restart: int | None = ..., maxiter: int | None = ..., M: Any = ...,
          callback: Callable[..., Any] | None = ..., callback_type: str | None = ...,
          **keys: Any) -> tuple[Any, int]: ...
def solve_config(config: str | None = ..., *, quiet: bool = ..., **overrides: Any) -> dict[str, Any]: ...
class MatrixInfo(dict[str, Any]):
    text: str

def info(A: Any) -> MatrixInfo: ...
class Comparison(list[dict[str, Any]]):
    def dataframe(self) -> Any: ...

def compare(A: Any, b: Any, formats: list[str], **keys: Any) -> Comparison: ...
