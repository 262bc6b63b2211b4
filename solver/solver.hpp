#pragma once
// Solver<T>: a linear system set up once (format conversion, device upload, handles,
// workspace, Jacobi diagonal) and solved many times.
//
//   spk::CsrMatrix<double> A = ...;
//   spk::Solver<double> solver(A, solver_options, spmv_options, spk::ExecutionSpace::gpu);
//   std::vector<double> x(A.rows, 0.0);
//   spk::SolveResult result = solver.solve(b, x);   // x: initial guess in, solution out
//   if (!result.converged()) std::cerr << result.message << "\n";
//
// The same class runs the CPU reference path (ExecutionSpace::cpu) with the same
// algorithm code. A non-converged solve is a status in SolveResult, not an exception;
// bad input throws spk::BadInput.
#include <cuda_runtime.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "solver/progress.hpp"
#include "solver/solve_result.hpp"
#include "solver/solver_options.hpp"
#include "spmv/host/csr_matrix.hpp"
#include "spmv/spmv_options.hpp"

namespace spk {

enum class ExecutionSpace { cpu, gpu };
const char* to_string(ExecutionSpace space);

struct SetupInfo {
  ExecutionSpace space = ExecutionSpace::cpu;
  std::string device_name;      // GPU name, or "CPU (N threads)"
  std::string operator_name;    // e.g. "ellpack-r/texture" or "cpu-csr"
  std::vector<std::pair<std::string, std::string>> format_details;
  std::size_t device_bytes = 0;    // matrix storage on the device
  std::size_t bytes_per_spmv = 0;  // minimal DRAM traffic of one SpMV
  double setup_s = 0.0;            // conversion + upload + handles + preconditioner
};

template <class T>
class Solver {
 public:
  // stream: GPU only; nullptr creates an owned non-blocking stream.
  Solver(const CsrMatrix<T>& matrix, const SolverOptions& solver_options,
         const SpmvOptions& spmv_options, ExecutionSpace space, cudaStream_t stream = nullptr);
  ~Solver();
  Solver(Solver&&) noexcept;
  Solver& operator=(Solver&&) noexcept;

  // Host vectors. x is the initial guess and receives the solution.
  SolveResult solve(const std::vector<T>& b, std::vector<T>& x,
                    const ProgressCallback& progress = {});
  // Vectors already in the solver's memory space (device pointers for gpu).
  SolveResult solve_in_place(const T* b, T* x, const ProgressCallback& progress = {});

  // Median time of one SpMV alone, in ms (GPU: CUDA events; CPU: host clock).
  double time_spmv_ms(int repetitions);
  const SetupInfo& setup_info() const;
  const SolverOptions& options() const;
  index_t rows() const;

  class Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace spk
