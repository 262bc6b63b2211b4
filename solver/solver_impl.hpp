#pragma once
// The two implementations behind Solver<T>: CPU reference and GPU. Internal header.
#include <memory>

#include "spkrylov/solver.hpp"
#include "spkrylov/user_operator.hpp"
#include "spmv/device/device_csr.hpp"
#include "spmv/host/csr_matrix.hpp"

namespace spk {

template <class T>
class Solver<T>::Impl {
 public:
  virtual ~Impl() = default;
  virtual SolveResult solve(const std::vector<T>& b, std::vector<T>& x,
                            const ProgressCallback& progress) = 0;
  virtual SolveResult solve_in_place(const T* b, T* x, const ProgressCallback& progress) = 0;
  // values: nnz values in the original CSR order, on the host or (on_device) the device.
  virtual void update_values(const T* values, bool on_device) = 0;
  virtual double time_spmv_ms(int repetitions) = 0;

  SetupInfo setup;
  SolverOptions options;
  cudaStream_t stream = nullptr;  // a user system's: what its operators are given
  index_t rows = 0;
  std::size_t nnz = 0;
};

// values: spmv.matrix_values (single: fp32 values under an fp64 solver, the only SpMV key the
// CPU path reads).
template <class T>
std::unique_ptr<typename Solver<T>::Impl> make_host_solver(const CsrMatrix<T>& matrix,
                                                           const SolverOptions& options,
                                                           MatrixValues values);
// From the device CSR arrays (read on the solver's stream during construction only).
// offered: the solver's own upload of those arrays (double), which AMG may take for its A_0
// (DeviceSpace::offer_fine_matrix); null when the arrays are the caller's.
template <class T>
std::unique_ptr<typename Solver<T>::Impl> make_device_solver(const DeviceCsr<T>& matrix,
                                                             const SolverOptions& options,
                                                             const SpmvOptions& spmv,
                                                             cudaStream_t stream,
                                                             DeviceCsrMatrix<T>* offered = nullptr);

// A system given by user operators (solver/user_system_solver.hpp), checked by the caller
// (check_user_system).
template <class T>
std::unique_ptr<typename Solver<T>::Impl> make_user_host_solver(const UserSystem<T>& system,
                                                                const SolverOptions& options);
template <class T>
std::unique_ptr<typename Solver<T>::Impl> make_user_device_solver(const UserSystem<T>& system,
                                                                  const SolverOptions& options,
                                                                  cudaStream_t stream);

}  // namespace spk
