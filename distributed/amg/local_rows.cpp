#include "distributed/amg/local_rows.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

#include "core/host_parallel.hpp"
#include "spkrylov/errors.hpp"

namespace spk {

void check_rows_block(const RowBlock<double>& block, const RowPartition& partition, int rank,
                      int processes, global_index_t global_columns, const char* where) {
  const std::string prefix = std::string(where) + ": ";
  if (partition.processes() != processes)
    throw BadInput(prefix + "the row partition has " + std::to_string(partition.processes()) +
                   " blocks for " + std::to_string(processes) + " processes");
  if (block.first_row != partition.first_row(rank) || block.end_row() != partition.end_row(rank))
    throw BadInput(prefix + "rows [" + std::to_string(block.first_row) + ", " +
                   std::to_string(block.end_row()) + ") are not this process's block [" +
                   std::to_string(partition.first_row(rank)) + ", " +
                   std::to_string(partition.end_row(rank)) + ")");
  if (block.row_offsets.size() != static_cast<std::size_t>(block.rows) + 1 ||
      block.row_offsets.front() != 0 ||
      static_cast<std::size_t>(block.row_offsets.back()) != block.columns.size() ||
      block.columns.size() != block.values.size())
    throw BadInput(prefix + "the rows' CSR arrays are inconsistent (" +
                   std::to_string(block.row_offsets.size()) + " row offsets for " +
                   std::to_string(block.rows) + " rows, " + std::to_string(block.columns.size()) +
                   " columns, " + std::to_string(block.values.size()) + " values)");
  for (index_t row = 0; row < block.rows; ++row) {
    if (block.row_offsets[row + 1] < block.row_offsets[row])
      throw BadInput(prefix + "row_offsets decrease at global row " +
                     std::to_string(block.first_row + row) + " (0-based)");
    for (index_t k = block.row_offsets[row]; k < block.row_offsets[row + 1]; ++k)
      if (block.columns[k] < 0 || block.columns[k] >= global_columns)
        throw BadInput(prefix + "column index " + std::to_string(block.columns[k]) +
                       " in global row " + std::to_string(block.first_row + row) +
                       " (0-based) is out of range 0.." + std::to_string(global_columns - 1));
  }
}

CompressedRows compress_columns(index_t rows, const index_t* row_offsets,
                                const global_index_t* columns, const double* values) {
  const index_t nnz = row_offsets[rows];
  CompressedRows compressed;
  compressed.column_ids.assign(columns, columns + nnz);
  std::vector<global_index_t>& ids = compressed.column_ids;
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  CsrMatrix<double>& matrix = compressed.matrix;
  matrix.rows = rows;
  matrix.cols = static_cast<index_t>(ids.size());
  matrix.row_offsets.assign(row_offsets, row_offsets + rows + 1);
  matrix.columns.resize(static_cast<std::size_t>(nnz));
  matrix.values.assign(values, values + nnz);
#pragma omp parallel for schedule(static) if (nnz >= host_parallel_from)
  for (index_t k = 0; k < nnz; ++k)
    matrix.columns[k] =
        static_cast<index_t>(std::lower_bound(ids.begin(), ids.end(), columns[k]) - ids.begin());
  return compressed;
}

}  // namespace spk
