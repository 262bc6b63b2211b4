#pragma once
// The merge path of csr-merge (Merrill & Garland, "Merge-based parallel sparse matrix-vector
// multiplication", SC'16): CSR SpMV seen as the merge of list A, the row end offsets
// row_offsets[1..rows], with list B, the nonzero indices 0..nnz-1. The path has rows + nnz
// items; a step "down" consumes nonzero j (its product goes into the running row sum), a step
// "right" ends row i (its sum is final). Nonzero j comes before the end of row i exactly when
// j < row_offsets[i + 1]; a row end comes first on ties. Cutting the path into equal pieces
// gives every thread the same work (rows + nonzeros) whatever the row lengths.
//
// The rules here are shared by the kernels (csr_merge_kernels.cuh) and the host reference
// below (SPK_HOST_DEVICE), so the GPU and the CPU cut the path and walk it the same way:
//   merge_path_search   the coordinate (rows ended, nonzeros consumed) where diagonal d
//                       (rows ended + nonzeros consumed = d) crosses the path: a binary search
//                       over rows, the diagonal and the counts in 64 bits (rows + nnz may pass
//                       2^31), the results 32-bit
//   merge_walk          one thread's sequential walk of `items` path items from a coordinate
//   combine_carries     the reduce-by-row operator of the block scan and the tile fix-up
//
// Host side: merge_path_partition (the tile start coordinates the device search kernel
// writes) and csr_merge_reference_spmv, the whole two-level algorithm (tiles of
// block_threads x items_per_thread path items, thread walks, the block's segmented scan, the
// per-tile carries and their fix-up in tile order) run on the CPU, so its logic is tested
// without a GPU.
#include <cstdint>
#include <vector>

#include "core/host_device.hpp"
#include "spmv/host/csr_matrix.hpp"

namespace spk {

// Path items a thread consumes, by vector type (the SC'16 CUB tuning for sm_60: 5 for double,
// 7 for float). A tile (one thread block) is block_size x this many items; its products live in
// shared memory: 1024 threads x 5 x 8 bytes = 40 KB, under the 48 KB a kernel gets by default.
template <class T>
constexpr int merge_items_per_thread() {
  return sizeof(T) >= 8 ? 5 : 7;
}

// A point of the path: `row` rows ended and `nonzero` nonzeros consumed before it.
struct MergeCoordinate {
  index_t row = 0;
  index_t nonzero = 0;
};

// A row's partial sum handed on along the path: `sum` belongs to row `row`.
template <class T>
struct RowCarry {
  index_t row;
  T sum;
};

// The reduce-by-row operator: `later` absorbs `earlier` when both belong to the same row.
// Associative for the non-decreasing rows of a path.
template <class T>
SPK_HOST_DEVICE inline RowCarry<T> combine_carries(const RowCarry<T>& earlier,
                                                   const RowCarry<T>& later) {
  return later.row == earlier.row ? RowCarry<T>{later.row, earlier.sum + later.sum} : later;
}

// The coordinate on diagonal `diagonal` of the merge of row ends row_ends[0..rows) with the
// nonzero indices nonzero_base .. nonzero_base + nonzeros - 1 (0 <= diagonal <= rows +
// nonzeros). The whole matrix: row_ends = row_offsets + 1, nonzero_base = 0; a tile: its row
// ends and its first nonzero.
SPK_HOST_DEVICE inline MergeCoordinate merge_path_search(std::int64_t diagonal,
                                                         const index_t* row_ends, index_t rows,
                                                         index_t nonzero_base, index_t nonzeros) {
  std::int64_t low = diagonal > nonzeros ? diagonal - nonzeros : 0;
  std::int64_t high = diagonal < rows ? diagonal : rows;
  while (low < high) {
    const std::int64_t pivot = low + (high - low) / 2;
    // Row `pivot` ends before nonzero diagonal - pivot - 1: more than pivot row ends lie on
    // the first `diagonal` items.
    if (row_ends[pivot] <= std::int64_t{nonzero_base} + (diagonal - pivot - 1))
      low = pivot + 1;
    else
      high = pivot;
  }
  return MergeCoordinate{static_cast<index_t>(low), static_cast<index_t>(diagonal - low)};
}

// Where a walk stopped: the row it is in, that row's running sum, and whether it ended a row
// on the way (then first_sum is the sum it gave the first row it ended: the only row whose
// earlier part may lie before the walk's start).
template <class T>
struct MergeWalk {
  index_t row;
  T running;
  bool ended_a_row;
  T first_sum;
};

// Walks `items` (<= MaxItems) path items from (row, nonzero), local to a tile: row_ends[i] is
// the end offset of the tile's row i, with a sentinel past its last row (the tile's nonzero
// end, so the last, unfinished row only takes nonzeros); products[j] = value * x of the tile's
// nonzero j (nonzero_base + j). Every row ended after the first is complete inside the walk:
// finish(row, sum) is called for it.
template <int MaxItems, class T, class Finish>
SPK_HOST_DEVICE inline MergeWalk<T> merge_walk(index_t row, index_t nonzero, int items,
                                               const index_t* row_ends, index_t nonzero_base,
                                               const T* products, Finish&& finish) {
  MergeWalk<T> walk{row, T(0), false, T(0)};
  SPK_UNROLL
  for (int item = 0; item < MaxItems; ++item) {
    if (item >= items) break;
    if (nonzero_base + nonzero < row_ends[walk.row]) {  // down: consume a nonzero
      walk.running += products[nonzero];
      ++nonzero;
    } else {  // right: the row ends
      if (walk.ended_a_row) {
        finish(walk.row, walk.running);
      } else {
        walk.first_sum = walk.running;
        walk.ended_a_row = true;
      }
      walk.running = T(0);
      ++walk.row;
    }
  }
  return walk;
}

// Tiles of `tile_items` path items covering rows + nnz items (0 for an empty path).
inline std::int64_t merge_tiles(std::int64_t path_items, std::int64_t tile_items) {
  return (path_items + tile_items - 1) / tile_items;
}

// The start coordinate of every tile and the path's end: tiles + 1 coordinates, tile t's on
// diagonal min(t * tile_items, rows + nnz).
std::vector<MergeCoordinate> merge_path_partition(const std::vector<index_t>& row_offsets,
                                                  std::int64_t tile_items);

// y = A x by the csr-merge algorithm on the CPU (see the header comment), sums in T.
template <class T>
void csr_merge_reference_spmv(const CsrMatrix<T>& matrix, const T* x, T* y, int block_threads,
                              int items_per_thread);

}  // namespace spk
