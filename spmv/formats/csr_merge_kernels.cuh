#pragma once
// The three kernels of csr-merge (merge_path.hpp has the path, its search and the walk):
//
//   merge_tile_starts_kernel  tiles + 1 threads: the start coordinate of every tile (diagonal
//                             t x tile_items, clamped to rows + nnz) by a binary search over
//                             the global row ends. Run once per block size (the partition is
//                             kept), not once per SpMV.
//   csr_merge_kernel          a block per tile (grid-stride over tiles for spmv.grid capped).
//                             1. Staging, coalesced: the tile's nonzero products value * x[col]
//                                (vector type T) and its row ends, plus a sentinel, in shared
//                                memory (products first, row ends after them: at most
//                                tile_items x sizeof(T) + 4 bytes together).
//                             2. Thread t searches its diagonal t x ItemsPerThread inside the
//                                tile (shared memory) and walks ItemsPerThread items: rows it
//                                both starts and ends are written to y at once.
//                             3. A block-wide exclusive reduce-by-row scan of the threads'
//                                trailing (row, partial) pairs, warp shuffles then one warp over
//                                the warp totals: each thread adds the carry of the threads before
//                                it to the first row it ends and writes that row.
//                             4. Thread 0 writes the tile's carry-out (the row still open at the
//                                tile's end, its partial) to the tile's own slot.
//   csr_merge_fixup_kernel    a thread per tile: the first tile of each run of tiles carrying
//                             into the same row adds the run's partials, in tile order, to that
//                             row of y (times alpha). One writer per row, fixed order: no
//                             atomics, y is bitwise the same on every run.
#include <cuda_runtime.h>

#include <climits>
#include <cstdint>

#include "core/device_kernels.cuh"
#include "spmv/formats/block_size.hpp"
#include "spmv/formats/csr_kernel_support.cuh"
#include "spmv/formats/merge_path.hpp"

