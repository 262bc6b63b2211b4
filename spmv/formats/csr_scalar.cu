#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "spmv/base/cuda_check.hpp"
#include "spmv/formats/block_size.hpp"
#include "spmv/formats/csr_launch_policy.hpp"
#include "spmv/formats/csr_scalar.hpp"
#include "spmv/formats/device_csr.hpp"
#include "spmv/formats/empty_product.hpp"
#include "spmv/formats/kernel_launch.cuh"
#include "spmv/formats/output_scale.cuh"
#include "spmv/formats/x_access.cuh"

namespace spk {

namespace {

const std::string kFormat = "csr-scalar";

template <class T, class Reader>
__global__ void __launch_bounds__(max_block_size)
    csr_scalar_kernel(index_t rows, const index_t* __restrict__ row_offsets,
                      const index_t* __restrict__ columns, const T* __restrict__ values, Reader x,
                      OutputScale<T> scale, T* __restrict__ y) {
  const std::int64_t stride = grid_row_stride(1);
  for (std::int64_t row = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
       row < rows; row += stride) {
    const index_t end = row_offsets[row + 1];
    T sum = T(0);
    for (index_t k = row_offsets[row]; k < end; ++k) sum += values[k] * x.load(columns[k]);
    scale.store(y + row, sum);
  }
}

template <class T>
class CsrScalarBackend final : public SpmvBackend<T> {
 public:
  CsrScalarBackend(const CsrMatrix<T>& matrix, const SpmvOptions& options, cudaStream_t stream)
      : SpmvBackend<T>(stream),
        launch_(options, static_cast<std::size_t>(matrix.cols), kFormat),
        matrix_(matrix, kFormat) {}

  void apply_scaled(T alpha, const T* x, T beta, T* y) const override {
    const index_t rows = matrix_.rows();
    if (rows == 0) return;
    if (matrix_.nnz() == 0) {  // y = beta y; x (possibly empty) is never read
      write_empty_product(y, rows, beta, this->stream());
      return;
    }
    const unsigned int blocks = launch_.blocks(rows);
    with_x_reader(launch_.x_cache(), x, static_cast<std::size_t>(matrix_.cols()), textures_,
                  launch_.texture_limits(), [&](auto reader) {
                    csr_scalar_kernel<T><<<blocks, launch_.block_size(), 0, this->stream()>>>(
                        rows, matrix_.row_offsets(), matrix_.columns(), matrix_.values(), reader,
                        OutputScale<T>{alpha, beta}, y);
                    SPK_CHECK_LAUNCH("csr_scalar_kernel");
                  });
  }

  index_t rows() const override { return matrix_.rows(); }
  index_t cols() const override { return matrix_.cols(); }
  std::string name() const override { return kFormat + "/" + to_string(launch_.x_cache()); }
  std::size_t device_bytes() const override { return matrix_.device_bytes(); }
  std::size_t bytes_per_spmv() const override { return matrix_.bytes_per_spmv(); }
  std::vector<std::pair<std::string, std::string>> details() const override {
    std::vector<std::pair<std::string, std::string>> details{{"threads_per_row", "1"}};
    for (auto& detail : launch_.details()) details.push_back(detail);
    return details;
  }
  void set_launch(const SpmvOptions& options) override { launch_.set(options); }
  void update_values(const CsrMatrix<T>& matrix) override {
    matrix_.update_values(matrix, this->stream(), kFormat);
  }

 private:
  KernelLaunch launch_;
  DeviceCsr<T> matrix_;
  mutable XTextureCache<T> textures_;
};

}  // namespace

template <class T>
std::unique_ptr<SpmvBackend<T>> make_csr_scalar(const CsrMatrix<T>& matrix,
                                                const SpmvOptions& options, cudaStream_t stream) {
  return std::make_unique<CsrScalarBackend<T>>(matrix, options, stream);
}

template std::unique_ptr<SpmvBackend<float>> make_csr_scalar(const CsrMatrix<float>&,
                                                             const SpmvOptions&, cudaStream_t);
template std::unique_ptr<SpmvBackend<double>> make_csr_scalar(const CsrMatrix<double>&,
                                                              const SpmvOptions&, cudaStream_t);

}  // namespace spk
