#pragma once
/// @file
/// spk::Solver<T>: a sparse linear system A x = b set up once (format conversion, device
/// upload, cuBLAS/cuSPARSE handles, workspace, Jacobi diagonal) and solved many times with
/// CG or BiCGSTAB, on the GPU or on the CPU reference path (same algorithm code).
///
/// @code
///   #include <spkrylov/spkrylov.hpp>
///   spk::CsrArrays<double> a{n, n, row_offsets.data(), columns.data(), values.data()};
///   spk::Options options;                       // the YAML keys: solver.*, spmv.*, device
///   options.solver.method = spk::Method::cg;
///   options.solver.preconditioner = spk::Preconditioner::jacobi;
///   spk::Solver<double> solver(a, options);     // Device::automatic -> GPU if usable
///   std::vector<double> x(n, 0.0);              // initial guess in, solution out
///   spk::SolveResult result = solver.solve(b, x);
///   if (!result.converged()) std::cerr << result.message << "\n";
///   solver.update_values(new_values.data());    // same pattern, new coefficients
/// @endcode
///
/// Errors: bad input throws spk::BadInput, an unsupported request spk::NotSupported, a CUDA
/// failure spk::CudaError (spk::OutOfDeviceMemory with the bytes asked for and free), a
/// missing GPU with Device::gpu spk::NoDevice; all derive from spk::Error
/// (<spkrylov/errors.hpp>). A solve that does not converge is NOT an exception: it is a
/// SolveResult status (breakdown, diverged, stagnated, ...) with a one-line message.
///
/// Streams and threads: a GPU Solver runs all its work on one CUDA stream, the caller's (the
/// `stream` argument) or its own non-blocking one. It synchronizes only that stream (at
/// convergence checks and at the end of a solve), never the device, and allocates nothing
/// per solve, so it can sit inside a caller's time loop next to other GPU work. One Solver
/// must not be used by two threads at once; distinct Solvers may run on distinct threads.
#include <cuda_runtime.h>

#include <memory>
#include <spkrylov/csr_arrays.hpp>
#include <spkrylov/options.hpp>
#include <spkrylov/result.hpp>
#include <spkrylov/setup_info.hpp>
#include <spkrylov/user_operator.hpp>
#include <string>
#include <utility>
#include <vector>

namespace spk {

template <class T>
class Solver {
 public:
  /// From arrays the caller owns (host or device pointers, see CsrArrays); the Solver
  /// copies what it needs. `stream`: GPU only; nullptr creates an owned non-blocking stream.
  Solver(const CsrArrays<T>& matrix, const Options& options, cudaStream_t stream = nullptr);
  /// From operators the caller applies (spkrylov/user_operator.hpp: a matrix-free A, a user
  /// M, or Jacobi from a diagonal); `stream` as above, and the operators are given it.
  Solver(const UserSystem<T>& system, const Options& options, cudaStream_t stream = nullptr);
  ~Solver();
  Solver(Solver&&) noexcept;
  Solver& operator=(Solver&&) noexcept;

  /// Solves with host vectors: x is the initial guess and receives the solution.
  SolveResult solve(const std::vector<T>& b, std::vector<T>& x,
                    const ProgressCallback& progress = {});
  /// Solves with raw pointers of rows() entries, both on the host or (GPU solver) both on
  /// the device; the location is detected. Device vectors are used in place, no copies.
  SolveResult solve(const T* b, T* x, const ProgressCallback& progress = {});
  /// Vectors already in the solver's memory space (device pointers for a GPU solver).
  SolveResult solve_in_place(const T* b, T* x, const ProgressCallback& progress = {});

  /// New coefficients for the same sparsity pattern: nnz values in the order of the
  /// original CSR arrays (host or device pointer, detected). Only the values are scattered
  /// into the storage format and the preconditioner; the format choice, workspace and
  /// handles are kept.
  ///  - CPU solver: checked before anything changes; a non-finite value or a zero Jacobi
  ///    pivot throws BadInput (BadDiagonal, with the 0-based row) and keeps the old system.
  ///  - GPU solver: asynchronous on the solver's stream, no host copy of the matrix, no
  ///    allocation (host values: one upload into a buffer allocated at the first such
  ///    call). The device checks the values; the next solve throws BadInput naming the first
  ///    non-finite entry or bad pivot, and keeps refusing until usable values arrive.
  void update_values(const T* values);
  void update_values(const std::vector<T>& values);

  /// Median time of one SpMV alone, in ms (GPU: CUDA events; CPU: host clock).
  double time_spmv_ms(int repetitions);
  const SetupInfo& setup_info() const;
  const SolverOptions& options() const;
  index_t rows() const;
  std::size_t nnz() const;
  Device device() const;  ///< gpu or cpu
  /// The stream the solver works on (a user system's operators are given it); nullptr on the
  /// CPU path.
  cudaStream_t stream() const;

  class Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace spk
