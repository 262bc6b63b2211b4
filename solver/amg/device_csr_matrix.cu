#include <cstdint>

#include "core/device_kernels.cuh"
#include "solver/amg/device_csr_matrix.hpp"
#include "spmv/device/device_csr.hpp"

namespace spk {

CusparseSpMatPtr csr_descriptor(const DeviceCsrMatrix<double>& matrix) {
  cusparseConstSpMatDescr_t descriptor = nullptr;
  SPK_CUSPARSE_CHECK(cusparseCreateConstCsr(
      &descriptor, matrix.rows, matrix.cols, matrix.nnz(), matrix.row_offsets.data(),
      matrix.columns.data(), matrix.values.data(), CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
      CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
  return CusparseSpMatPtr(descriptor);
}

namespace {

template <class From, class To>
__global__ void __launch_bounds__(kSetupBlockSize)
    scale_kernel(std::int64_t n, double factor, const From* __restrict__ from,
                 To* __restrict__ to) {
  for_each_index(n, [&](std::int64_t i) {
    to[i] = static_cast<To>(factor * static_cast<double>(from[i]));  // To(factor * from_i)
  });
}

}  // namespace

template <class From, class To>
void scale_on_device(std::size_t n, double factor, const From* from, To* to, cudaStream_t stream) {
  if (n == 0) return;
  scale_kernel<<<setup_grid(static_cast<std::int64_t>(n)), kSetupBlockSize, 0, stream>>>(
      static_cast<std::int64_t>(n), factor, from, to);
  SPK_CHECK_LAUNCH("scale_kernel");
}

template void scale_on_device(std::size_t, double, const float*, double*, cudaStream_t);
template void scale_on_device(std::size_t, double, const double*, double*, cudaStream_t);
template void scale_on_device(std::size_t, double, const double*, float*, cudaStream_t);

}  // namespace spk
