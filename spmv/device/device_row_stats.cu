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

// The diagonal's counts (scan_diagonal's on the host) in the device's atomics' types.
struct DeviceDiagonalSums {
  int strictly_dominant_rows;
  int zero_or_missing_diagonal;
  int first_zero_diagonal_row;  // INT_MAX when none
  int not_dominant_rows;
};

template <class T>
__global__ void __launch_bounds__(kSetupBlockSize)
    diagonal_sums_kernel(index_t rows, const index_t* __restrict__ row_offsets,
                         const index_t* __restrict__ columns, const T* __restrict__ values,
                         double slack, DeviceDiagonalSums* sums) {
  int strict = 0, zero = 0, first_zero = INT_MAX, not_dominant = 0;
  for_each_index(rows, [&](index_t row) {
    double diagonal = 0.0, off_diagonal = 0.0;
    for (index_t k = row_offsets[row]; k < row_offsets[row + 1]; ++k) {
      const double magnitude = fabs(static_cast<double>(values[k]));
      if (columns[k] == row)
        diagonal = magnitude;
      else
        off_diagonal += magnitude;
    }
    if (diagonal == 0.0) {
      ++zero;
      first_zero = row < first_zero ? row : first_zero;
    }
    strict += diagonal > off_diagonal ? 1 : 0;
    not_dominant += diagonal < off_diagonal * (1.0 - slack) ? 1 : 0;
  });
  strict = warp_sum(strict);
  zero = warp_sum(zero);
  first_zero = warp_min(first_zero);
  not_dominant = warp_sum(not_dominant);
  if (lowest_lane()) {
    atomicAdd(&sums->strictly_dominant_rows, strict);
    atomicAdd(&sums->zero_or_missing_diagonal, zero);
    atomicMin(&sums->first_zero_diagonal_row, first_zero);
    atomicAdd(&sums->not_dominant_rows, not_dominant);
  }
}

}  // namespace

template <class T>
MatrixStats device_block_stats(index_t rows, const index_t* row_offsets, const index_t* columns,
                               const T* values, cudaStream_t stream) {
  MatrixStats stats;
  static_cast<RowStats&>(stats) = device_row_stats(rows, rows, row_offsets, stream);
  DeviceBuffer<DeviceDiagonalSums> sums(std::vector<DeviceDiagonalSums>{{0, 0, INT_MAX, 0}},
                                        "diagonal statistics");
  if (rows > 0) {
    diagonal_sums_kernel<T><<<setup_grid(rows), kSetupBlockSize, 0, stream>>>(
        rows, row_offsets, columns, values, kDominanceSlack, sums.data());
    SPK_CHECK_LAUNCH("diagonal_sums_kernel");
  }
  const DeviceDiagonalSums result = download_array(sums.data(), 1, stream)[0];
  stats.strictly_dominant_rows = result.strictly_dominant_rows;
  stats.zero_or_missing_diagonal = result.zero_or_missing_diagonal;
  stats.first_zero_diagonal_row =
      result.zero_or_missing_diagonal == 0 ? -1 : result.first_zero_diagonal_row;
  stats.diagonally_dominant = result.not_dominant_rows == 0;
  return stats;
}

template MatrixStats device_block_stats(index_t, const index_t*, const index_t*, const float*,
                                        cudaStream_t);
template MatrixStats device_block_stats(index_t, const index_t*, const index_t*, const double*,
                                        cudaStream_t);

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
