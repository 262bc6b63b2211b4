#include "distributed/amg/whole_rows.hpp"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <utility>

#include "spkrylov/errors.hpp"

namespace spk {

WholeRows whole_rows(const RowBlock<double>& block, global_index_t first_column,
                     index_t own_columns) {
  std::vector<global_index_t> halo;
  for (const global_index_t column : block.columns)
    if (column < first_column || column >= first_column + own_columns) halo.push_back(column);
  std::sort(halo.begin(), halo.end());
  halo.erase(std::unique(halo.begin(), halo.end()), halo.end());
  return whole_rows(block, first_column, own_columns, std::move(halo));
}

WholeRows whole_rows(const RowBlock<double>& block, global_index_t first_column,
                     index_t own_columns, std::vector<global_index_t> halo_columns) {
  const global_index_t end_column = first_column + own_columns;
  const auto own = [&](global_index_t column) {
    return column >= first_column && column < end_column;
  };
  WholeRows whole;
  whole.halo_columns = std::move(halo_columns);
  const std::vector<global_index_t>& halo = whole.halo_columns;
  check_index_range(static_cast<std::int64_t>(own_columns) + static_cast<std::int64_t>(halo.size()),
                    "own columns + halo columns of one process");

  // Each entry's local column; each row's entries sorted by it (order: the sort's permutation).
  CsrMatrix<double>& m = whole.matrix;
  m.rows = block.rows;
  m.cols = own_columns + static_cast<index_t>(halo.size());
  m.row_offsets = block.row_offsets;
  std::vector<index_t> local(block.columns.size());
  for (std::size_t k = 0; k < block.columns.size(); ++k) {
    const global_index_t column = block.columns[k];
    if (own(column)) {
      local[k] = static_cast<index_t>(column - first_column);
      continue;
    }
    const auto slot = std::lower_bound(halo.begin(), halo.end(), column);
    if (slot == halo.end() || *slot != column)
      throw BadInput("amg setup: column index " + std::to_string(column) +
                     " is neither this process's nor in its halo (internal error)");
    local[k] = own_columns + static_cast<index_t>(slot - halo.begin());
  }
  whole.order.resize(block.columns.size());
  std::iota(whole.order.begin(), whole.order.end(), 0);
  m.columns.resize(block.columns.size());
  m.values.resize(block.columns.size());
  for (index_t row = 0; row < block.rows; ++row) {
    const auto begin = whole.order.begin() + block.row_offsets[row];
    const auto end = whole.order.begin() + block.row_offsets[row + 1];
    std::sort(begin, end, [&](index_t x, index_t y) { return local[x] < local[y]; });
    for (index_t k = block.row_offsets[row]; k < block.row_offsets[row + 1]; ++k) {
      m.columns[k] = local[static_cast<std::size_t>(whole.order[k])];
      m.values[k] = block.values[static_cast<std::size_t>(whole.order[k])];
      if (k > block.row_offsets[row] && m.columns[k] == m.columns[k - 1])
        throw BadInput("amg setup: global row " + std::to_string(block.first_row + row) +
                       " holds column " + std::to_string(block.columns[whole.order[k]]) + " twice");
    }
  }
  return whole;
}

RowBlock<double> global_rows_of(const CsrMatrix<double>& rows, global_index_t first_row,
                                global_index_t global_rows, global_index_t first_column,
                                index_t own_columns,
                                const std::vector<global_index_t>& halo_columns) {
  RowBlock<double> block;
  block.global_rows = global_rows;
  block.first_row = first_row;
  block.rows = rows.rows;
  block.row_offsets = rows.row_offsets;
  block.columns.resize(rows.columns.size());
  for (std::size_t k = 0; k < rows.columns.size(); ++k)
    block.columns[k] = global_column(rows.columns[k], first_column, own_columns, halo_columns);
  block.values = rows.values;
  return block;
}

}  // namespace spk
