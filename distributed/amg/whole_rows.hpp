#pragma once
// A process's rows of a distributed matrix in the form the GPU path's distributed AMG setup
// keeps them on the device (DeviceDistributedLevel, device_distributed_level.hpp), and back to
// global column ids. The "whole" form is the CsrMatrix of PETSc's MPIAIJ diagonal and
// off-diagonal blocks side by side (split.pattern of local_halo_split.hpp), with each row
// sorted:
//
//   columns [0, own)           the columns this process owns: global column first_column + c
//   columns [own, own + H)     halo slot k = c - own: global column halo_columns[k], the H
//                              distinct other columns, ascending (hence grouped by owner)
//
// so that every row lists its own columns first, then its halo slots, each ascending: the
// 32-bit CSR the one-GPU device pieces (cuSPARSE SpGEMM, the strength graph on the own
// columns) take as it is. Host code; nothing here communicates.
#include <vector>

#include "spmv/host/csr_matrix.hpp"
#include "spmv/host/row_block.hpp"

namespace spk {

struct WholeRows {
  CsrMatrix<double> matrix;  // rows x (own + H), each row sorted
  std::vector<global_index_t> halo_columns;
  std::vector<index_t> order;  // matrix entry k is entry order[k] of the rows given
};

// `block` (global columns, any order within a row, no repeats) in the whole form for the own
// columns [first_column, first_column + own_columns). BadInput when a row repeats a column.
WholeRows whole_rows(const RowBlock<double>& block, global_index_t first_column,
                     index_t own_columns);
// The same with the halo given (ascending; it must hold every column outside the own range,
// and may hold more: the form of rows merged with others, device_row_merge.hpp). BadInput for
// a column outside both.
WholeRows whole_rows(const RowBlock<double>& block, global_index_t first_column,
                     index_t own_columns, std::vector<global_index_t> halo_columns);

// The global column of local column `column` of a whole form.
inline global_index_t global_column(index_t column, global_index_t first_column,
                                    index_t own_columns,
                                    const std::vector<global_index_t>& halo_columns) {
  return column < own_columns ? first_column + column
                              : halo_columns[static_cast<std::size_t>(column - own_columns)];
}

// Rows of a whole form (`rows`: local columns) with their global column ids again, in the same
// order: rows [first_row, first_row + rows.rows) of a matrix of global_rows rows.
RowBlock<double> global_rows_of(const CsrMatrix<double>& rows, global_index_t first_row,
                                global_index_t global_rows, global_index_t first_column,
                                index_t own_columns,
                                const std::vector<global_index_t>& halo_columns);

}  // namespace spk
