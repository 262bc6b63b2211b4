#include "solver/amg/device_level_operator.hpp"

#include <memory>
#include <utility>

#include "spmv/base/cuda_check.hpp"
#include "spmv/base/device_buffer.hpp"
#include "spmv/registry.hpp"

namespace spk {

namespace {

template <class T>
class DeviceLevelOperator final : public LevelOperator<T> {
 public:
  DeviceLevelOperator(std::unique_ptr<SpmvBackend<T>> backend, cudaStream_t stream)
      : backend_(std::move(backend)), stream_(stream) {}

  void apply_scaled(T alpha, const T* x, T beta, T* y) const override {
    backend_->apply_scaled(alpha, x, beta, y);  // y = alpha A x + beta y
  }
  index_t rows() const override { return backend_->rows(); }
  index_t cols() const override { return backend_->cols(); }
  std::string name() const override { return backend_->name(); }

  void update_values(const std::vector<T>& values) override {
    if (values.empty()) return;
    if (staged_.size() != values.size())
      staged_ = DeviceBuffer<T>(values.size(), "AMG level values (update_values)");
    SPK_CUDA_CHECK(cudaMemcpyAsync(staged_.data(), values.data(), values.size() * sizeof(T),
                                   cudaMemcpyHostToDevice, stream_));
    backend_->update_values(staged_.data(), nullptr);  // scatter into the format
    SPK_CUDA_CHECK(cudaStreamSynchronize(stream_));    // `values` may go away
  }

 private:
  std::unique_ptr<SpmvBackend<T>> backend_;
  cudaStream_t stream_;
  DeviceBuffer<T> staged_;
};

}  // namespace

template <class T>
LevelOperatorFactory<T> device_level_operators(const SpmvOptions& spmv, cudaStream_t stream) {
  LevelOperatorFactory<T> factory;
  factory.default_format = spmv.format;
  factory.make = [spmv, stream](const CsrMatrix<T>& matrix, Format format) {
    SpmvOptions options = spmv;
    options.format = format;
    return std::unique_ptr<LevelOperator<T>>(std::make_unique<DeviceLevelOperator<T>>(
        make_spmv_backend(matrix, options, stream), stream));
  };
  return factory;
}

template LevelOperatorFactory<float> device_level_operators<float>(const SpmvOptions&,
                                                                   cudaStream_t);
template LevelOperatorFactory<double> device_level_operators<double>(const SpmvOptions&,
                                                                     cudaStream_t);

}  // namespace spk
