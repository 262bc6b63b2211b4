#include "distributed/local_halo_split.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "core/host_parallel.hpp"
#include "core/resident_pages.hpp"
#include "spkrylov/errors.hpp"

namespace spk {

namespace {

// Rows (or halo entries) below which a pass runs on one thread (core/host_parallel.hpp).
constexpr std::int64_t parallel_from = host_parallel_from;

// Rows [first_row, first_row + rows) as the split reads them, not copied: a RowBlock's arrays
// or the caller's (DistributedCsrArrays). row_offsets: rows + 1, from 0.
template <class T>
struct RowsView {
  global_index_t first_row = 0;
  index_t rows = 0;
  const index_t* row_offsets = nullptr;
  const global_index_t* columns = nullptr;
  const T* values = nullptr;
};

// The first local row whose offsets decrease, or pass the last offset (nnz: they decrease
// later); rows when none does. The rows before it lie within the nnz entries.
template <class T>
index_t first_decreasing_row(const RowsView<T>& rows) {
  const index_t nnz = rows.row_offsets[rows.rows];
  index_t first = rows.rows;
#pragma omp parallel for schedule(static) reduction(min : first) if (rows.rows >= parallel_from)
  for (index_t row = 0; row < rows.rows; ++row)
    if (rows.row_offsets[row + 1] < rows.row_offsets[row] || rows.row_offsets[row + 1] > nnz)
      first = std::min(first, row);
  return first;
}

// `count` zeros, the pages mapped in parallel first (core/resident_pages.hpp).
template <class V>
V resident_zeros(std::size_t count) {
  V array;
  reserve_resident(array, count);
  array.resize(count);
  return array;
}

// A CSR matrix of `cols` columns over the given row offsets, its entries zero (the caller
// fills them).
template <class T>
CsrMatrix<T> sized_csr(index_t cols, std::vector<index_t> row_offsets) {
  CsrMatrix<T> matrix;
  matrix.rows = static_cast<index_t>(row_offsets.size()) - 1;
  matrix.cols = cols;
  const auto nnz = static_cast<std::size_t>(row_offsets.back());
  matrix.row_offsets = std::move(row_offsets);
  matrix.columns = resident_zeros<std::vector<index_t>>(nnz);
  matrix.values = resident_zeros<std::vector<T>>(nnz);
  return matrix;
}

// The split in three passes over the rows, each parallel and without a copy of the input:
// count each row's halo entries (checking the columns); place the local entries, the pattern's
// values and own columns, and the halo entries' global columns (offsets from the counts'
// prefix sums); then, with the distinct halo columns sorted, the halo entries' slots.
template <class T>
SplitRows<T> split_view(const RowsView<T>& rows, const RowPartition& row_partition,
                        const RowPartition& column_partition, int rank) {
  if (rows.first_row != row_partition.first_row(rank) ||
      rows.first_row + rows.rows != row_partition.end_row(rank))
    throw BadInput("rows [" + std::to_string(rows.first_row) + ", " +
                   std::to_string(rows.first_row + rows.rows) + ") are not this process's block [" +
                   std::to_string(row_partition.first_row(rank)) + ", " +
                   std::to_string(row_partition.end_row(rank)) + ")");
  const global_index_t global_columns = column_partition.global_rows();
  const global_index_t first_column = column_partition.first_row(rank);
  const global_index_t end_column = column_partition.end_row(rank);
  check_index_range(end_column - first_column, "own columns of one process");
  const auto own_columns = static_cast<index_t>(end_column - first_column);
  const auto own = [&](global_index_t column) {
    return column >= first_column && column < end_column;
  };
  const index_t n = rows.rows;
  const index_t* offsets = rows.row_offsets;

  // Each row's halo entries (its local ones: the rest), and the first column out of range,
  // in the rows before the first whose offsets decrease (the faults in row order).
  const index_t counted = first_decreasing_row(rows);
  auto local_offsets = resident_zeros<std::vector<index_t>>(static_cast<std::size_t>(n) + 1);
  auto halo_offsets = resident_zeros<std::vector<index_t>>(static_cast<std::size_t>(n) + 1);
  index_t bad = offsets[counted];
#pragma omp parallel for schedule(static) reduction(min : bad) if (n >= parallel_from)
  for (index_t row = 0; row < counted; ++row) {
    index_t halo = 0;
    for (index_t k = offsets[row]; k < offsets[row + 1]; ++k) {
      const global_index_t column = rows.columns[k];
      if (column < 0 || column >= global_columns) bad = std::min(bad, k);
      halo += own(column) ? 0 : 1;
    }
    halo_offsets[row + 1] = halo;
    local_offsets[row + 1] = offsets[row + 1] - offsets[row] - halo;
  }
  if (bad < offsets[counted])
    throw_bad_column(rows.first_row, offsets, counted, bad, rows.columns[bad], global_columns);
  if (counted < n) throw_decreasing_offsets(rows.first_row, counted);
  for (index_t row = 0; row < n; ++row) {
    local_offsets[row + 1] += local_offsets[row];
    halo_offsets[row + 1] += halo_offsets[row];
  }

  // The local entries, the pattern (own column: j - first_column), and each halo entry's
  // global column and place in the pattern.
  SplitRows<T> split;
  split.first_row = rows.first_row;
  split.first_column = first_column;
  split.local = sized_csr<T>(own_columns, std::move(local_offsets));
  split.pattern.rows = n;
  const auto entries = static_cast<std::size_t>(offsets[n]);
  reserve_resident(split.pattern.row_offsets, static_cast<std::size_t>(n) + 1);
  split.pattern.row_offsets.assign(offsets, offsets + n + 1);
  split.pattern.columns = resident_zeros<std::vector<index_t>>(entries);
  reserve_resident(split.pattern.values, entries);
  split.pattern.values.assign(rows.values, rows.values + entries);  // in the caller's order
  split.halo = sized_csr<T>(0, std::move(halo_offsets));
  auto halo_global = resident_zeros<std::vector<global_index_t>>(split.halo.columns.size());
  auto halo_place = resident_zeros<std::vector<index_t>>(split.halo.columns.size());
#pragma omp parallel for schedule(static) if (n >= parallel_from)
  for (index_t row = 0; row < n; ++row) {
    index_t local = split.local.row_offsets[row], halo = split.halo.row_offsets[row];
    for (index_t k = offsets[row]; k < offsets[row + 1]; ++k) {
      const global_index_t column = rows.columns[k];
      if (own(column)) {
        split.local.columns[local] = static_cast<index_t>(column - first_column);
        split.pattern.columns[k] = split.local.columns[local];
        split.local.values[local++] = rows.values[k];
      } else {
        halo_global[halo] = column;
        halo_place[halo] = k;
        split.halo.values[halo++] = rows.values[k];
      }
    }
  }

  // The distinct halo columns, ascending (hence grouped by owner in rank order); each halo
  // entry's slot, and in the pattern own_columns + slot.
  split.halo_columns = halo_global;
  std::sort(split.halo_columns.begin(), split.halo_columns.end());
  split.halo_columns.erase(std::unique(split.halo_columns.begin(), split.halo_columns.end()),
                           split.halo_columns.end());
  split.sources = halo_sources(split.halo_columns, column_partition);
  const auto halo_size = static_cast<std::int64_t>(split.halo_columns.size());
  check_index_range(own_columns + halo_size, "own columns + halo columns of one process");
  const auto slots = static_cast<index_t>(halo_size);
  split.halo.cols = slots;
  split.pattern.cols = own_columns + slots;
  const std::vector<global_index_t>& halo_columns = split.halo_columns;
  const auto halo_entries = static_cast<index_t>(halo_global.size());
#pragma omp parallel for schedule(static) if (halo_entries >= parallel_from)
  for (index_t h = 0; h < halo_entries; ++h) {
    const auto slot = static_cast<index_t>(
        std::lower_bound(halo_columns.begin(), halo_columns.end(), halo_global[h]) -
        halo_columns.begin());
    split.halo.columns[h] = slot;
    split.pattern.columns[halo_place[h]] = own_columns + slot;
  }
  split.local_entries = split.local.nnz();
  split.halo_entries = split.halo.nnz();
  return split;
}

}  // namespace

void throw_bad_column(global_index_t first_row, const index_t* row_offsets, index_t rows_scanned,
                      index_t k, global_index_t column, global_index_t global_columns) {
  const index_t row = static_cast<index_t>(
      std::upper_bound(row_offsets, row_offsets + rows_scanned + 1, k) - row_offsets - 1);
  throw BadInput("column index " + std::to_string(column) + " in global row " +
                 std::to_string(first_row + row) + " (0-based) is out of range 0.." +
                 std::to_string(global_columns - 1));
}

void throw_decreasing_offsets(global_index_t first_row, index_t row) {
  throw BadInput("row_offsets decrease at global row " + std::to_string(first_row + row) +
                 " (0-based)");
}

std::vector<HaloSource> halo_sources(const std::vector<global_index_t>& halo_columns,
                                     const RowPartition& columns) {
  std::vector<HaloSource> sources;
  for (std::size_t slot = 0; slot < halo_columns.size(); ++slot) {
    const int owner = columns.owner(halo_columns[slot]);
    if (sources.empty() || sources.back().rank != owner)
      sources.push_back({owner, static_cast<index_t>(slot), 0});
    ++sources.back().count;
  }
  return sources;
}

template <class T>
SplitRows<T> split_local_and_halo(const RowBlock<T>& rows, const RowPartition& row_partition,
                                  const RowPartition& column_partition, int rank) {
  if (rows.row_offsets.size() != static_cast<std::size_t>(rows.rows) + 1 ||
      rows.row_offsets.front() != 0 ||
      static_cast<std::size_t>(rows.row_offsets.back()) != rows.columns.size() ||
      rows.columns.size() != rows.values.size())
    throw BadInput("the rows' CSR arrays are inconsistent (" +
                   std::to_string(rows.row_offsets.size()) + " row offsets for " +
                   std::to_string(rows.rows) + " rows, " + std::to_string(rows.columns.size()) +
                   " columns, " + std::to_string(rows.values.size()) + " values)");
  return split_view(RowsView<T>{rows.first_row, rows.rows, rows.row_offsets.data(),
                                rows.columns.data(), rows.values.data()},
                    row_partition, column_partition, rank);
}

template <class T>
SplitRows<T> split_local_and_halo(const RowBlock<T>& rows, const RowPartition& partition,
                                  int rank) {
  return split_local_and_halo(rows, partition, partition, rank);
}

template <class T>
SplitRows<T> split_local_and_halo(const DistributedCsrArrays<T>& arrays, global_index_t first_row,
                                  const RowPartition& partition, int rank) {
  if (arrays.rows < 0 || arrays.row_offsets == nullptr || arrays.row_offsets[0] != 0 ||
      arrays.row_offsets[arrays.rows] < 0 ||
      (arrays.row_offsets[arrays.rows] > 0 &&
       (arrays.columns == nullptr || arrays.values == nullptr)))
    throw BadInput("DistributedCsrArrays: " + std::to_string(arrays.rows) +
                   " rows whose row_offsets, columns or values are not CSR arrays (offsets from "
                   "0 to nnz >= 0, non-null pointers)");
  return split_view(
      RowsView<T>{first_row, arrays.rows, arrays.row_offsets, arrays.columns, arrays.values},
      partition, partition, rank);
}

template <class T>
void scatter_values(SplitRows<T>& split, const T* values) {
  const index_t own_columns = split.local.cols;
  const index_t rows = split.pattern.rows;
  const std::vector<index_t>& offsets = split.pattern.row_offsets;
#pragma omp parallel for schedule(static) if (rows >= parallel_from)
  for (index_t row = 0; row < rows; ++row) {
    index_t local = split.local.row_offsets[row], halo = split.halo.row_offsets[row];
    for (index_t k = offsets[row]; k < offsets[row + 1]; ++k) {
      split.pattern.values[k] = values[k];
      if (split.pattern.columns[k] < own_columns)
        split.local.values[local++] = values[k];
      else
        split.halo.values[halo++] = values[k];
    }
  }
}

#define SPK_INSTANTIATE(T)                                                                   \
  template SplitRows<T> split_local_and_halo(const RowBlock<T>&, const RowPartition&,        \
                                             const RowPartition&, int);                      \
  template SplitRows<T> split_local_and_halo(const RowBlock<T>&, const RowPartition&, int);  \
  template SplitRows<T> split_local_and_halo(const DistributedCsrArrays<T>&, global_index_t, \
                                             const RowPartition&, int);                      \
  template void scatter_values(SplitRows<T>&, const T*);
SPK_INSTANTIATE(float)
SPK_INSTANTIATE(double)
#undef SPK_INSTANTIATE

}  // namespace spk
