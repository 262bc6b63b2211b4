// The GPU implementation of Solver<T>: the configured SpMV backend, DeviceSpace (cuBLAS and
// device-resident scalars) and the same method and preconditioner code as the CPU path, all
// on one stream.
#include <limits>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/device.hpp"
#include "core/device_kernels.cuh"
#include "core/event_timer.hpp"
#include "solver/amg/device_amg_build.hpp"
#include "solver/amg/device_level_operator.hpp"
#include "solver/device_context.hpp"
#include "solver/device_factors.hpp"
#include "solver/device_space.cuh"
#include "solver/device_space.hpp"
#include "solver/krylov_driver.hpp"
#include "solver/preconditioner_factory.hpp"
#include "solver/solver_impl.hpp"
#include "spmv/registry.hpp"

namespace spk {

namespace {

template <class T>
std::unique_ptr<KrylovPreconditioner<DeviceSpace<T>>> make_device_preconditioner(
    const SolverOptions& options, DeviceSpace<T>& space, const LinearOperator<T>& matrix,
    const DeviceCsr<T>& csr, const SpmvOptions& spmv) {
  if (options.preconditioner == Preconditioner::none) return nullptr;
  return make_preconditioner(options, space, matrix,
                             SpacePattern{csr.rows, csr.cols, csr.row_offsets, csr.columns},
                             csr.values, device_level_operator_factories(spmv, space.stream()));
}

// Precision mixed (spmv.matrix_values single): the fp64 operator of the true residuals, a
// csr-vector backend with the values as given; null otherwise.
template <class T>
std::unique_ptr<SpmvBackend<T>> make_exact_operator(const DeviceCsr<T>& matrix,
                                                    const SpmvOptions& spmv, cudaStream_t stream) {
  if (spmv.matrix_values != MatrixValues::single) return nullptr;
  SpmvOptions exact;
  exact.format = Format::csr_vector;
  exact.x_cache = XCache::ldg;
  return make_spmv_backend(matrix, exact, stream);
}

template <class T>
class DeviceSolver final : public Solver<T>::Impl {
 public:
  // The matrix's device arrays are read during construction only, on the solver's stream (the
  // constructor synchronizes it before returning).
  DeviceSolver(const DeviceCsr<T>& matrix, const SolverOptions& solver_options,
               const SpmvOptions& spmv, cudaStream_t stream, DeviceCsrMatrix<T>* offered)
      : context_(stream),
        space_(context_),
        backend_(make_spmv_backend(matrix, spmv, context_.stream(), &this->setup.tuning)),
        exact_(make_exact_operator(matrix, spmv, context_.stream())),
        b_(static_cast<std::size_t>(matrix.rows), "right-hand side b"),
        x_(static_cast<std::size_t>(matrix.rows), "solution x"),
        iteration_(space_, *backend_, solver_options,
                   timed_preconditioner<DeviceSpace<T>>(
                       this->setup.preconditioner,
                       [&] {
                         return preconditioner_taking(offered, [&] {
                           return make_device_preconditioner(solver_options, space_, *backend_,
                                                             matrix, spmv);
                         });
                       }),
                   exact_.get()),
        nnz_(static_cast<std::size_t>(matrix.nnz)),
        first_non_finite_(1, "update_values check") {
    const DeviceInfo device = current_device_info();
    this->setup.device_name = device.name + " (sm_" + std::to_string(device.compute_major) +
                              std::to_string(device.compute_minor) + ")";
    this->setup.operator_name = backend_->name();
    this->setup.format_details = backend_->details();
    this->setup.device_bytes = backend_->device_bytes() + (exact_ ? exact_->device_bytes() : 0);
    this->setup.bytes_per_spmv = backend_->bytes_per_spmv();
    this->stream = context_.stream();
    context_.synchronize();
  }

  SolveResult solve(const std::vector<T>& b, std::vector<T>& x,
                    const ProgressCallback& progress) override {
    const std::size_t bytes = b.size() * sizeof(T);
    SPK_CUDA_CHECK(
        cudaMemcpyAsync(b_.data(), b.data(), bytes, cudaMemcpyHostToDevice, context_.stream()));
    SPK_CUDA_CHECK(
        cudaMemcpyAsync(x_.data(), x.data(), bytes, cudaMemcpyHostToDevice, context_.stream()));
    SolveResult result = solve_in_place(b_.data(), x_.data(), progress);
    SPK_CUDA_CHECK(
        cudaMemcpyAsync(x.data(), x_.data(), bytes, cudaMemcpyDeviceToHost, context_.stream()));
    context_.synchronize();
    return result;
  }

