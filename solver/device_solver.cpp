// The GPU implementation of Solver<T>: the configured SpMV backend, cuBLAS vector
// operations and device-resident scalars, all on one stream.
#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "solver/device_context.hpp"
#include "solver/device_space.hpp"
#include "solver/jacobi.hpp"
#include "solver/krylov.hpp"
#include "solver/solver_impl.hpp"
#include "spmv/base/device.hpp"
#include "spmv/base/event_timer.hpp"
#include "spmv/registry.hpp"

namespace spk {

namespace {

template <class T>
class DeviceSolver final : public Solver<T>::Impl {
 public:
  DeviceSolver(const CsrMatrix<T>& matrix, const SolverOptions& solver_options,
               const SpmvOptions& spmv, cudaStream_t stream)
      : context_(stream),
        space_(context_),
        backend_(make_spmv_backend(matrix, spmv, context_.stream(), &this->setup.tuning)),
        b_(static_cast<std::size_t>(matrix.rows), "right-hand side b"),
        x_(static_cast<std::size_t>(matrix.rows), "solution x"),
        matrix_(matrix) {
    if (solver_options.preconditioner == Preconditioner::jacobi)
      inverse_diagonal_ = DeviceBuffer<T>(jacobi_inverse_diagonal(matrix), "Jacobi diagonal");
    const DeviceInfo device = current_device_info();
    this->setup.device_name = device.name + " (sm_" + std::to_string(device.compute_major) +
                              std::to_string(device.compute_minor) + ")";
    this->setup.operator_name = backend_->name();
    this->setup.format_details = backend_->details();
    this->setup.device_bytes = backend_->device_bytes();
    this->setup.bytes_per_spmv = backend_->bytes_per_spmv();
    krylov_ = std::make_unique<KrylovSolve<DeviceSpace<T>>>(
        space_, *backend_, inverse_diagonal_.size() ? inverse_diagonal_.data() : nullptr,
        solver_options);
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
    return krylov_->run(b, x, progress);
  }

  void update_values(const std::vector<T>& values) override {
    std::vector<T> inverse_diagonal;
    CsrMatrix<T> updated = matrix_;  // host copy of the pattern, for the value conversion
    updated.values = values;
    if (inverse_diagonal_.size()) inverse_diagonal = jacobi_inverse_diagonal(updated);
    context_.synchronize();  // no kernel of ours still reads the old values
    DeviceBuffer<T> device_values(values, "update_values values");
    DeviceBuffer<index_t> first_non_finite(
        std::vector<index_t>{static_cast<index_t>(values.size())}, "update_values check");
    backend_->update_values(device_values.data(), first_non_finite.data());
    context_.synchronize();  // the scatter has read device_values before they are freed
    if (const index_t bad = first_non_finite.to_host()[0];
        bad < static_cast<index_t>(values.size()))
      throw BadInput("update_values: non-finite value at entry " + std::to_string(bad + 1));
    // In place: the Krylov state holds this pointer.
    if (inverse_diagonal_.size()) inverse_diagonal_.copy_from_host(inverse_diagonal);
    matrix_.values = std::move(updated.values);
  }

  double time_spmv_ms(int repetitions) override {
    std::vector<T> ones(x_.size(), T(1));
    x_.copy_from_host(ones);
    return time_on_stream(context_.stream(), 3, repetitions,
                          [&] { backend_->apply(x_.data(), b_.data()); })
        .median_ms;
  }

 private:
  DeviceContext context_;
  DeviceSpace<T> space_;
  std::unique_ptr<SpmvBackend<T>> backend_;
  DeviceBuffer<T> inverse_diagonal_;
  DeviceBuffer<T> b_, x_;
  CsrMatrix<T> matrix_;
  std::unique_ptr<KrylovSolve<DeviceSpace<T>>> krylov_;
};

}  // namespace

template <class T>
std::unique_ptr<typename Solver<T>::Impl> make_device_solver(const CsrMatrix<T>& matrix,
                                                             const SolverOptions& options,
                                                             const SpmvOptions& spmv,
                                                             cudaStream_t stream) {
  return std::make_unique<DeviceSolver<T>>(matrix, options, spmv, stream);
}

template std::unique_ptr<Solver<float>::Impl> make_device_solver<float>(const CsrMatrix<float>&,
                                                                        const SolverOptions&,
                                                                        const SpmvOptions&,
                                                                        cudaStream_t);
template std::unique_ptr<Solver<double>::Impl> make_device_solver<double>(const CsrMatrix<double>&,
                                                                          const SolverOptions&,
                                                                          const SpmvOptions&,
                                                                          cudaStream_t);

}  // namespace spk
