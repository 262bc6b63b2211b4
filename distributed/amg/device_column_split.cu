#include <cub/device/device_scan.cuh>

#include "core/cub_call.cuh"
#include "core/cuda_check.hpp"
#include "core/device_kernels.cuh"
#include "distributed/amg/device_column_split.hpp"

namespace spk {

namespace {

// The first entry of the row at column >= own (the row is sorted).
__device__ __forceinline__ index_t halo_start(const index_t* __restrict__ columns, index_t begin,
                                              index_t end, index_t own) {
  return lower_bound_in(columns, begin, end, own);
}

// sizes[row + 1] = the row's local entries
__global__ void __launch_bounds__(kSetupBlockSize)
    local_sizes_kernel(index_t rows, index_t own, const index_t* __restrict__ row_offsets,
                       const index_t* __restrict__ columns, index_t* __restrict__ sizes) {
  for_each_index(rows, [&](index_t row) {
    sizes[row + 1] =
        halo_start(columns, row_offsets[row], row_offsets[row + 1], own) - row_offsets[row];
  });
}

// halo_offsets[row] = row_offsets[row] - local_offsets[row], for rows + 1 offsets
__global__ void __launch_bounds__(kSetupBlockSize)
    halo_offsets_kernel(index_t count, const index_t* __restrict__ row_offsets,
                        const index_t* __restrict__ local_offsets,
                        index_t* __restrict__ halo_offsets) {
  for_each_index(count,
                 [&](index_t row) { halo_offsets[row] = row_offsets[row] - local_offsets[row]; });
}

// Each row's local prefix into the local block, the rest into the halo block (columns - own);
// the columns only where the pointers are given (split_values passes none).
template <class T>
__global__ void __launch_bounds__(kSetupBlockSize)
    split_kernel(index_t rows, index_t own, const index_t* __restrict__ row_offsets,
                 const index_t* __restrict__ columns, const double* __restrict__ values,
                 const index_t* __restrict__ local_offsets, index_t* __restrict__ local_columns,
                 T* __restrict__ local_values, const index_t* __restrict__ halo_offsets,
                 index_t* __restrict__ halo_columns, T* __restrict__ halo_values) {
  for_each_index(rows, [&](index_t row) {
    const index_t begin = row_offsets[row], end = row_offsets[row + 1];
    const index_t split = begin + (local_offsets[row + 1] - local_offsets[row]);
    index_t to = local_offsets[row];
    for (index_t k = begin; k < split; ++k, ++to) {
      if (local_columns != nullptr) local_columns[to] = columns[k];
      local_values[to] = static_cast<T>(values[k]);
    }
    to = halo_offsets[row];
    for (index_t k = split; k < end; ++k, ++to) {
      if (halo_columns != nullptr) halo_columns[to] = columns[k] - own;
      halo_values[to] = static_cast<T>(values[k]);
    }
  });
}

}  // namespace

template <class T>
DeviceColumnSplit<T> split_columns(const DeviceCsrMatrix<double>& whole, index_t own,
                                   cudaStream_t stream) {
  const index_t rows = whole.rows;
  DeviceColumnSplit<T> split;
  split.local.rows = split.halo.rows = rows;
  split.local.cols = own;
  split.halo.cols = whole.cols - own;
  DeviceBuffer<index_t> sizes(static_cast<std::size_t>(rows) + 1, "local block row sizes");
  split.local.row_offsets = DeviceBuffer<index_t>(sizes.size(), "local block offsets");
  split.halo.row_offsets = DeviceBuffer<index_t>(sizes.size(), "halo block offsets");
  SPK_CUDA_CHECK(cudaMemsetAsync(sizes.data(), 0, sizeof(index_t), stream));
  if (rows > 0) {
    local_sizes_kernel<<<setup_grid(rows), kSetupBlockSize, 0, stream>>>(
        rows, own, whole.row_offsets.data(), whole.columns.data(), sizes.data());
    SPK_CHECK_LAUNCH("local_sizes_kernel");
  }
  run_cub("local block offsets", stream, [&](void* scratch, std::size_t& bytes) {
    return cub::DeviceScan::InclusiveSum(scratch, bytes, sizes.data(),
                                         split.local.row_offsets.data(), rows + 1, stream);
  });
  halo_offsets_kernel<<<setup_grid(rows + 1), kSetupBlockSize, 0, stream>>>(
      rows + 1, whole.row_offsets.data(), split.local.row_offsets.data(),
      split.halo.row_offsets.data());
  SPK_CHECK_LAUNCH("halo_offsets_kernel");
  const index_t local_nnz = download_array(split.local.row_offsets.data() + rows, 1, stream)[0];
  const auto halo_nnz = static_cast<std::size_t>(whole.nnz() - local_nnz);
  split.local.columns =
      DeviceBuffer<index_t>(static_cast<std::size_t>(local_nnz), "local block columns");
  split.local.values = DeviceBuffer<T>(static_cast<std::size_t>(local_nnz), "local block values");
  split.halo.columns = DeviceBuffer<index_t>(halo_nnz, "halo block columns");
  split.halo.values = DeviceBuffer<T>(halo_nnz, "halo block values");
  if (rows > 0) {
    split_kernel<T><<<setup_grid(rows), kSetupBlockSize, 0, stream>>>(
        rows, own, whole.row_offsets.data(), whole.columns.data(), whole.values.data(),
        split.local.row_offsets.data(), split.local.columns.data(), split.local.values.data(),
        split.halo.row_offsets.data(), split.halo.columns.data(), split.halo.values.data());
    SPK_CHECK_LAUNCH("split_kernel");
  }
  return split;
}

template <class T>
void split_values(const DeviceCsrMatrix<double>& whole, index_t own, DeviceColumnSplit<T>& split,
                  cudaStream_t stream) {
  if (whole.rows == 0) return;
  split_kernel<T><<<setup_grid(whole.rows), kSetupBlockSize, 0, stream>>>(
      whole.rows, own, whole.row_offsets.data(), whole.columns.data(), whole.values.data(),
      split.local.row_offsets.data(), nullptr, split.local.values.data(),
      split.halo.row_offsets.data(), nullptr, split.halo.values.data());
  SPK_CHECK_LAUNCH("split_kernel (values)");
}

template DeviceColumnSplit<float> split_columns<float>(const DeviceCsrMatrix<double>&, index_t,
                                                       cudaStream_t);
template DeviceColumnSplit<double> split_columns<double>(const DeviceCsrMatrix<double>&, index_t,
                                                         cudaStream_t);
template void split_values<float>(const DeviceCsrMatrix<double>&, index_t,
                                  DeviceColumnSplit<float>&, cudaStream_t);
template void split_values<double>(const DeviceCsrMatrix<double>&, index_t,
                                   DeviceColumnSplit<double>&, cudaStream_t);

}  // namespace spk
