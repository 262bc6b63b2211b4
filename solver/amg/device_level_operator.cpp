#include "solver/amg/device_level_operator.hpp"

#include <memory>
#include <type_traits>
#include <utility>

#include "core/cuda_check.hpp"
#include "core/device_buffer.hpp"
#include "spmv/device/device_csr.hpp"
#include "spmv/registry.hpp"

namespace spk {

namespace {

// The matrix's values as T on the device: its own array for double, `converted` for float.
template <class T>
const T* values_as(const DeviceCsrMatrix<double>& matrix, DeviceBuffer<T>& converted,
                   cudaStream_t stream) {
  if constexpr (std::is_same_v<T, double>) {
    return matrix.values.data();
  } else {
    if (converted.size() != matrix.values.size())
      converted = DeviceBuffer<T>(matrix.values.size(), "AMG level values (single precision)");
    scale_on_device(matrix.values.size(), 1.0, matrix.values.data(), converted.data(), stream);
    return converted.data();
  }
}

template <class T>
class DeviceLevelOperator final : public LevelOperator<T, DeviceCsrMatrix<double>> {
 public:
  DeviceLevelOperator(const DeviceCsrMatrix<double>& matrix, const SpmvOptions& options,
                      cudaStream_t stream)
      : stream_(stream) {
    const T* values = values_as(matrix, converted_, stream_);
    backend_ =
        make_spmv_backend(describe_device_csr(matrix.rows, matrix.cols, matrix.row_offsets.data(),
                                              matrix.columns.data(), values, stream_),
                          options, stream_);
  }

  void apply_scaled(T alpha, const T* x, T beta, T* y) const override {
    backend_->apply_scaled(alpha, x, beta, y);  // y = alpha A x + beta y
  }
  index_t rows() const override { return backend_->rows(); }
  index_t cols() const override { return backend_->cols(); }
  std::string name() const override { return backend_->name(); }

  void update_values(const DeviceCsrMatrix<double>& matrix) override {
    if (matrix.nnz() == 0) return;
    backend_->update_values(values_as(matrix, converted_, stream_), nullptr);  // scatter
  }

 private:
  cudaStream_t stream_;
  DeviceBuffer<T> converted_;  // float: the values converted from double
  std::unique_ptr<SpmvBackend<T>> backend_;
};

}  // namespace

template <class T>
LevelOperatorFactory<T, DeviceCsrMatrix<double>> device_level_operators(const SpmvOptions& spmv,
                                                                        cudaStream_t stream) {
  LevelOperatorFactory<T, DeviceCsrMatrix<double>> factory;
  factory.default_format = spmv.format;
  factory.make = [spmv, stream](const DeviceCsrMatrix<double>& matrix, Format format) {
    SpmvOptions options = spmv;
    options.format = format;
    return std::unique_ptr<LevelOperator<T, DeviceCsrMatrix<double>>>(
        std::make_unique<DeviceLevelOperator<T>>(matrix, options, stream));
  };
  return factory;
}

template LevelOperatorFactory<float, DeviceCsrMatrix<double>> device_level_operators<float>(
    const SpmvOptions&, cudaStream_t);
template LevelOperatorFactory<double, DeviceCsrMatrix<double>> device_level_operators<double>(
    const SpmvOptions&, cudaStream_t);

}  // namespace spk
