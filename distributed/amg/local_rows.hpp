#pragma once
// Helpers of the distributed products (distributed_transpose.hpp, distributed_galerkin.hpp):
// the checks of a process's rows, and its rows with their global columns renumbered densely so
// that the one-process sparse products (solver/amg/sparse_product.hpp, 32-bit CSR) apply.
// Nothing here communicates.
#include <vector>

#include "distributed/row_partition.hpp"
#include "spmv/host/csr_matrix.hpp"
#include "spmv/host/row_block.hpp"

namespace spk {

// BadInput (`where` first) unless `block` is the block of `partition` on process `rank` of
// `processes`, with consistent CSR arrays and columns in [0, global_columns).
void check_rows_block(const RowBlock<double>& block, const RowPartition& partition, int rank,
                      int processes, global_index_t global_columns, const char* where);

// Rows with their distinct global columns numbered 0..c-1 in ascending order: matrix.columns[k]
// is column column_ids[matrix.columns[k]]; matrix.cols = c.
struct CompressedRows {
  CsrMatrix<double> matrix;
  std::vector<global_index_t> column_ids;
};

// The `rows` rows of the CSR arrays (offsets from 0; global columns) so renumbered.
CompressedRows compress_columns(index_t rows, const index_t* row_offsets,
                                const global_index_t* columns, const double* values);
inline CompressedRows compress_columns(const RowBlock<double>& block) {
  return compress_columns(block.rows, block.row_offsets.data(), block.columns.data(),
                          block.values.data());
}

}  // namespace spk
