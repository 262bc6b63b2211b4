#include "distributed/amg/whole_rows.hpp"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <utility>

#include "core/host_parallel.hpp"
#include "distributed/amg/column_set.hpp"
#include "spkrylov/errors.hpp"

namespace spk {

WholeRows whole_rows(const RowBlock<double>& block, global_index_t first_column,
                     index_t own_columns) {
  return whole_rows(block, first_column, own_columns,
                    distinct_outside(block.columns, first_column, first_column + own_columns));
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

  // Each entry's local column.
  CsrMatrix<double>& m = whole.matrix;
  m.rows = block.rows;
  m.cols = own_columns + static_cast<index_t>(halo.size());
  m.row_offsets = block.row_offsets;
  const ColumnSlots slots(halo);
  const auto entries = static_cast<std::int64_t>(block.columns.size());
  std::vector<index_t> local(block.columns.size());
  std::int64_t first_unknown = entries;  // the first entry whose column is neither
  const bool parallel = entries >= host_parallel_from;
#pragma omp parallel for schedule(static) reduction(min : first_unknown) if (parallel)
  for (std::int64_t k = 0; k < entries; ++k) {
    const global_index_t column = block.columns[static_cast<std::size_t>(k)];
    index_t& mapped = local[static_cast<std::size_t>(k)];
    if (own(column)) {
      mapped = static_cast<index_t>(column - first_column);
      continue;
    }
    const index_t slot = slots.slot_of(column);
    if (slot < 0) first_unknown = std::min(first_unknown, k);
    mapped = own_columns + std::max<index_t>(slot, 0);
  }
  if (first_unknown < entries)
    throw BadInput("amg setup: column index " +
                   std::to_string(block.columns[static_cast<std::size_t>(first_unknown)]) +
                   " is neither this process's nor in its halo (internal error)");

  // Each row's entries in local order (order: the permutation). A row sorted by global column
  // (the rows send_rows_to_owners sums) needs no sort: its own entries come first, then those
  // below the own range, then those above, each group in the given order. Rows in parallel;
  // the first row holding a column twice is named after the loop.
  whole.order.resize(block.columns.size());
  m.columns.resize(block.columns.size());
  m.values.resize(block.columns.size());
  index_t first_twice = block.rows;
#pragma omp parallel for schedule(dynamic, 4096) reduction(min : first_twice) if (parallel)
  for (index_t row = 0; row < block.rows; ++row) {
    const index_t begin = block.row_offsets[row], end = block.row_offsets[row + 1];
    const auto first = block.columns.begin() + begin, last = block.columns.begin() + end;
    if (std::is_sorted(first, last)) {
      index_t own_count = 0, below_count = 0;
      for (auto column = first; column != last; ++column) {
        own_count += own(*column) ? 1 : 0;
        below_count += *column < first_column ? 1 : 0;
      }
      index_t next[3] = {begin, begin + own_count, begin + own_count + below_count};
      for (index_t k = begin; k < end; ++k) {
        const global_index_t column = block.columns[k];
        const int group = own(column) ? 0 : column < first_column ? 1 : 2;
        whole.order[next[group]++] = k;
      }
    } else {
      std::iota(whole.order.begin() + begin, whole.order.begin() + end, begin);
      std::sort(whole.order.begin() + begin, whole.order.begin() + end,
                [&](index_t x, index_t y) { return local[x] < local[y]; });
    }
    for (index_t k = begin; k < end; ++k) {
      m.columns[k] = local[static_cast<std::size_t>(whole.order[k])];
      m.values[k] = block.values[static_cast<std::size_t>(whole.order[k])];
      if (k > begin && m.columns[k] <= m.columns[k - 1]) first_twice = std::min(first_twice, row);
    }
  }
  if (first_twice < block.rows)
    for (index_t k = block.row_offsets[first_twice] + 1; k < block.row_offsets[first_twice + 1];
         ++k)
      if (m.columns[k] <= m.columns[k - 1])
        throw BadInput("amg setup: global row " + std::to_string(block.first_row + first_twice) +
                       " holds column " + std::to_string(block.columns[whole.order[k]]) + " twice");
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
