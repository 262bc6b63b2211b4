#pragma once
// RowBlock<T>: consecutive rows [first_row, first_row + rows) of a square matrix of
// global_rows rows, with global column indices: one process's share of a distributed system
// (distributed/). Rows and entries of the block are counted in 32 bits (a block fits one
// process); row and column numbers of the whole matrix in 64 bits, so the whole matrix may
// have more than 2^31 rows.
//
//   row_offsets  rows+1 entries; local row i holds entries [row_offsets[i], row_offsets[i+1])
//   columns      nnz global column indices, 0-based, in [0, global_rows)
//   values       nnz values
#include <cstddef>
#include <vector>

#include "spkrylov/distributed_info.hpp"
#include "spmv/host/csr_matrix.hpp"

namespace spk {

template <class T>
struct RowBlock {
  global_index_t global_rows = 0;
  global_index_t first_row = 0;
  index_t rows = 0;
  std::vector<index_t> row_offsets{0};
  std::vector<global_index_t> columns;
  std::vector<T> values;

  global_index_t end_row() const { return first_row + rows; }
  index_t nnz() const { return static_cast<index_t>(columns.size()); }
};

// Rows [first_row, end_row) of a whole matrix (32-bit), as a RowBlock.
template <class T>
RowBlock<T> rows_of(const CsrMatrix<T>& matrix, global_index_t first_row, global_index_t end_row) {
  RowBlock<T> block;
  block.global_rows = matrix.rows;
  block.first_row = first_row;
  block.rows = static_cast<index_t>(end_row - first_row);
  const auto begin = static_cast<std::size_t>(matrix.row_offsets[first_row]);
  const auto end = static_cast<std::size_t>(matrix.row_offsets[end_row]);
  block.row_offsets.resize(static_cast<std::size_t>(block.rows) + 1);
  for (index_t row = 0; row <= block.rows; ++row)
    block.row_offsets[row] = matrix.row_offsets[first_row + row] - static_cast<index_t>(begin);
  block.columns.assign(matrix.columns.begin() + begin, matrix.columns.begin() + end);
  block.values.assign(matrix.values.begin() + begin, matrix.values.begin() + end);
  return block;
}

// A non-owning view of `rows`, to construct a DistributedSolver.
template <class T>
DistributedCsrArrays<T> arrays_of(const RowBlock<T>& rows) {
  return {rows.rows, rows.row_offsets.data(), rows.columns.data(), rows.values.data()};
}

// The same rows, values cast to another precision (double -> float for precision: single).
template <class To, class From>
RowBlock<To> convert_values(const RowBlock<From>& rows) {
  RowBlock<To> converted;
  converted.global_rows = rows.global_rows;
  converted.first_row = rows.first_row;
  converted.rows = rows.rows;
  converted.row_offsets = rows.row_offsets;
  converted.columns = rows.columns;
  converted.values.assign(rows.values.begin(), rows.values.end());
  return converted;
}

}  // namespace spk
