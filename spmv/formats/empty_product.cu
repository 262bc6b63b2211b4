#include <cstddef>
#include <cstdint>

#include "core/cuda_check.hpp"
#include "spmv/formats/empty_product.hpp"

namespace spk {

namespace {

constexpr int kScaleBlockSize = 256;

template <class T>
__global__ void scale_in_place_kernel(std::int64_t count, T beta, T* __restrict__ y) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += stride)
    y[i] *= beta;
}

}  // namespace

template <class T>
void write_empty_product(T* y, index_t rows, T beta, cudaStream_t stream) {
  if (rows <= 0) return;
  const auto count = static_cast<std::size_t>(rows);
  if (beta == T(0)) {
    SPK_CUDA_CHECK(cudaMemsetAsync(y, 0, count * sizeof(T), stream));
    return;
  }
  const auto blocks = static_cast<unsigned int>(
      (static_cast<std::int64_t>(rows) + kScaleBlockSize - 1) / kScaleBlockSize);
  scale_in_place_kernel<T><<<blocks, kScaleBlockSize, 0, stream>>>(rows, beta, y);
  SPK_CHECK_LAUNCH("scale_in_place_kernel");
}

template void write_empty_product(float*, index_t, float, cudaStream_t);
template void write_empty_product(double*, index_t, double, cudaStream_t);

}  // namespace spk