  SolveResult solve_in_place(const T* b, T* x, const ProgressCallback& progress) override {
    check_last_update();
    return iteration_.solve(b, x, progress);
  }

  // Asynchronous on the stream: host values are uploaded (the first time into a buffer
  // allocated here), then one scatter into the format and one Jacobi diagonal pass. The
  // device records the first non-finite entry; the next solve reports it.
  void update_values(const T* values, bool on_device) override {
    const T* device_values = values;
    if (!on_device) {
      if (staged_values_.size() != nnz_)
        staged_values_ = DeviceBuffer<T>(nnz_, "update_values upload buffer");
      if (nnz_ > 0)
        SPK_CUDA_CHECK(cudaMemcpyAsync(staged_values_.data(), values, nnz_ * sizeof(T),
                                       cudaMemcpyHostToDevice, context_.stream()));
      device_values = staged_values_.data();
    }
    // 0x7f bytes: a count above any nnz, lowered by the scatter to the first bad entry.
    SPK_CUDA_CHECK(
        cudaMemsetAsync(first_non_finite_.data(), 0x7f, sizeof(index_t), context_.stream()));
    backend_->update_values(device_values, first_non_finite_.data());
    if (exact_) exact_->update_values(device_values, nullptr);
    iteration_.update_preconditioner(device_values);
    iteration_.refresh_preconditioner_info(this->setup.preconditioner);
    update_check_pending_ = true;
  }

  double time_spmv_ms(int repetitions) override {
    const auto n = static_cast<std::int64_t>(x_.size());
    fill_on_stream(n, T(1), x_.data(), context_.stream());  // x = 1 (no host array of its size)
    return time_on_stream(context_.stream(), 3, repetitions,
                          [&] { backend_->apply(x_.data(), b_.data()); })
        .median_ms;
  }

 private:
  // make(), with `offered` (the solver's double upload of the matrix) open to AMG's taking
  // while it runs (DeviceSpace::offer_fine_matrix).
  template <class Make>
  auto preconditioner_taking([[maybe_unused]] DeviceCsrMatrix<T>* offered, Make&& make) {
    if constexpr (std::is_same_v<T, double>) space_.offer_fine_matrix(offered);
    auto preconditioner = make();
    if constexpr (std::is_same_v<T, double>) space_.offer_fine_matrix(nullptr);
    return preconditioner;
  }

  // Throws while the values of the last update_values hold a NaN or Inf (reads one index
  // once per update: the only synchronization an update adds).
  void check_last_update() {
    if (update_check_pending_) {
      first_bad_entry_ = space_.download(first_non_finite_.data(), 1)[0];
      update_check_pending_ = false;
    }
    if (static_cast<std::size_t>(first_bad_entry_) < nnz_)
      throw BadInput("update_values: non-finite value at entry " +
                     std::to_string(first_bad_entry_) + " (0-based)");
  }

  DeviceContext context_;
  DeviceSpace<T> space_;
  std::unique_ptr<SpmvBackend<T>> backend_;
  std::unique_ptr<SpmvBackend<T>> exact_;  // precision mixed: fp64, for the true residuals
  DeviceBuffer<T> b_, x_;
  KrylovIteration<DeviceSpace<T>> iteration_;
  std::size_t nnz_;
  DeviceBuffer<T> staged_values_;  // host values of update_values, uploaded
  DeviceBuffer<index_t> first_non_finite_;
  bool update_check_pending_ = false;
  index_t first_bad_entry_ = std::numeric_limits<index_t>::max();
};

}  // namespace

template <class T>
std::unique_ptr<typename Solver<T>::Impl> make_device_solver(const DeviceCsr<T>& matrix,
                                                             const SolverOptions& options,
                                                             const SpmvOptions& spmv,
                                                             cudaStream_t stream,
                                                             DeviceCsrMatrix<T>* offered) {
  return std::make_unique<DeviceSolver<T>>(matrix, options, spmv, stream, offered);
}

template std::unique_ptr<Solver<float>::Impl> make_device_solver<float>(const DeviceCsr<float>&,
                                                                        const SolverOptions&,
                                                                        const SpmvOptions&,
                                                                        cudaStream_t,
                                                                        DeviceCsrMatrix<float>*);
template std::unique_ptr<Solver<double>::Impl> make_device_solver<double>(const DeviceCsr<double>&,
                                                                          const SolverOptions&,
                                                                          const SpmvOptions&,
                                                                          cudaStream_t,
                                                                          DeviceCsrMatrix<double>*);

}  // namespace spk
