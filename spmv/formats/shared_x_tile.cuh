#pragma once
// x_cache: shared, the device side: a warp copies the slice of x its rows touch into its own
// tile of shared memory, then reads x there. After Mazzucchi ( "Advanced CUDA
// Strategies to Parallelize SpMV", Algorithm 4, warp-per-row SpMV with shared-memory tiling):
// "compute the min and max column indices accessed in this row ... if this tile is small
// enough (1024 or fewer values), the warp loads it into shared memory"; otherwise x is read
// from global memory. Here the tile covers the rows of the whole warp (one row at 32 threads
// per row, 32 / w rows at w threads per row).
//
//   warp_column_span(first_column, last_column)
//                        every lane passes its row's first and last column (or an empty span,
//                        first > last, for no row); returns the smallest first and the largest
//                        last over the warp (butterfly shuffles: every lane gets the result)
//   stage_x_tile(tile, capacity, x, span)
//                        the warp copies x[span.first .. span.last] into `tile` with coalesced
//                        __ldg loads when it holds at most `capacity` values, else copies
//                        nothing; returns the SharedTileXReader over it. Every lane of the warp
//                        must call it (two __syncwarp: the previous tile is no longer read
//                        when the copy starts, the copy is complete when it returns).
//   SharedTileXReader    load(column): tile[column - first] when the column lies in the tile,
//                        else __ldg(x + column). The check makes the result right whatever the
//                        columns are: CSR columns need not be sorted (device arrays of a caller),
//                        and with unsorted rows the first and last entries only choose the
//                        window, entries outside it are read from global memory.
//
// Capacity: at most kSharedXTileValues (1024, the paper's tile: 8 KB of doubles) per warp, less
// when the block's warps would not fit the device's shared memory per block (csr_vector.cu
// picks it at launch: shared_x_tile_capacity).
#include <cuda_runtime.h>

#include <climits>
#include <cstddef>

#include "spmv/host/csr_matrix.hpp"

namespace spk {

constexpr unsigned int kSharedXTileValues = 1024;

// Values of x each warp's tile holds with `warps_per_block` warps in a block and
// `shared_bytes_per_block` bytes of shared memory per block: kSharedXTileValues, or fewer (a
// multiple of 32) when that does not fit.
inline unsigned int shared_x_tile_capacity(int warps_per_block, std::size_t value_bytes,
                                           std::size_t shared_bytes_per_block) {
  const std::size_t fitting =
      shared_bytes_per_block / (static_cast<std::size_t>(warps_per_block) * value_bytes);
  const std::size_t capacity = fitting < kSharedXTileValues ? fitting : kSharedXTileValues;
  return static_cast<unsigned int>(capacity / 32 * 32);
}

struct ColumnSpan {
  index_t first;  // first > last: empty
  index_t last;
};

__device__ __forceinline__ ColumnSpan warp_column_span(index_t first_column, index_t last_column) {
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) {
    first_column = min(first_column, __shfl_xor_sync(0xffffffffu, first_column, offset));
    last_column = max(last_column, __shfl_xor_sync(0xffffffffu, last_column, offset));
  }
  return ColumnSpan{first_column, last_column};
}

// An empty span for a lane without a row (or with a row the kernel does not compute).
__device__ __forceinline__ ColumnSpan no_columns() {
  return ColumnSpan{INT_MAX, -1};
}

template <class T>
struct SharedTileXReader {
  using value_type = T;
  const T* tile;            // x[first_column, first_column + length), in shared memory
  const T* __restrict__ x;  // all of x, in global memory
  index_t first_column;
  unsigned int length;  // 0: no tile, every load goes to global memory

  __device__ __forceinline__ T load(int column) const {
    const unsigned int offset =
        static_cast<unsigned int>(column) - static_cast<unsigned int>(first_column);
    return offset < length ? tile[offset] : __ldg(x + column);
  }
};

template <class T>
__device__ __forceinline__ SharedTileXReader<T> stage_x_tile(T* tile, unsigned int capacity,
                                                             const T* __restrict__ x,
                                                             ColumnSpan span) {
  unsigned int length = 0;
  // span.last - span.first cannot overflow: both are columns in [0, 2^31 - 1) when not empty.
  if (span.first <= span.last && static_cast<unsigned int>(span.last - span.first) < capacity)
    length = static_cast<unsigned int>(span.last - span.first) + 1u;
  __syncwarp();  // every lane has finished reading the previous tile
  for (unsigned int i = threadIdx.x % 32u; i < length; i += 32u)
    tile[i] = __ldg(x + span.first + i);
  __syncwarp();  // the copy is visible to the whole warp
  return SharedTileXReader<T>{tile, x, span.first, length};
}

}  // namespace spk
