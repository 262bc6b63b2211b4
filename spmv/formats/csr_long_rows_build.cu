#include <cub/device/device_scan.cuh>

#include "core/cub_call.cuh"
#include "core/cuda_check.hpp"
#include "core/device_buffer.hpp"
#include "core/device_kernels.cuh"
#include "spmv/formats/csr_long_rows_build.hpp"

namespace spk {

namespace {

// Chunks of `row`: long_row_chunk_count of where its entries are stored when it is long, else 0.
__device__ __forceinline__ index_t chunks_of_row(index_t row,
                                                 const index_t* __restrict__ row_offsets,
                                                 index_t long_row_length,
                                                 LongRowPlacement placement) {
  const index_t length = row_offsets[row + 1] - row_offsets[row];
  if (length <= long_row_length) return 0;
  const std::int64_t begin = placement.packed_offsets == nullptr
                                 ? row_offsets[row]
                                 : placement.tail_start + placement.packed_offsets[row];
  return long_row_chunk_count(begin, begin + length);
}

__global__ void __launch_bounds__(kSetupBlockSize)
    count_long_rows_kernel(index_t rows, index_t long_row_length,
                           const index_t* __restrict__ row_offsets, LongRowPlacement placement,
                           LongRowCounts* counts) {
  int long_rows = 0, chunks = 0;
  for_each_index(rows, [&](index_t row) {
    const index_t row_chunks = chunks_of_row(row, row_offsets, long_row_length, placement);
    long_rows += row_chunks > 0 ? 1 : 0;
    chunks += row_chunks;
  });
  long_rows = warp_sum(long_rows);
  chunks = warp_sum(chunks);
  if (lowest_lane() && long_rows > 0) {
    atomicAdd(&counts->long_rows, long_rows);
    atomicAdd(&counts->chunks, chunks);
  }
}

// For every row r < rows: is_long[r] (0 or 1) and chunks[r]; both 0 at r = rows (for the scans).
__global__ void __launch_bounds__(kSetupBlockSize)
    long_row_flags_kernel(index_t rows, index_t long_row_length,
                          const index_t* __restrict__ row_offsets, LongRowPlacement placement,
                          index_t* __restrict__ is_long, index_t* __restrict__ chunks) {
  for_each_index(rows + 1, [&](index_t row) {
    const index_t row_chunks =
        row < rows ? chunks_of_row(row, row_offsets, long_row_length, placement) : 0;
    is_long[row] = row_chunks > 0 ? 1 : 0;
    chunks[row] = row_chunks;
  });
}

// Long row r, the slot-th long row, owns chunks [chunk_starts[r], chunk_starts[r + 1]).
__global__ void __launch_bounds__(kSetupBlockSize)
    long_rows_fill_kernel(index_t rows, const index_t* __restrict__ is_long,
                          const index_t* __restrict__ slot_of_row,
                          const index_t* __restrict__ chunk_starts, LongRowCounts counts,
                          index_t* __restrict__ long_rows, index_t* __restrict__ chunk_offsets,
                          index_t* __restrict__ chunk_rows) {
  for_each_index(rows, [&](index_t row) {
    if (is_long[row] == 0) return;
    const index_t slot = slot_of_row[row];
    long_rows[slot] = row;
    chunk_offsets[slot] = chunk_starts[row];
    for (index_t chunk = chunk_starts[row]; chunk < chunk_starts[row + 1]; ++chunk)
      chunk_rows[chunk] = slot;
  });
  if (blockIdx.x == 0 && threadIdx.x == 0) chunk_offsets[counts.long_rows] = counts.chunks;
}

}  // namespace

template <class T>
LongRowCounts count_long_rows(const DeviceCsr<T>& matrix, index_t long_row_length,
                              cudaStream_t stream, LongRowPlacement placement) {
  if (matrix.stats.max_row_length <= long_row_length) return {};
  DeviceBuffer<LongRowCounts> counts(std::vector<LongRowCounts>{LongRowCounts{}},
                                     "long-row counts");
  count_long_rows_kernel<<<setup_grid(matrix.rows), kSetupBlockSize, 0, stream>>>(
      matrix.rows, long_row_length, matrix.row_offsets, placement, counts.data());
  SPK_CHECK_LAUNCH("count_long_rows_kernel");
  return download_array(counts.data(), 1, stream)[0];
}

template <class T>
void fill_long_rows(const DeviceCsr<T>& matrix, index_t long_row_length,
                    const LongRowCounts& counts, index_t* rows, index_t* chunk_offsets,
                    index_t* chunk_rows, cudaStream_t stream, LongRowPlacement placement) {
  if (counts.long_rows == 0) return;
  const auto entries = static_cast<std::size_t>(matrix.rows) + 1;
  DeviceBuffer<index_t> is_long(entries, "long-row flags");
  DeviceBuffer<index_t> chunks(entries, "long-row chunk counts");
  DeviceBuffer<index_t> slot_of_row(entries, "long-row slots");
  DeviceBuffer<index_t> chunk_starts(entries, "long-row chunk starts");
  long_row_flags_kernel<<<setup_grid(std::int64_t{matrix.rows} + 1), kSetupBlockSize, 0, stream>>>(
      matrix.rows, long_row_length, matrix.row_offsets, placement, is_long.data(), chunks.data());
  SPK_CHECK_LAUNCH("long_row_flags_kernel");
  run_cub("long-row slots scan", stream, [&](void* scratch, std::size_t& bytes) {
    return cub::DeviceScan::ExclusiveSum(scratch, bytes, is_long.data(), slot_of_row.data(),
                                         matrix.rows + 1, stream);
  });
  run_cub("long-row chunks scan", stream, [&](void* scratch, std::size_t& bytes) {
    return cub::DeviceScan::ExclusiveSum(scratch, bytes, chunks.data(), chunk_starts.data(),
                                         matrix.rows + 1, stream);
  });
  long_rows_fill_kernel<<<setup_grid(matrix.rows), kSetupBlockSize, 0, stream>>>(
      matrix.rows, is_long.data(), slot_of_row.data(), chunk_starts.data(), counts, rows,
      chunk_offsets, chunk_rows);
  SPK_CHECK_LAUNCH("long_rows_fill_kernel");
  SPK_CUDA_CHECK(cudaStreamSynchronize(stream));  // before the scratch arrays are freed
}

#define SPK_INSTANTIATE_LONG_ROWS_BUILD(T)                                                   \
  template LongRowCounts count_long_rows(const DeviceCsr<T>&, index_t, cudaStream_t,         \
                                         LongRowPlacement);                                  \
  template void fill_long_rows(const DeviceCsr<T>&, index_t, const LongRowCounts&, index_t*, \
                               index_t*, index_t*, cudaStream_t, LongRowPlacement);
SPK_INSTANTIATE_LONG_ROWS_BUILD(float)
SPK_INSTANTIATE_LONG_ROWS_BUILD(double)
#undef SPK_INSTANTIATE_LONG_ROWS_BUILD

}  // namespace spk
