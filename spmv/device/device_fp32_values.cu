#include <vector>

#include "core/cuda_check.hpp"
#include "core/device_kernels.cuh"
#include "spmv/device/device_fp32_values.hpp"
#include "spmv/host/fp32_values.hpp"

namespace spk {

namespace {

__global__ void __launch_bounds__(kSetupBlockSize)
    round_to_fp32_kernel(index_t nnz, const double* __restrict__ values,
                         float* __restrict__ rounded, index_t* first_unfit) {
  for_each_index(nnz, [&](index_t k) {
    const double value = values[k];
    rounded[k] = static_cast<float>(value);
    if (!fits_fp32(value)) atomicMin(first_unfit, k);
  });
}

// *row = the row holding entry k (rows + 1 offsets, k < nnz): one thread's binary search.
__global__ void row_of_entry_kernel(index_t rows, const index_t* __restrict__ row_offsets,
                                    index_t k, index_t* row) {
  index_t low = 0, high = rows;  // row_offsets[low] <= k < row_offsets[high]
  while (high - low > 1) {
    const index_t middle = low + (high - low) / 2;
    if (row_offsets[middle] <= k)
      low = middle;
    else
      high = middle;
  }
  *row = low;
}

}  // namespace

Fp32Values::Fp32Values(const DeviceCsr<double>& matrix, cudaStream_t stream)
    : values_(static_cast<std::size_t>(matrix.nnz), "fp32 matrix values (precision mixed)") {
  view_.rows = matrix.rows;
  view_.cols = matrix.cols;
  view_.nnz = matrix.nnz;
  view_.row_offsets = matrix.row_offsets;
  view_.columns = matrix.columns;
  view_.values = values_.data();
  view_.stats = matrix.stats;
  if (matrix.nnz == 0) return;
  DeviceBuffer<index_t> first_unfit(std::vector<index_t>{matrix.nnz}, "fp32 range check");
  round_to_fp32_kernel<<<setup_grid(matrix.nnz), kSetupBlockSize, 0, stream>>>(
      matrix.nnz, matrix.values, values_.data(), first_unfit.data());
  SPK_CHECK_LAUNCH("round_to_fp32_kernel");
  const index_t k = download_array(first_unfit.data(), 1, stream)[0];
  if (k >= matrix.nnz) return;
  DeviceBuffer<index_t> row(1, "fp32 range check row");
  row_of_entry_kernel<<<1, 1, 0, stream>>>(matrix.rows, matrix.row_offsets, k, row.data());
  SPK_CHECK_LAUNCH("row_of_entry_kernel");
  const index_t row_index = download_array(row.data(), 1, stream)[0];
  const index_t column = download_array(matrix.columns + k, 1, stream)[0];
  throw_unfit_fp32_value(download_array(matrix.values + k, 1, stream)[0], row_index, column);
}

}  // namespace spk