namespace spk::csr_merge_kernels {

__global__ void __launch_bounds__(kSetupBlockSize)
    merge_tile_starts_kernel(std::int64_t tiles, std::int64_t tile_items, index_t rows, index_t nnz,
                             const index_t* __restrict__ row_offsets,
                             MergeCoordinate* __restrict__ starts) {
  const std::int64_t path_items = std::int64_t{rows} + nnz;
  for_each_index(tiles + 1, [&](std::int64_t tile) {
    const std::int64_t diagonal = tile * tile_items < path_items ? tile * tile_items : path_items;
    starts[tile] = merge_path_search(diagonal, row_offsets + 1, rows, 0, nnz);
  });
}

template <class T>
__device__ __forceinline__ RowCarry<T> shuffle_up(const RowCarry<T>& carry, int offset) {
  return RowCarry<T>{__shfl_up_sync(0xffffffffu, carry.row, offset),
                     __shfl_up_sync(0xffffffffu, carry.sum, offset)};
}

// Inclusive reduce-by-row scan over the 32 lanes of a full warp (Hillis-Steele: log2(32)
// shuffle steps, a fixed order of additions).
template <class T>
__device__ __forceinline__ RowCarry<T> warp_inclusive_carry_scan(RowCarry<T> carry) {
  const int lane = static_cast<int>(threadIdx.x % 32u);
#pragma unroll
  for (int offset = 1; offset < 32; offset *= 2) {
    const RowCarry<T> earlier = shuffle_up(carry, offset);
    if (lane >= offset) carry = combine_carries(earlier, carry);
  }
  return carry;
}

// The block's exclusive reduce-by-row scan of `mine` (rows non-decreasing with the thread
// index): what the threads before this one carry, row -1 when nothing. *block_total: the
// combine of every thread's pair. Every thread of the block must call it; warp_totals is a
// shared array of 32, free again after the caller's next __syncthreads.
template <class T>
__device__ __forceinline__ RowCarry<T> block_exclusive_carry_scan(const RowCarry<T>& mine,
                                                                  RowCarry<T>* warp_totals,
                                                                  RowCarry<T>* block_total) {
  const int lane = static_cast<int>(threadIdx.x % 32u);
  const int warp = static_cast<int>(threadIdx.x / 32u);
  const int warps = static_cast<int>(blockDim.x / 32u);
  const RowCarry<T> inclusive = warp_inclusive_carry_scan(mine);
  const RowCarry<T> before_in_warp = shuffle_up(inclusive, 1);
  if (lane == 31) warp_totals[warp] = inclusive;
  __syncthreads();
  if (warp == 0) {
    // Lanes past the last warp hold copies of its total: they only follow it.
    const RowCarry<T> total =
        warp_inclusive_carry_scan(warp_totals[lane < warps ? lane : warps - 1]);
    __syncwarp();
    if (lane < warps) warp_totals[lane] = total;
  }
  __syncthreads();
  *block_total = warp_totals[warps - 1];
  const RowCarry<T> before_warp = warp > 0 ? warp_totals[warp - 1] : RowCarry<T>{-1, T(0)};
  if (lane == 0) return before_warp;
  return warp > 0 ? combine_carries(before_warp, before_in_warp) : before_in_warp;
}

template <int MaxThreads, int ItemsPerThread, class Value, class T, class Reader, class Output>
__global__ void __launch_bounds__(MaxThreads, min_blocks_for_class(MaxThreads))
    csr_merge_kernel(std::int64_t tiles, const MergeCoordinate* __restrict__ tile_starts,
                     const index_t* __restrict__ row_offsets, const index_t* __restrict__ columns,
                     const Value* __restrict__ values, Reader x, Output output, T* __restrict__ y,
                     index_t* __restrict__ carry_rows, T* __restrict__ carry_sums) {
  extern __shared__ __align__(16) unsigned char tile_bytes[];
  __shared__ RowCarry<T> warp_totals[32];
  T* const products = reinterpret_cast<T*>(tile_bytes);
  for (std::int64_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    const MergeCoordinate start = tile_starts[tile], end = tile_starts[tile + 1];
    const index_t tile_rows = end.row - start.row;
    const index_t tile_nnz = end.nonzero - start.nonzero;
    index_t* const row_ends = reinterpret_cast<index_t*>(products + tile_nnz);
    for (index_t j = static_cast<index_t>(threadIdx.x); j < tile_nnz;
         j += static_cast<index_t>(blockDim.x)) {
      const index_t k = start.nonzero + j;
      products[j] =
          static_cast<T>(load_streaming(values + k)) * x.load(load_streaming(columns + k));
    }
    for (index_t i = static_cast<index_t>(threadIdx.x); i < tile_rows;
         i += static_cast<index_t>(blockDim.x))
      row_ends[i] = row_offsets[start.row + 1 + i];
    if (threadIdx.x == 0) row_ends[tile_rows] = end.nonzero;  // the open row takes nonzeros only
    __syncthreads();

    const int tile_items = tile_rows + tile_nnz;
    const int first_item = static_cast<int>(threadIdx.x) * ItemsPerThread;
    const int diagonal = first_item < tile_items ? first_item : tile_items;
    const int diagonal_end =
        diagonal + ItemsPerThread < tile_items ? diagonal + ItemsPerThread : tile_items;
    const MergeCoordinate begin =
        merge_path_search(diagonal, row_ends, tile_rows, start.nonzero, tile_nnz);
    const MergeWalk<T> walk = merge_walk<ItemsPerThread>(
        begin.row, begin.nonzero, diagonal_end - diagonal, row_ends, start.nonzero, products,
        [&](index_t row, T sum) { output.store(y + start.row + row, sum); });

    RowCarry<T> tile_carry;
    const RowCarry<T> carry_in =
        block_exclusive_carry_scan(RowCarry<T>{walk.row, walk.running}, warp_totals, &tile_carry);
    if (walk.ended_a_row)
      output.store(y + start.row + begin.row,
                   (carry_in.row == begin.row ? carry_in.sum : T(0)) + walk.first_sum);
    if (threadIdx.x == 0) {
      carry_rows[tile] = start.row + tile_carry.row;
      carry_sums[tile] = tile_carry.sum;
    }
    __syncthreads();  // the next tile reuses the shared memory
  }
}

template <class T, class Output>
__global__ void __launch_bounds__(kSetupBlockSize)
    csr_merge_fixup_kernel(std::int64_t tiles, index_t rows, const index_t* __restrict__ carry_rows,
                           const T* __restrict__ carry_sums, Output output, T* __restrict__ y) {
  for_each_index(tiles, [&](std::int64_t tile) {
    const index_t row = carry_rows[tile];
    if (row >= rows || (tile > 0 && carry_rows[tile - 1] == row)) return;  // not a run's head
    T sum = carry_sums[tile];
    for (std::int64_t next = tile + 1; next < tiles && carry_rows[next] == row; ++next)
      sum += carry_sums[next];
    y[row] += output.times_alpha(sum);
  });
}

}  // namespace spk::csr_merge_kernels
