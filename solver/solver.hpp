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
///   spk::Solver<double> solver(a, options);     // device: auto -> GPU if usable
///   std::vector<double> x(n, 0.0);              // initial guess in, solution out
///   spk::SolveResult result = solver.solve(b, x);
///   if (!result.converged()) std::cerr << result.message << "\n";
///   solver.update_values(new_values.data());    // same pattern, new coefficients
/// @endcode
///
/// Errors: bad input throws spk::BadInput, an unsupported request spk::NotSupported, a CUDA
/// failure spk::CudaError (spk::OutOfDeviceMemory with the bytes asked for and free), a
/// missing GPU with DeviceChoice::gpu spk::NoDevice; all derive from spk::Error
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
#include <string>
#include <utility>
#include <vector>

#include "spkrylov/result.hpp"
#include "spkrylov/result.hpp"
#include "solver/solver_options.hpp"
#include "spmv/host/csr_matrix.hpp"
#include "spmv/tuning/tuning_report.hpp"
#include "spmv/spmv_options.hpp"

namespace spk {

/// Where a solver runs.
enum class ExecutionSpace { cpu, gpu };
const char* to_string(ExecutionSpace space);

/// DeviceChoice::automatic -> gpu when a usable GPU exists, else cpu. DeviceChoice::gpu
/// throws spk::NoDevice (with the reason) when there is none.
ExecutionSpace resolve_device(DeviceChoice choice);

/// The library's options: one field per YAML key, `solver.*` -> solver, `spmv.*` -> spmv,
/// `device` -> device (README "Config reference"). `precision` is the template parameter.
struct Options {
  SolverOptions solver;
  SpmvOptions spmv;
  DeviceChoice device = DeviceChoice::automatic;
};

/// What setup built, for reports.
struct SetupInfo {
  ExecutionSpace space = ExecutionSpace::cpu;
  std::string device_name;    ///< GPU name, or "CPU (N threads)"
  std::string operator_name;  ///< e.g. "ellpack-r/texture" or "cpu-csr"
  std::vector<std::pair<std::string, std::string>> format_details;
  std::size_t device_bytes = 0;    ///< matrix storage on the device
  std::size_t bytes_per_spmv = 0;  ///< minimal DRAM traffic of one SpMV
  double setup_s = 0.0;            ///< conversion + upload + handles + preconditioner
  TuningReport tuning;             ///< spmv.format auto: candidates, times, choice, cache
};

template <class T>
class Solver {
 public:
  /// From arrays the caller owns (host or device). `stream`: GPU only; nullptr creates an
  /// owned non-blocking stream.
  Solver(const CsrArrays<T>& matrix, const Options& options, cudaStream_t stream = nullptr);
  /// From a host CsrMatrix.
  Solver(const CsrMatrix<T>& matrix, const Options& options, cudaStream_t stream = nullptr);
  /// From a host CsrMatrix with an explicit execution space.
  Solver(const CsrMatrix<T>& matrix, const SolverOptions& solver_options,
         const SpmvOptions& spmv_options, ExecutionSpace space, cudaStream_t stream = nullptr);
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
  /// original CSR arrays (host or device pointer, detected). Only the values are converted
  /// into the storage format; the format choice, workspace and handles are kept. A zero or
  /// non-finite diagonal with Jacobi throws BadInput naming the row.
  void update_values(const T* values);
  void update_values(const std::vector<T>& values);

  /// Median time of one SpMV alone, in ms (GPU: CUDA events; CPU: host clock).
  double time_spmv_ms(int repetitions);
  const SetupInfo& setup_info() const;
  const SolverOptions& options() const;
  index_t rows() const;
  std::size_t nnz() const;
  ExecutionSpace space() const;

  class Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace spk
