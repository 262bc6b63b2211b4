#pragma once
/// @file
/// spk::UserOperator<T>: a linear map the caller applies with its own code, for a system whose
/// matrix is never stored (a stencil or a finite-element operator applied on the fly) or a
/// preconditioner from the caller's domain or another library. Ginkgo's LinOp and PETSc's
/// shell matrices (MATSHELL, PCSHELL) are the model.
///
/// @code
///   struct Stencil final : spk::UserOperator<double> {
///     void apply(const double* x, double* y, cudaStream_t stream) override {
///       launch_my_stencil(x, y, stream);   // device pointers on a GPU solver
///     }
///   };
///   spk::UserSystem<double> system;
///   system.rows = n;
///   system.matrix = std::make_shared<Stencil>();
///   spk::Solver<double> solver(system, options);   // preconditioner none, jacobi (with
///   solver.solve(b, x);                            // system.diagonal) or system.preconditioner
/// @endcode
///
/// apply(x, y, stream) computes y = Op x for vectors of `rows` entries:
///  - on a GPU solver, x and y are device pointers and the work goes on `stream`, the solver's:
///    anything queued there before returning is ordered with the solve; work on another
///    stream must be joined to it. The solver synchronizes nothing for you;
///  - on the CPU path, host pointers and a null stream.
/// x is read only; y is only written. An exception thrown by apply ends the solve with one
/// spk::BadInput naming the operator ("A" or "M") and the message; the Solver stays usable.
///
/// With user operators, the Solver runs without CUDA graphs (a graph would replay the first
/// capture of the user's code), and has no SpMV format (spmv.format must stay the default,
/// `auto` is refused), no matrix-based preconditioner (chebyshev, ic0, ilu0, amg,
/// block_jacobi: refused), no update_values and no time_spmv_ms (NotSupported). Its true
/// residual check applies the user's A, as a CSR solve applies its matrix.
#include <cuda_runtime.h>

#include <memory>
#include <spkrylov/csr_arrays.hpp>
#include <vector>

namespace spk {

template <class T>
class UserOperator {
 public:
  virtual ~UserOperator() = default;
  /// y = Op x (see the file comment for where x and y live and which stream to use).
  virtual void apply(const T* x, T* y, cudaStream_t stream) = 0;
};

/// A system given by operators. The Solver keeps the shared pointers for its lifetime.
template <class T>
struct UserSystem {
  index_t rows = 0;                                ///< n: A is n x n
  std::shared_ptr<UserOperator<T>> matrix;          ///< A (required)
  std::shared_ptr<UserOperator<T>> preconditioner;  ///< M, z = M r ~ A^-1 r (optional)
  /// diag(A) on the host, n entries: what solver.preconditioner jacobi needs with a user A.
  std::vector<T> diagonal;
};

}  // namespace spk
