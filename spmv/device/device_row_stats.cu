#include <climits>
#include <cstdint>
#include <vector>

#include "core/cuda_check.hpp"
#include "core/device_buffer.hpp"
#include "core/device_kernels.cuh"
#include "spmv/device/device_row_stats.hpp"

namespace spk {

namespace {

// RowLengthSums in the types the device's atomics take.
struct DeviceRowLengthSums {
  int min_length;
  int max_length;
  int empty_rows;
  int nnz;
  unsigned long long aligned16_entries;
  unsigned long long sum_of_squares;
};

// Every thread accumulates its rows (grid-stride), each warp combines its lanes, and its lane 0
// adds the warp's sums with one atomic each. No thread leaves early: all reach the shuffles.
__global__ void __launch_bounds__(kSetupBlockSize)
    row_length_sums_kernel(index_t rows, const index_t* __restrict__ row_offsets,
                           DeviceRowLengthSums* sums) {
  int min_length = INT_MAX, max_length = 0, empty_rows = 0;
  unsigned long long aligned16 = 0, squares = 0;
  for_each_index(rows, [&](index_t row) {
    const int length = row_offsets[row + 1] - row_offsets[row];
    min_length = length < min_length ? length : min_length;
    max_length = length > max_length ? length : max_length;
    empty_rows += length == 0 ? 1 : 0;
    aligned16 += static_cast<unsigned long long>(length + 15LL) / 16 * 16;
    squares += static_cast<unsigned long long>(length) * static_cast<unsigned long long>(length);
  });
  min_length = warp_min(min_length);
  max_length = warp_max(max_length);
  empty_rows = warp_sum(empty_rows);
  aligned16 = warp_sum(aligned16);
  squares = warp_sum(squares);
  if (lowest_lane()) {
    atomicMin(&sums->min_length, min_length);
    atomicMax(&sums->max_length, max_length);
    atomicAdd(&sums->empty_rows, empty_rows);
    atomicAdd(&sums->aligned16_entries, aligned16);
    atomicAdd(&sums->sum_of_squares, squares);
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) sums->nnz = row_offsets[rows];
}

}  // namespace

RowStats device_row_stats(index_t rows, index_t cols, const index_t* row_offsets,
                          cudaStream_t stream) {
  DeviceBuffer<DeviceRowLengthSums> sums(std::vector<DeviceRowLengthSums>{{INT_MAX, 0, 0, 0, 0, 0}},
                                         "row statistics");
  row_length_sums_kernel<<<setup_grid(rows), kSetupBlockSize, 0, stream>>>(rows, row_offsets,
                                                                           sums.data());
  SPK_CHECK_LAUNCH("row_length_sums_kernel");
  const DeviceRowLengthSums result = download_array(sums.data(), 1, stream)[0];
  return row_stats_from_sums(rows, cols, result.nnz,
                             RowLengthSums{result.min_length, result.max_length, result.empty_rows,
                                           static_cast<std::int64_t>(result.aligned16_entries),
                                           static_cast<std::uint64_t>(result.sum_of_squares)});
}

}  // namespace spk
