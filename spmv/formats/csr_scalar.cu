#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "spmv/base/cuda_check.hpp"
#include "spmv/formats/block_size.hpp"
#include "spmv/formats/csr_launch_policy.hpp"
#include "spmv/formats/csr_scalar.hpp"
#include "spmv/formats/device_csr.hpp"
#include "spmv/formats/x_access.cuh"

namespace spk {

namespace {

const std::string kFormat = "csr-scalar";

template <class T, class Reader>
__global__ void __launch_bounds__(max_block_size)
    csr_scalar_kernel(index_t rows, const index_t* __restrict__ row_offsets,
                      const index_t* __restrict__ columns, const T* __restrict__ values, Reader x,
                      T* __restrict__ y) {
  const std::int64_t row = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  const index_t end = row_offsets[row + 1];
  T sum = T(0);
  for (index_t k = row_offsets[row]; k < end; ++k) sum += values[k] * x.load(columns[k]);
  y[row] = sum;
}

template <class T>
class CsrScalarBackend final : public SpmvBackend<T> {
 public:
  CsrScalarBackend(const CsrMatrix<T>& matrix, const SpmvOptions& options, cudaStream_t stream)
      : SpmvBackend<T>(stream),
        block_size_(checked_block_size(options.block_size)),
        x_cache_(options.x_cache),
        texture_limits_(query_x_texture_limits()),
        matrix_(matrix, kFormat) {
    if (x_cache_ == XCache::texture)
      check_x_texture_length(static_cast<std::size_t>(matrix.cols), texture_limits_, kFormat);
  }

  void apply(const T* x, T* y) const override {
    const index_t rows = matrix_.rows();
    if (rows == 0) return;
    if (matrix_.nnz() == 0) {  // y = 0; x (possibly empty) is never read
      SPK_CUDA_CHECK(
          cudaMemsetAsync(y, 0, static_cast<std::size_t>(rows) * sizeof(T), this->stream()));
      return;
    }
    const unsigned int blocks = csr_grid_blocks(rows, 1, block_size_);
    with_x_reader(x_cache_, x, static_cast<std::size_t>(matrix_.cols()), textures_, texture_limits_,
                  [&](auto reader) {
                    csr_scalar_kernel<T><<<blocks, block_size_, 0, this->stream()>>>(
                        rows, matrix_.row_offsets(), matrix_.columns(), matrix_.values(), reader,
                        y);
                    SPK_CHECK_LAUNCH("csr_scalar_kernel");
                  });
  }

  index_t rows() const override { return matrix_.rows(); }
  index_t cols() const override { return matrix_.cols(); }
  std::string name() const override { return kFormat + "/" + to_string(x_cache_); }
  std::size_t device_bytes() const override { return matrix_.device_bytes(); }
  std::size_t bytes_per_spmv() const override { return matrix_.bytes_per_spmv(); }
  std::vector<std::pair<std::string, std::string>> details() const override {
    return {{"threads_per_row", "1"},
            {"block_size", std::to_string(block_size_)},
            {"x_cache", to_string(x_cache_)}};
  }
  void update_values(const CsrMatrix<T>& matrix) override {
    matrix_.update_values(matrix, this->stream(), kFormat);
  }

 private:
  int block_size_;
  XCache x_cache_;
  XTextureLimits texture_limits_;
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
