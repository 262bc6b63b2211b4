#pragma once
// The long-row passes that csr-vector and sell share (the split: csr_long_rows.hpp, built on
// the device by csr_long_rows_build.hpp). The row kernel of the format skips its long rows
// and never writes their y; then
//   pass 1, long_row_chunks_kernel: warp c computes the partial sum of chunk c, the entries
//           long_row_chunk_range gives inside its long row's stored range, with lanes taking
//           entries l, l + 32, ... four loads in flight (sub_warp_row_dot<32>), reduced by
//           shuffles;
//   pass 2, long_row_sums_kernel: warp i adds the partial sums of long row i (lane l takes
//           chunks l, l + 32, ..., then a shuffle reduction: a fixed order, no atomics, the
//           same bits every run) and writes y[rows[i]] through the format's Output
//           (y = alpha sum + beta y): the only writer of a long row's y.
// Output is PlainOutput or OutputScale (output_scale.cuh); a DotOutput (dot_output.cuh) cannot
// pass through: its grid sum ends in the row kernel, before the long rows are known, so formats
// with long rows do not fold dots.
//
// Where a long row's entries are stored (a StoredRange functor, slot -> EntryRange in the
// values/columns arrays):
//   CsrStoredRange     at the row's CSR offsets (csr-vector): row_offsets[rows[i]] ..
//   PackedStoredRange  packed one after another (sell's tail): starts[i] .. starts[i + 1]
#include <cuda_runtime.h>

#include <cstdint>

#include "core/cuda_check.hpp"
#include "spmv/formats/block_size.hpp"
#include "spmv/formats/csr_kernel_support.cuh"
#include "spmv/formats/csr_launch_policy.hpp"
#include "spmv/formats/csr_long_rows_build.hpp"

namespace spk {

struct CsrStoredRange {
  const index_t* __restrict__ rows;
  const index_t* __restrict__ row_offsets;
  __device__ __forceinline__ EntryRange operator()(index_t slot) const {
    const index_t row = rows[slot];
    return {row_offsets[row], row_offsets[row + 1]};
  }
};

struct PackedStoredRange {
  const std::uint64_t* __restrict__ starts;  // long rows + 1
  __device__ __forceinline__ EntryRange operator()(index_t slot) const {
    return {static_cast<std::int64_t>(starts[slot]), static_cast<std::int64_t>(starts[slot + 1])};
  }
};

// Pass 1: warp c computes the partial sum of chunk c.
template <class Value, class T, class Reader, class StoredRange>
__global__ void __launch_bounds__(max_block_size)
    long_row_chunks_kernel(index_t chunks, const index_t* __restrict__ chunk_rows,
                           const index_t* __restrict__ chunk_offsets, StoredRange stored_range,
                           const index_t* __restrict__ columns, const Value* __restrict__ values,
                           Reader x, T* __restrict__ partials) {
  const std::int64_t chunk =
      (static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  if (chunk >= chunks) return;  // the whole warp leaves together
  const unsigned int lane = threadIdx.x % 32u;
  const index_t slot = chunk_rows[chunk];
  const EntryRange stored = stored_range(slot);
  const EntryRange range = long_row_chunk_range(stored.begin, stored.end,
                                                static_cast<index_t>(chunk) - chunk_offsets[slot]);
  T sum = sub_warp_row_dot<32>(values + range.begin, columns + range.begin, 0,
                               static_cast<unsigned int>(range.end - range.begin), lane, x, T(0));
  sum = sub_warp_sum<32>(sum);
  if (lane == 0) partials[chunk] = sum;
}

// Pass 2: warp i adds the partial sums of long row i in a fixed order and writes its y.
template <class T, class Output>
__global__ void __launch_bounds__(max_block_size)
    long_row_sums_kernel(index_t long_row_count, const index_t* __restrict__ long_rows,
                         const index_t* __restrict__ chunk_offsets, const T* __restrict__ partials,
                         Output output, T* __restrict__ y) {
  const std::int64_t slot = (static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  if (slot >= long_row_count) return;
  const unsigned int lane = threadIdx.x % 32u;
  T sum = T(0);
  for (index_t chunk = chunk_offsets[slot] + static_cast<index_t>(lane);
       chunk < chunk_offsets[slot + 1]; chunk += 32)
    sum += partials[chunk];
  sum = sub_warp_sum<32>(sum);
  if (lane == 0) output.store(y + long_rows[slot], sum);
}

// Host: both passes on `stream` (nothing when there are no long rows), a warp per chunk, then
// a warp per long row, in blocks of `block_size` threads. partials: split.chunks entries.
template <class Value, class T, class Reader, class StoredRange, class Output>
void launch_long_row_passes(const DeviceLongRows& split, StoredRange stored_range,
                            const index_t* columns, const Value* values, Reader x, T* partials,
                            Output output, T* y, int block_size, cudaStream_t stream) {
  if (split.long_row_count == 0) return;
  long_row_chunks_kernel<<<csr_grid_blocks(split.chunks, 32, block_size), block_size, 0, stream>>>(
      split.chunks, split.chunk_rows.data(), split.chunk_offsets.data(), stored_range, columns,
      values, x, partials);
  SPK_CHECK_LAUNCH("long_row_chunks_kernel");
  long_row_sums_kernel<<<csr_grid_blocks(split.long_row_count, 32, block_size), block_size, 0,
                         stream>>>(split.long_row_count, split.rows.data(),
                                   split.chunk_offsets.data(), partials, output, y);
  SPK_CHECK_LAUNCH("long_row_sums_kernel");
}

}  // namespace spk
