#include "spmv/host/coo_to_csr.hpp"

#include <algorithm>

namespace spk {
namespace {

struct ColumnValue {
  index_t column;
  double value;
};

bool mirrored(Mirror mirror, index_t row, index_t column) {
  return mirror != Mirror::none && row != column;
}

}  // namespace

std::int64_t expanded_entry_count(const CooEntries& entries, Mirror mirror) {
  std::int64_t count = static_cast<std::int64_t>(entries.size());
  if (mirror == Mirror::none) return count;
  for (std::size_t k = 0; k < entries.size(); ++k)
    if (entries.row_indices[k] != entries.column_indices[k]) ++count;
  return count;
}

CsrMatrix<double> coo_to_csr(const CooEntries& entries, Mirror mirror) {
  const std::int64_t expanded = expanded_entry_count(entries, mirror);
  check_index_range(expanded, "nonzeros (after symmetric expansion)");
  const double mirror_sign = mirror == Mirror::skew_symmetric ? -1.0 : 1.0;

  // Bucket the (expanded) entries by row.
  std::vector<index_t> bucket_start(static_cast<std::size_t>(entries.rows) + 1, 0);
  for (std::size_t k = 0; k < entries.size(); ++k) {
    const index_t row = entries.row_indices[k], column = entries.column_indices[k];
    ++bucket_start[row + 1];
    if (mirrored(mirror, row, column)) ++bucket_start[column + 1];
  }
  for (index_t row = 0; row < entries.rows; ++row) bucket_start[row + 1] += bucket_start[row];

  std::vector<ColumnValue> bucketed(static_cast<std::size_t>(expanded));
  std::vector<index_t> cursor(bucket_start.begin(), bucket_start.end() - 1);
  for (std::size_t k = 0; k < entries.size(); ++k) {
    const index_t row = entries.row_indices[k], column = entries.column_indices[k];
    const double value = entries.values[k];
    bucketed[cursor[row]++] = {column, value};
    if (mirrored(mirror, row, column)) bucketed[cursor[column]++] = {row, mirror_sign * value};
  }

  // Sort each row by column and merge duplicates, compacting in place.
  CsrMatrix<double> matrix;
  matrix.rows = entries.rows;
  matrix.cols = entries.cols;
  matrix.row_offsets.assign(static_cast<std::size_t>(entries.rows) + 1, 0);
  const auto by_column = [](const ColumnValue& a, const ColumnValue& b) {
    return a.column < b.column;
  };
  index_t written = 0;
  for (index_t row = 0; row < entries.rows; ++row) {
    const auto first = bucketed.begin() + bucket_start[row];
    const auto last = bucketed.begin() + bucket_start[row + 1];
    if (!std::is_sorted(first, last, by_column)) std::stable_sort(first, last, by_column);
    for (auto entry = first; entry != last; ++entry) {
      if (written > matrix.row_offsets[row] && bucketed[written - 1].column == entry->column)
        bucketed[written - 1].value += entry->value;
      else
        bucketed[written++] = *entry;
    }
    matrix.row_offsets[row + 1] = written;
  }

  matrix.columns.resize(static_cast<std::size_t>(written));
  matrix.values.resize(static_cast<std::size_t>(written));
  for (index_t k = 0; k < written; ++k) {
    matrix.columns[k] = bucketed[k].column;
    matrix.values[k] = bucketed[k].value;
  }
  return matrix;
}

}  // namespace spk
