#include "spmv/formats/merge_path.hpp"

#include <algorithm>
#include <cstddef>
#include <string>

#include "spkrylov/errors.hpp"

namespace spk {

namespace {

constexpr int max_reference_items = 64;

}  // namespace

std::vector<MergeCoordinate> merge_path_partition(const std::vector<index_t>& row_offsets,
                                                  std::int64_t tile_items) {
  if (tile_items < 1) throw BadInput("csr-merge: tile of " + std::to_string(tile_items) + " items");
  const auto rows = static_cast<index_t>(row_offsets.empty() ? 0 : row_offsets.size() - 1);
  const index_t nnz = row_offsets.empty() ? 0 : row_offsets.back();
  const std::int64_t path_items = std::int64_t{rows} + nnz;
  const std::int64_t tiles = merge_tiles(path_items, tile_items);
  std::vector<MergeCoordinate> starts(static_cast<std::size_t>(tiles) + 1);
  for (std::int64_t tile = 0; tile <= tiles; ++tile)
    starts[static_cast<std::size_t>(tile)] = merge_path_search(
        std::min(tile * tile_items, path_items), row_offsets.data() + 1, rows, 0, nnz);
  return starts;
}

template <class T>
void csr_merge_reference_spmv(const CsrMatrix<T>& matrix, const T* x, T* y, int block_threads,
                              int items_per_thread) {
  if (block_threads < 1 || items_per_thread < 1 || items_per_thread > max_reference_items)
    throw BadInput("csr-merge reference: bad tile shape");
  const std::int64_t tile_items = std::int64_t{block_threads} * items_per_thread;
  const std::vector<MergeCoordinate> starts = merge_path_partition(matrix.row_offsets, tile_items);
  const std::size_t tiles = starts.size() - 1;
  std::vector<RowCarry<T>> tile_carries(tiles);
  for (std::size_t tile = 0; tile < tiles; ++tile) {
    const MergeCoordinate start = starts[tile], end = starts[tile + 1];
    const index_t tile_rows = end.row - start.row, tile_nnz = end.nonzero - start.nonzero;
    // What the kernel stages in shared memory: the products and the row ends plus sentinel.
    std::vector<T> products(static_cast<std::size_t>(tile_nnz));
    for (index_t j = 0; j < tile_nnz; ++j) {
      const index_t k = start.nonzero + j;
      products[j] = matrix.values[k] * x[matrix.columns[k]];
    }
    std::vector<index_t> row_ends(static_cast<std::size_t>(tile_rows) + 1);
    for (index_t i = 0; i < tile_rows; ++i) row_ends[i] = matrix.row_offsets[start.row + 1 + i];
    row_ends[tile_rows] = end.nonzero;
    const int items_in_tile = tile_rows + tile_nnz;
    // The threads in order; the block's exclusive scan is a running combine.
    RowCarry<T> carry_in{-1, T(0)};
    for (int thread = 0; thread < block_threads; ++thread) {
      const int diagonal = std::min(thread * items_per_thread, items_in_tile);
      const int diagonal_end = std::min(diagonal + items_per_thread, items_in_tile);
      const MergeCoordinate begin =
          merge_path_search(diagonal, row_ends.data(), tile_rows, start.nonzero, tile_nnz);
      const MergeWalk<T> walk = merge_walk<max_reference_items>(
          begin.row, begin.nonzero, diagonal_end - diagonal, row_ends.data(), start.nonzero,
          products.data(), [&](index_t row, T sum) { y[start.row + row] = sum; });
      if (walk.ended_a_row)
        y[start.row + begin.row] =
            (carry_in.row == begin.row ? carry_in.sum : T(0)) + walk.first_sum;
      carry_in = thread == 0 ? RowCarry<T>{walk.row, walk.running}
                             : combine_carries(carry_in, RowCarry<T>{walk.row, walk.running});
    }
    tile_carries[tile] = RowCarry<T>{start.row + carry_in.row, carry_in.sum};
  }
  // The fix-up: each run of tiles carrying into one row adds its sum, in tile order, once.
  for (std::size_t tile = 0; tile < tiles; ++tile) {
    const index_t row = tile_carries[tile].row;
    if (row >= matrix.rows || (tile > 0 && tile_carries[tile - 1].row == row)) continue;
    T sum = tile_carries[tile].sum;
    for (std::size_t next = tile + 1; next < tiles && tile_carries[next].row == row; ++next)
      sum += tile_carries[next].sum;
    y[row] += sum;
  }
}

template void csr_merge_reference_spmv(const CsrMatrix<float>&, const float*, float*, int, int);
template void csr_merge_reference_spmv(const CsrMatrix<double>&, const double*, double*, int, int);

}  // namespace spk
