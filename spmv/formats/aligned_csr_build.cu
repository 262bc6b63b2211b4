#include <cub/device/device_scan.cuh>

#include "core/cub_call.cuh"
#include "core/cuda_check.hpp"
#include "core/device_buffer.hpp"
#include "core/device_kernels.cuh"
#include "spmv/formats/aligned_csr_build.hpp"
#include "spmv/formats/csr_launch_policy.hpp"

namespace spk {

namespace {

__global__ void __launch_bounds__(kSetupBlockSize)
    padded_total_kernel(index_t rows, int group_size, const index_t* __restrict__ row_offsets,
                        unsigned long long* total) {
  unsigned long long sum = 0;
  for_each_index(rows, [&](index_t row) {
    sum += static_cast<unsigned long long>(
        aligned_csr_padded_length(row_offsets[row + 1] - row_offsets[row], group_size));
  });
  sum = warp_sum(sum);
  if (lowest_lane()) atomicAdd(total, sum);
}

// padded_lengths[r] for r < rows (each fits 32 bits: the total does); padded_lengths[rows] = 0.
__global__ void __launch_bounds__(kSetupBlockSize)
    padded_lengths_kernel(index_t rows, int group_size, const index_t* __restrict__ row_offsets,
                          index_t* __restrict__ padded_lengths) {
  for_each_index(rows + 1, [&](index_t row) {
    padded_lengths[row] = row < rows ? static_cast<index_t>(aligned_csr_padded_length(
                                           row_offsets[row + 1] - row_offsets[row], group_size))
                                     : 0;
  });
}

template <class T>
__global__ void __launch_bounds__(kSetupBlockSize)
    aligned_csr_fill_kernel(index_t rows, const index_t* __restrict__ row_offsets,
                            const index_t* __restrict__ csr_columns,
                            const T* __restrict__ csr_values,
                            const index_t* __restrict__ row_starts, index_t* __restrict__ columns,
                            T* __restrict__ values, std::uint32_t* __restrict__ slots) {
  for_each_row_by_warp(rows, [&](index_t row, index_t lane) {
    const index_t begin = row_offsets[row], end = row_offsets[row + 1];
    const index_t start = row_starts[row], next = row_starts[row + 1];
    for (index_t slot = start + lane; slot < next; slot += 32) {
      const AlignedCsrSlot held = aligned_csr_slot(begin, end, start, slot);
      columns[slot] = csr_columns[held.entry];
      values[slot] = held.padding ? T(0) : csr_values[held.entry];
      if (!held.padding) slots[held.entry] = static_cast<std::uint32_t>(slot);
    }
  });
}

}  // namespace

template <class T>
index_t fill_aligned_csr_row_starts(const DeviceCsr<T>& matrix, int group_size, index_t* row_starts,
                                    cudaStream_t stream) {
  check_threads_per_row(group_size, "aligned-csr");
  const index_t rows = matrix.rows;
  DeviceBuffer<unsigned long long> total(std::vector<unsigned long long>{0}, "aligned-csr size");
  padded_total_kernel<<<setup_grid(rows), kSetupBlockSize, 0, stream>>>(
      rows, group_size, matrix.row_offsets, total.data());
  SPK_CHECK_LAUNCH("padded_total_kernel");
  const auto padded_total = static_cast<std::int64_t>(download_array(total.data(), 1, stream)[0]);
  check_aligned_csr_size(padded_total, group_size);

  DeviceBuffer<index_t> padded_lengths(static_cast<std::size_t>(rows) + 1,
                                       "aligned-csr padded row lengths");
  padded_lengths_kernel<<<setup_grid(std::int64_t{rows} + 1), kSetupBlockSize, 0, stream>>>(
      rows, group_size, matrix.row_offsets, padded_lengths.data());
  SPK_CHECK_LAUNCH("padded_lengths_kernel");
  run_cub("aligned-csr row starts scan", stream, [&](void* scratch, std::size_t& bytes) {
    return cub::DeviceScan::ExclusiveSum(scratch, bytes, padded_lengths.data(), row_starts,
                                         rows + 1, stream);
  });
  return static_cast<index_t>(padded_total);
}

template <class T>
void fill_aligned_csr(const DeviceCsr<T>& matrix, const index_t* row_starts, index_t* columns,
                      T* values, std::uint32_t* slots, cudaStream_t stream) {
  if (matrix.rows == 0) return;
  aligned_csr_fill_kernel<<<setup_grid(std::int64_t{matrix.rows} * 32), kSetupBlockSize, 0,
                            stream>>>(matrix.rows, matrix.row_offsets, matrix.columns,
                                      matrix.values, row_starts, columns, values, slots);
  SPK_CHECK_LAUNCH("aligned_csr_fill_kernel");
}

template <class T>
DeviceAlignedCsr<T> build_aligned_csr(const DeviceCsr<T>& matrix, int group_size,
                                      cudaStream_t stream) {
  DeviceAlignedCsr<T> layout;
  layout.group_size = group_size;
  layout.row_starts =
      DeviceBuffer<index_t>(static_cast<std::size_t>(matrix.rows) + 1, "aligned-csr row starts");
  const auto padded = static_cast<std::size_t>(
      fill_aligned_csr_row_starts(matrix, group_size, layout.row_starts.data(), stream));
  layout.columns = DeviceBuffer<index_t>(padded, "aligned-csr column indices");
  layout.values = DeviceBuffer<T>(padded, "aligned-csr values");
  layout.slots = DeviceBuffer<std::uint32_t>(static_cast<std::size_t>(matrix.nnz),
                                             "aligned-csr values slot map");
  fill_aligned_csr(matrix, layout.row_starts.data(), layout.columns.data(), layout.values.data(),
                   layout.slots.data(), stream);
  return layout;
}

#define SPK_INSTANTIATE_ALIGNED_CSR_BUILD(T)                                                      \
  template index_t fill_aligned_csr_row_starts(const DeviceCsr<T>&, int, index_t*, cudaStream_t); \
  template void fill_aligned_csr(const DeviceCsr<T>&, const index_t*, index_t*, T*,               \
                                 std::uint32_t*, cudaStream_t);                                   \
  template DeviceAlignedCsr<T> build_aligned_csr(const DeviceCsr<T>&, int, cudaStream_t);
SPK_INSTANTIATE_ALIGNED_CSR_BUILD(float)
SPK_INSTANTIATE_ALIGNED_CSR_BUILD(double)
#undef SPK_INSTANTIATE_ALIGNED_CSR_BUILD

}  // namespace spk
