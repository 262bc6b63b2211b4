#pragma once
// The COO kernel of HYB's overflow part: y[row] += alpha * value * x[column] for (row, column,
// value) triples sorted by row (alpha of apply_scaled; it scales each segment's sum once,
// at its atomicAdd). It runs after the ELL kernel, on the same stream, which has
// already written every y[row].
//
// Thread mapping: each warp owns a contiguous chunk of entries_per_warp (256) triples and
// walks it in tiles of 32, one triple per lane (coalesced loads of rows, columns, values;
// the next tile's triples are loaded while the current tile's x gather is in flight).
// Per tile, a segmented inclusive scan with warp shuffles sums the products of equal rows
// (rows are sorted, so "same row as the lane `offset` below" is a valid segment test); the
// last lane of each segment holds the segment's sum. Segments that end inside the tile are
// added to y with one atomicAdd each; the tile's last segment is carried into the next tile
// (folded into lane 0 when the row continues), and flushed with one atomicAdd when the row
// changes or the chunk ends. A warp therefore issues at most (rows in its chunk + 1) atomics,
// whatever the row lengths: a row of 100k overflow entries costs one atomic per 256 entries,
// and every row overflowing by a few entries costs one atomic per row.
//
// Matrix values of type Value, products and sums in the vector type T (the mixed-precision
// seam; only Value == T is instantiated).
//
// Determinism: chunks meeting on the same row add their partial sums in whatever order the
// atomics land, so float rounding (last bits of y) may differ between runs.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "spmv/formats/block_size.hpp"
#include "spmv/host/csr_matrix.hpp"

namespace spk::coo_kernels {

constexpr int warp_size = 32;
constexpr int tiles_per_warp = 8;
constexpr std::int64_t entries_per_warp = warp_size * tiles_per_warp;

template <int MaxThreads, class Value, class T, class Reader, class Output>
__global__ void __launch_bounds__(MaxThreads, min_blocks_for_class(MaxThreads))
    coo_add_kernel(std::int64_t entries, const index_t* __restrict__ rows,
                   const index_t* __restrict__ columns, const Value* __restrict__ values, Reader x,
                   Output output, T* __restrict__ y) {
  constexpr unsigned full_mask = 0xffffffffu;
  const int lane = static_cast<int>(threadIdx.x % warp_size);
  const std::int64_t warp =
      (static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / warp_size;
  const std::int64_t begin = warp * entries_per_warp;
  if (begin >= entries) return;  // the whole warp leaves together
  const std::int64_t end = begin + entries_per_warp < entries ? begin + entries_per_warp : entries;
  // Lanes past `end` take the chunk's last row and a zero product, so they join the last
  // valid lane's segment and change nothing.
  const index_t last_row = rows[end - 1];
  // One triple per lane; lanes past `end` get column -1 (no product).
  const auto load_triple = [&](std::int64_t entry, index_t& row, index_t& column, Value& value) {
    row = last_row;
    column = -1;
    value = Value(0);
    if (entry < end) {
      row = __ldcs(rows + entry);
      column = __ldcs(columns + entry);
      value = __ldcs(values + entry);
    }
  };
  index_t next_row, next_column;
  Value next_value;
  load_triple(begin + lane, next_row, next_column, next_value);
  index_t carry_row = rows[begin];
  T carry = T(0);
  for (std::int64_t base = begin; base < end; base += warp_size) {
    const index_t row = next_row;
    const index_t column = next_column;
    T sum = column >= 0 ? static_cast<T>(next_value) * x.load(column) : T(0);
    // Prefetch the next tile's triples while this tile's x gather is in flight.
    load_triple(base + warp_size + lane, next_row, next_column, next_value);
    if (lane == 0) {
      if (row == carry_row)
        sum += carry;
      else
        atomicAdd(y + carry_row, output.times_alpha(carry));
    }
#pragma unroll
    for (int offset = 1; offset < warp_size; offset *= 2) {
      const T lower_sum = __shfl_up_sync(full_mask, sum, offset);
      const index_t lower_row = __shfl_up_sync(full_mask, row, offset);
      if (lane >= offset && lower_row == row) sum += lower_sum;
    }
    const index_t row_above = __shfl_down_sync(full_mask, row, 1);
    if (lane < warp_size - 1 && row_above != row) atomicAdd(y + row, output.times_alpha(sum));
    carry = __shfl_sync(full_mask, sum, warp_size - 1);
    carry_row = __shfl_sync(full_mask, row, warp_size - 1);
  }
  if (lane == 0) atomicAdd(y + carry_row, output.times_alpha(carry));
}

// Blocks so that every chunk of entries_per_warp entries gets one warp.
inline unsigned int coo_blocks(std::int64_t entries, int block_size) {
  const std::int64_t warps = (entries + entries_per_warp - 1) / entries_per_warp;
  const std::int64_t warps_per_block = block_size / warp_size;
  return static_cast<unsigned int>((warps + warps_per_block - 1) / warps_per_block);
}

}  // namespace spk::coo_kernels
