#include "distributed/local_halo_split.hpp"

#include <algorithm>
#include <string>

namespace spk {

namespace {

// Empty rows x cols CSR with room for `nnz` entries.
template <class T>
CsrMatrix<T> empty_csr(index_t rows, index_t cols, std::size_t nnz) {
  CsrMatrix<T> matrix;
  matrix.rows = rows;
  matrix.cols = cols;
  matrix.row_offsets.assign(static_cast<std::size_t>(rows) + 1, 0);
  matrix.columns.reserve(nnz);
  matrix.values.reserve(nnz);
  return matrix;
}

// The distinct columns outside [first, end), ascending.
template <class T>
std::vector<global_index_t> distinct_halo_columns(const RowBlock<T>& rows) {
  std::vector<global_index_t> halo;
  for (const global_index_t column : rows.columns)
    if (column < rows.first_row || column >= rows.end_row()) halo.push_back(column);
  std::sort(halo.begin(), halo.end());
  halo.erase(std::unique(halo.begin(), halo.end()), halo.end());
  return halo;
}

// Consecutive halo slots with the same owner, in rank order.
std::vector<HaloSource> halo_sources(const std::vector<global_index_t>& halo_columns,
                                     const RowPartition& partition) {
  std::vector<HaloSource> sources;
  for (std::size_t slot = 0; slot < halo_columns.size(); ++slot) {
    const int owner = partition.owner(halo_columns[slot]);
    if (sources.empty() || sources.back().rank != owner)
      sources.push_back({owner, static_cast<index_t>(slot), 0});
    ++sources.back().count;
  }
  return sources;
}

template <class T>
void check_block(const RowBlock<T>& rows, const RowPartition& partition, int rank) {
  if (rows.first_row != partition.first_row(rank) || rows.end_row() != partition.end_row(rank))
    throw BadInput("rows [" + std::to_string(rows.first_row) + ", " +
                   std::to_string(rows.end_row()) + ") are not this process's block [" +
                   std::to_string(partition.first_row(rank)) + ", " +
                   std::to_string(partition.end_row(rank)) + ")");
  if (rows.row_offsets.size() != static_cast<std::size_t>(rows.rows) + 1 ||
      rows.row_offsets.front() != 0 ||
      static_cast<std::size_t>(rows.row_offsets.back()) != rows.columns.size() ||
      rows.columns.size() != rows.values.size())
    throw BadInput("the rows' CSR arrays are inconsistent (" +
                   std::to_string(rows.row_offsets.size()) + " row offsets for " +
                   std::to_string(rows.rows) + " rows, " + std::to_string(rows.columns.size()) +
                   " columns, " + std::to_string(rows.values.size()) + " values)");
  for (index_t row = 0; row < rows.rows; ++row) {
    if (rows.row_offsets[row + 1] < rows.row_offsets[row])
      throw BadInput("row_offsets decrease at global row " + std::to_string(rows.first_row + row) +
                     " (0-based)");
    for (index_t k = rows.row_offsets[row]; k < rows.row_offsets[row + 1]; ++k)
      if (rows.columns[k] < 0 || rows.columns[k] >= partition.global_rows())
        throw BadInput("column index " + std::to_string(rows.columns[k]) + " in global row " +
                       std::to_string(rows.first_row + row) + " (0-based) is out of range 0.." +
                       std::to_string(partition.global_rows() - 1));
  }
}

}  // namespace

template <class T>
SplitRows<T> split_local_and_halo(const RowBlock<T>& rows, const RowPartition& partition,
                                  int rank) {
  check_block(rows, partition, rank);
  SplitRows<T> split;
  split.first_row = rows.first_row;
  split.halo_columns = distinct_halo_columns(rows);
  split.sources = halo_sources(split.halo_columns, partition);
  const auto halo_size = static_cast<std::int64_t>(split.halo_columns.size());
  check_index_range(rows.rows + halo_size, "own rows + halo columns of one process");
  const auto slots = static_cast<index_t>(halo_size);

  split.local = empty_csr<T>(rows.rows, rows.rows, rows.columns.size());
  split.halo = empty_csr<T>(rows.rows, slots, 0);
  split.pattern = empty_csr<T>(rows.rows, rows.rows + slots, rows.columns.size());
  for (index_t row = 0; row < rows.rows; ++row) {
    for (index_t k = rows.row_offsets[row]; k < rows.row_offsets[row + 1]; ++k) {
      const global_index_t column = rows.columns[k];
      const bool own = column >= rows.first_row && column < rows.end_row();
      // own column: j - first_row; halo column: its slot, rows + slot in the pattern
      const index_t slot =
          own ? 0
              : static_cast<index_t>(
                    std::lower_bound(split.halo_columns.begin(), split.halo_columns.end(), column) -
                    split.halo_columns.begin());
      CsrMatrix<T>& part = own ? split.local : split.halo;
      part.columns.push_back(own ? static_cast<index_t>(column - rows.first_row) : slot);
      part.values.push_back(rows.values[k]);
      split.pattern.columns.push_back(own ? part.columns.back() : rows.rows + slot);
      split.pattern.values.push_back(rows.values[k]);
    }
    split.local.row_offsets[row + 1] = split.local.nnz();
    split.halo.row_offsets[row + 1] = split.halo.nnz();
    split.pattern.row_offsets[row + 1] = split.pattern.nnz();
  }
  return split;
}

template <class T>
void scatter_values(SplitRows<T>& split, const T* values) {
  const index_t own_columns = split.pattern.rows;
  index_t local = 0, halo = 0;
  for (index_t k = 0; k < split.pattern.nnz(); ++k) {
    split.pattern.values[k] = values[k];
    if (split.pattern.columns[k] < own_columns)
      split.local.values[local++] = values[k];
    else
      split.halo.values[halo++] = values[k];
  }
}

template SplitRows<float> split_local_and_halo(const RowBlock<float>&, const RowPartition&, int);
template SplitRows<double> split_local_and_halo(const RowBlock<double>&, const RowPartition&, int);
template void scatter_values(SplitRows<float>&, const float*);
template void scatter_values(SplitRows<double>&, const double*);

}  // namespace spk
