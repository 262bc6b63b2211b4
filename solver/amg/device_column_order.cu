#include <cub/device/device_segmented_sort.cuh>
#include <vector>

#include "core/cub_call.cuh"
#include "core/cuda_check.hpp"
#include "core/device_kernels.cuh"
#include "solver/amg/device_column_order.hpp"

namespace spk {

namespace {

// *first = the first row whose columns are not strictly increasing (stays `rows` if none).
__global__ void __launch_bounds__(kSetupBlockSize)
    first_unsorted_row_kernel(index_t rows, const index_t* __restrict__ row_offsets,
                              const index_t* __restrict__ columns, index_t* first) {
  for_each_index(rows, [&](index_t row) {
    for (index_t k = row_offsets[row] + 1; k < row_offsets[row + 1]; ++k)
      if (columns[k - 1] >= columns[k]) {
        atomicMin(first, row);
        return;
      }
  });
}

// values[k] = raw[permutation[k]]
template <class T>
__global__ void __launch_bounds__(kSetupBlockSize)
    gather_kernel(index_t count, const index_t* __restrict__ permutation, const T* __restrict__ raw,
                  double* __restrict__ values) {
  for_each_index(count, [&](index_t k) { values[k] = static_cast<double>(raw[permutation[k]]); });
}

}  // namespace

void DeviceColumnOrder::arrange(DeviceCsrMatrix<double>& c, cudaStream_t stream, bool keep_raw) {
  DeviceBuffer<index_t> first(std::vector<index_t>{c.rows}, "sortedness check");
  if (c.rows > 0) {
    first_unsorted_row_kernel<<<setup_grid(c.rows), kSetupBlockSize, 0, stream>>>(
        c.rows, c.row_offsets.data(), c.columns.data(), first.data());
    SPK_CHECK_LAUNCH("first_unsorted_row_kernel");
  }
  SPK_CUDA_CHECK(cudaStreamSynchronize(stream));
  if (first.to_host()[0] == c.rows) return;  // sorted
  const index_t nnz = c.nnz();
  DeviceBuffer<index_t> raw_columns = std::move(c.columns);
  c.columns = DeviceBuffer<index_t>(raw_columns.size(), "columns (sorted)");
  permutation_ = DeviceBuffer<index_t>(raw_columns.size(), "column sort permutation");
  {
    DeviceBuffer<index_t> identity(raw_columns.size(), "entry numbers");
    iota_kernel<<<setup_grid(nnz), kSetupBlockSize, 0, stream>>>(nnz, identity.data());
    SPK_CHECK_LAUNCH("iota_kernel");
    // Each row's (column, entry) pairs sorted by column: permutation[k] = the raw entry of k.
    run_cub("row column sort", stream, [&](void* scratch, std::size_t& bytes) {
      return cub::DeviceSegmentedSort::StableSortPairs(
          scratch, bytes, raw_columns.data(), c.columns.data(), identity.data(),
          permutation_.data(), nnz, c.rows, c.row_offsets.data(), c.row_offsets.data() + 1, stream);
    });
    SPK_CUDA_CHECK(cudaStreamSynchronize(stream));  // `identity` is freed on leaving
  }
  DeviceBuffer<double> raw_values = std::move(c.values);
  if (!keep_raw) raw_columns = DeviceBuffer<index_t>();
  c.values = DeviceBuffer<double>(raw_values.size(), "values (sorted)");
  gather_from(raw_values.data(), c, stream);
  SPK_CUDA_CHECK(cudaStreamSynchronize(stream));  // the raw arrays may be freed on return
  if (keep_raw) {
    raw_columns_ = std::move(raw_columns);
    raw_values_ = std::move(raw_values);
  }
}

void DeviceColumnOrder::gather(DeviceCsrMatrix<double>& c, cudaStream_t stream) const {
  gather_from(raw_values_.data(), c, stream);
}

template <class T>
void DeviceColumnOrder::gather_from(const T* source, DeviceCsrMatrix<double>& c,
                                    cudaStream_t stream) const {
  const index_t nnz = c.nnz();
  if (!active() || nnz == 0) return;
  gather_kernel<<<setup_grid(nnz), kSetupBlockSize, 0, stream>>>(nnz, permutation_.data(), source,
                                                                 c.values.data());
  SPK_CHECK_LAUNCH("gather_kernel");
}

template void DeviceColumnOrder::gather_from(const float*, DeviceCsrMatrix<double>&,
                                             cudaStream_t) const;
template void DeviceColumnOrder::gather_from(const double*, DeviceCsrMatrix<double>&,
                                             cudaStream_t) const;

}  // namespace spk
