#include "spkrylov/solver.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <string>

#include "core/device.hpp"
#include "core/nvtx_range.hpp"
#include "core/setup_memory_watch.hpp"
#include "solver/csr_input.hpp"
#include "solver/pointer_location.hpp"
#include "solver/solver_impl.hpp"
#include "solver/user_system_check.hpp"
#include "spkrylov/errors.hpp"
#include "spmv/device/device_csr.hpp"

namespace spk {

Device resolve_device(Device device) {
  switch (device) {
    case Device::cpu: return Device::cpu;
    case Device::gpu:
      (void)current_device_info();  // throws NoDevice with the reason
      return Device::gpu;
    case Device::automatic: return device_available() ? Device::gpu : Device::cpu;
  }
  return Device::cpu;
}

template <class T>
Solver<T>::Solver(const CsrArrays<T>& arrays, const Options& options, cudaStream_t stream) {
  const NvtxRange profiler_range("spk setup");
  validate_spmv_options(options.spmv);  // the same checks on every path, CPU included
  const Device device = resolve_device(options.device);
  std::chrono::steady_clock::time_point start;
  std::size_t nnz = 0;
  std::optional<SetupMemoryWatch> memory;  // GPU: the setup's device memory
  if (device == Device::gpu) memory.emplace();
  if (device == Device::gpu && arrays.on_device) {
    // Device arrays on the GPU: checked and built on the device, no host round trip (only
    // spmv.format auto downloads the pattern, for its cache key: spmv/tuning/auto_backend.hpp).
    const DeviceCsr<T> matrix = checked_device_csr(arrays, options.solver, stream);
    start = std::chrono::steady_clock::now();
    nnz = static_cast<std::size_t>(matrix.nnz);
    impl_ = make_device_solver<T>(matrix, options.solver, options.spmv, stream);
  } else {
    // Host arrays, or the CPU path (device arrays downloaded): checked on the host; the GPU
    // path uploads the matrix once and builds the format on the device from it.
    const CsrMatrix<T> matrix = host_matrix_from_arrays(arrays, options.solver);
    start = std::chrono::steady_clock::now();
    nnz = matrix.values.size();
    if (device == Device::gpu) {
      DeviceCsrMatrix<T> uploaded = to_device(matrix, "matrix");  // AMG's A_0 may take it
      impl_ = make_device_solver<T>(describe_device_csr(uploaded, stream), options.solver,
                                    options.spmv, stream, &uploaded);
    } else {
      impl_ = make_host_solver<T>(matrix, options.solver, options.spmv.matrix_values);
    }
  }
  impl_->options = options.solver;
  impl_->rows = arrays.rows;
  impl_->nnz = nnz;
  impl_->setup.device = device;
  impl_->setup.setup_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (memory) impl_->setup.memory = memory->finish();
}

template <class T>
Solver<T>::Solver(const UserSystem<T>& system, const Options& options, cudaStream_t stream) {
  const NvtxRange profiler_range("spk setup");
  validate_spmv_options(options.spmv);
  validate_solver_options(options.solver);
  check_user_system(system, options.solver, options.spmv);
  const Device device = resolve_device(options.device);
  const auto start = std::chrono::steady_clock::now();
  impl_ = device == Device::gpu ? make_user_device_solver<T>(system, options.solver, stream)
                                : make_user_host_solver<T>(system, options.solver);
  impl_->options = options.solver;
  impl_->rows = system.rows;
  impl_->setup.device = device;
  impl_->setup.setup_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

template <class T>
Solver<T>::~Solver() = default;
template <class T>
Solver<T>::Solver(Solver&&) noexcept = default;
template <class T>
Solver<T>& Solver<T>::operator=(Solver&&) noexcept = default;

template <class T>
SolveResult Solver<T>::solve(const std::vector<T>& b, std::vector<T>& x,
                             const ProgressCallback& progress) {
  const std::size_t n = static_cast<std::size_t>(impl_->rows);
  if (b.size() != n)
    throw BadInput("right-hand side has " + std::to_string(b.size()) + " entries, the matrix " +
                   std::to_string(n) + " rows");
  if (x.size() != n)
    throw BadInput("initial guess has " + std::to_string(x.size()) + " entries, the matrix " +
                   std::to_string(n) + " rows");
  for (std::size_t i = 0; i < n; ++i) {
    if (!std::isfinite(b[i]))
      throw BadInput("right-hand side has a non-finite value at row " + std::to_string(i) +
                     " (0-based)");
    if (!std::isfinite(x[i]))
      throw BadInput("initial guess has a non-finite value at row " + std::to_string(i) +
                     " (0-based)");
  }
  return impl_->solve(b, x, progress);
}

template <class T>
SolveResult Solver<T>::solve(const T* b, T* x, const ProgressCallback& progress) {
  const bool b_on_device = is_device_pointer(b), x_on_device = is_device_pointer(x);
  if (b == nullptr || x == nullptr) throw BadInput("solve: b or x is a null pointer");
  if (b_on_device != x_on_device)
    throw BadInput("solve: b and x must both be host or both be device pointers");
  if (b_on_device) {
    if (impl_->setup.device != Device::gpu)
      throw BadInput("solve: device pointers given to a CPU solver");
    return impl_->solve_in_place(b, x, progress);
  }
  const std::size_t n = static_cast<std::size_t>(impl_->rows);
  const std::vector<T> b_host(b, b + n);
  std::vector<T> x_host(x, x + n);
  SolveResult result = solve(b_host, x_host, progress);
  std::copy(x_host.begin(), x_host.end(), x);
  return result;
}

template <class T>
SolveResult Solver<T>::solve_in_place(const T* b, T* x, const ProgressCallback& progress) {
  return impl_->solve_in_place(b, x, progress);
}

template <class T>
void Solver<T>::update_values(const std::vector<T>& values) {
  if (values.size() != impl_->nnz)
    throw BadInput("update_values: " + std::to_string(values.size()) +
                   " values given, the pattern has " + std::to_string(impl_->nnz) + " entries");
  impl_->update_values(values.data(), false);
}

template <class T>
void Solver<T>::update_values(const T* values) {
  if (values == nullptr && impl_->nnz > 0) throw BadInput("update_values: null pointer");
  const bool on_device = is_device_pointer(values);
  if (on_device && impl_->setup.device != Device::gpu) {
    impl_->update_values(copy_to_host(values, impl_->nnz, true, "values").data(), false);
    return;
  }
  impl_->update_values(values, on_device);
}

template <class T>
double Solver<T>::time_spmv_ms(int repetitions) {
  return impl_->time_spmv_ms(repetitions);
}
template <class T>
const SetupInfo& Solver<T>::setup_info() const {
  return impl_->setup;
}
template <class T>
const SolverOptions& Solver<T>::options() const {
  return impl_->options;
}
template <class T>
index_t Solver<T>::rows() const {
  return impl_->rows;
}
template <class T>
std::size_t Solver<T>::nnz() const {
  return impl_->nnz;
}
template <class T>
Device Solver<T>::device() const {
  return impl_->setup.device;
}

template <class T>
cudaStream_t Solver<T>::stream() const {
  return impl_->stream;
}

template class Solver<float>;
template class Solver<double>;

}  // namespace spk
