#include "spmv/host/matrix_stats.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <limits>

namespace spk {
namespace {

constexpr double rounding_slack = kDominanceSlack;

// Value stored at (row, column), or nullptr.
const double* find_entry(const CsrMatrix<double>& matrix, index_t row, index_t column) {
  const auto first = matrix.columns.begin() + matrix.row_offsets[row];
  const auto last = matrix.columns.begin() + matrix.row_offsets[row + 1];
  const auto found = std::lower_bound(first, last, column);
  if (found == last || *found != column) return nullptr;
  return &matrix.values[static_cast<std::size_t>(found - matrix.columns.begin())];
}

bool nearly_equal(double a, double b) {
  return std::abs(a - b) <= rounding_slack * std::max(std::abs(a), std::abs(b));
}

void scan_symmetry(const CsrMatrix<double>& matrix, MatrixStats& stats) {
  if (!matrix.square()) return;
  int structural = 1, numerical = 1;
  std::atomic<bool> both_disproved{false};  // lets every thread skip the remaining rows
#pragma omp parallel for schedule(dynamic, 1024) reduction(&& : structural, numerical)
  for (index_t row = 0; row < matrix.rows; ++row) {
    if (both_disproved.load(std::memory_order_relaxed)) continue;
    if (!structural && !numerical) {
      both_disproved.store(true, std::memory_order_relaxed);
      continue;
    }
    for (index_t k = matrix.row_offsets[row]; k < matrix.row_offsets[row + 1]; ++k) {
      const index_t column = matrix.columns[k];
      if (column == row) continue;
      const double* mirror = find_entry(matrix, column, row);
      if (mirror == nullptr) structural = 0;
      if (!nearly_equal(matrix.values[k], mirror == nullptr ? 0.0 : *mirror)) numerical = 0;
    }
  }
  stats.structurally_symmetric = structural != 0;
  stats.numerically_symmetric = numerical != 0;
}

// Diagonal dominance and the diagonal, row by row; row i's diagonal is in column
// first_column + i (0 for a whole matrix; a block of rows with global columns: its first row).
template <class Column>
void scan_diagonal(index_t rows, const std::vector<index_t>& row_offsets, const Column* columns,
                   const double* values, std::int64_t first_column, MatrixStats& stats) {
  index_t strict = 0, zero_diagonal = 0;
  index_t first_zero_diagonal = std::numeric_limits<index_t>::max();
  int dominant = 1;
#pragma omp parallel for schedule(static) reduction(min : first_zero_diagonal) \
    reduction(+ : strict, zero_diagonal) reduction(&& : dominant)
  for (index_t row = 0; row < rows; ++row) {
    double diagonal = 0.0, off_diagonal = 0.0;
    for (index_t k = row_offsets[row]; k < row_offsets[row + 1]; ++k) {
      if (static_cast<std::int64_t>(columns[k]) == first_column + row)
        diagonal = std::abs(values[k]);
      else
        off_diagonal += std::abs(values[k]);
    }
    if (diagonal == 0.0) {
      ++zero_diagonal;
      first_zero_diagonal = std::min(first_zero_diagonal, row);
    }
    if (diagonal > off_diagonal) ++strict;
    if (diagonal < off_diagonal * (1.0 - rounding_slack)) dominant = 0;
  }
  stats.strictly_dominant_rows = strict;
  stats.zero_or_missing_diagonal = zero_diagonal;
  stats.first_zero_diagonal_row = zero_diagonal == 0 ? -1 : first_zero_diagonal;
  stats.diagonally_dominant = dominant != 0;
}

std::string printed(const char* format, double value) {
  char text[64];
  std::snprintf(text, sizeof(text), format, value);
  return text;
}

std::string yes_no(bool value) {
  return value ? "true" : "false";
}

}  // namespace

RowStats row_stats_from_sums(index_t rows, index_t cols, std::int64_t nnz,
                             const RowLengthSums& sums) {
  RowStats stats;
  stats.rows = rows;
  stats.cols = cols;
  stats.nnz = nnz;
  stats.min_row_length = rows == 0 ? 0 : sums.min_length;
  stats.max_row_length = rows == 0 ? 0 : sums.max_length;
  stats.empty_rows = sums.empty_rows;
  stats.aligned16_entries = sums.aligned16_entries;
  if (rows > 0) {
    const double row_count = static_cast<double>(rows);
    stats.avg_row_length = static_cast<double>(nnz) / row_count;
    const double variance = static_cast<double>(sums.sum_of_squares) / row_count -
                            stats.avg_row_length * stats.avg_row_length;
    stats.row_length_stddev = std::sqrt(std::max(0.0, variance));
  }
  if (stats.avg_row_length > 0.0)
    stats.row_length_variation = stats.row_length_stddev / stats.avg_row_length;
  if (nnz > 0)
    stats.ell_fill_ratio = static_cast<double>(rows) * static_cast<double>(stats.max_row_length) /
                           static_cast<double>(nnz);
  return stats;
}

RowStats compute_row_stats(index_t rows, index_t cols, const std::vector<index_t>& row_offsets) {
  index_t min_length = std::numeric_limits<index_t>::max(), max_length = 0, empty = 0;
  std::int64_t aligned16 = 0;
  std::uint64_t sum_of_squares = 0;
#pragma omp parallel for schedule(static) reduction(min : min_length) reduction(max : max_length) \
    reduction(+ : empty, aligned16, sum_of_squares)
  for (index_t row = 0; row < rows; ++row) {
    const index_t length = row_offsets[row + 1] - row_offsets[row];
    min_length = std::min(min_length, length);
    max_length = std::max(max_length, length);
    sum_of_squares += static_cast<std::uint64_t>(length) * static_cast<std::uint64_t>(length);
    aligned16 += (std::int64_t{length} + 15) / 16 * 16;
    if (length == 0) ++empty;
  }
  const std::int64_t nnz = rows > 0 ? row_offsets[static_cast<std::size_t>(rows)] : 0;
  return row_stats_from_sums(
      rows, cols, nnz, RowLengthSums{min_length, max_length, empty, aligned16, sum_of_squares});
}

MatrixStats compute_matrix_stats(const CsrMatrix<double>& matrix) {
  MatrixStats stats;
  static_cast<RowStats&>(stats) = compute_row_stats(matrix.rows, matrix.cols, matrix.row_offsets);
  scan_diagonal(matrix.rows, matrix.row_offsets, matrix.columns.data(), matrix.values.data(), 0,
                stats);
  scan_symmetry(matrix, stats);
  return stats;
}

MatrixStats compute_block_stats(const RowBlock<double>& rows) {
  MatrixStats stats;
  static_cast<RowStats&>(stats) = compute_row_stats(rows.rows, rows.rows, rows.row_offsets);
  scan_diagonal(rows.rows, rows.row_offsets, rows.columns.data(), rows.values.data(),
                rows.first_row, stats);
  return stats;
}

std::string format_matrix_stats(const MatrixStats& stats) {
  const auto line = [](const char* label, const std::string& value) {
    char padded[32];
    std::snprintf(padded, sizeof(padded), "%-24s", label);
    return std::string(padded) + value;
  };
  std::string symmetry = "not square";
  if (stats.rows == stats.cols)
    symmetry = stats.numerically_symmetric    ? "symmetric"
               : stats.structurally_symmetric ? "structurally symmetric, values not symmetric"
                                              : "nonsymmetric";
  const std::string strict_rows = std::to_string(stats.strictly_dominant_rows) + " of " +
                                  std::to_string(stats.rows) + " rows strictly";
  const std::string dominance = stats.diagonally_dominant
                                    ? "weakly dominant in every row (" + strict_rows + ")"
                                    : "not diagonally dominant (" + strict_rows + ")";
  const std::string diagonal =
      stats.zero_or_missing_diagonal == 0
          ? "all nonzero"
          : std::to_string(stats.zero_or_missing_diagonal) + " rows zero or missing (first: row " +
                std::to_string(std::int64_t{stats.first_zero_diagonal_row} + 1) + ", 1-based)";

  std::string table;
  table += line("rows x columns", std::to_string(stats.rows) + " x " + std::to_string(stats.cols));
  table += "\n" + line("nonzeros", std::to_string(stats.nnz));
  table +=
      "\n" + line("row length", "min " + std::to_string(stats.min_row_length) + "  avg " +
                                    printed("%.2f", stats.avg_row_length) + "  max " +
                                    std::to_string(stats.max_row_length) + "  max-avg " +
                                    printed("%.2f", stats.max_row_length - stats.avg_row_length));
  table += "\n" + line("row length stddev",
                       printed("%.2f", stats.row_length_stddev) + "  (" +
                           printed("%.2f", 100.0 * stats.row_length_variation) + "% of avg)");
  table += "\n" + line("ELLPACK fill ratio", printed("%.3f", stats.ell_fill_ratio) +
                                                 "  (rows x max row length / nonzeros)");
  table += "\n" + line("empty rows", std::to_string(stats.empty_rows));
  table += "\n" + line("symmetry", symmetry);
  table += "\n" + line("diagonal dominance", dominance);
  table += "\n" + line("diagonal", diagonal);
  return table;
}

std::vector<std::pair<std::string, std::string>> matrix_stats_fields(const MatrixStats& stats) {
  return {
      {"rows", std::to_string(stats.rows)},
      {"cols", std::to_string(stats.cols)},
      {"nnz", std::to_string(stats.nnz)},
      {"row_length_min", std::to_string(stats.min_row_length)},
      {"row_length_avg", printed("%.10g", stats.avg_row_length)},
      {"row_length_max", std::to_string(stats.max_row_length)},
      {"row_length_stddev", printed("%.10g", stats.row_length_stddev)},
      {"row_length_stddev_over_avg", printed("%.10g", stats.row_length_variation)},
      {"ell_fill_ratio", printed("%.10g", stats.ell_fill_ratio)},
      {"empty_rows", std::to_string(stats.empty_rows)},
      {"structurally_symmetric", yes_no(stats.structurally_symmetric)},
      {"numerically_symmetric", yes_no(stats.numerically_symmetric)},
      {"diagonally_dominant", yes_no(stats.diagonally_dominant)},
      {"strictly_dominant_rows", std::to_string(stats.strictly_dominant_rows)},
      {"zero_or_missing_diagonal", std::to_string(stats.zero_or_missing_diagonal)},
      {"first_zero_diagonal_row",
       stats.first_zero_diagonal_row < 0
           ? std::string("null")
           : std::to_string(std::int64_t{stats.first_zero_diagonal_row} + 1)},
  };
}

}  // namespace spk
