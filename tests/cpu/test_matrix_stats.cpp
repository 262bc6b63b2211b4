// compute_matrix_stats on hand-checked matrices and against a naive dense recomputation on
// random ones; the table and the JSON fields.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <set>
#include <string>

#include "spmv/host/matrix_stats.hpp"
#include "tests/cpu/host_matrix_testing.hpp"

namespace spk {
namespace {

// CSR from a row-major dense matrix, storing the entries marked in `stored` (or the
// nonzeros when `stored` is empty).
CsrMatrix<double> csr_from_dense(index_t rows, index_t cols, const std::vector<double>& dense,
                                 const std::vector<bool>& stored = {}) {
  CsrMatrix<double> matrix;
  matrix.rows = rows;
  matrix.cols = cols;
  matrix.row_offsets.assign(static_cast<std::size_t>(rows) + 1, 0);
  for (index_t row = 0; row < rows; ++row) {
    for (index_t column = 0; column < cols; ++column) {
      const std::size_t at = static_cast<std::size_t>(row) * cols + column;
      if (stored.empty() ? dense[at] != 0.0 : stored[at]) {
        matrix.columns.push_back(column);
        matrix.values.push_back(dense[at]);
      }
    }
    matrix.row_offsets[row + 1] = matrix.nnz();
  }
  return matrix;
}

TEST(MatrixStats, TheCsrReportExampleByHand) {
  // [[10,0,0,0],[0,0,0,20],[0,30,0,40],[50,60,70,0]]: row lengths 1, 1, 2, 3.
  const CsrMatrix<double> matrix =
      csr_from_dense(4, 4, {10, 0, 0, 0, 0, 0, 0, 20, 0, 30, 0, 40, 50, 60, 70, 0});
  const MatrixStats stats = compute_matrix_stats(matrix);
  EXPECT_EQ(stats.rows, 4);
  EXPECT_EQ(stats.cols, 4);
  EXPECT_EQ(stats.nnz, 7);
  EXPECT_EQ(stats.min_row_length, 1);
  EXPECT_EQ(stats.max_row_length, 3);
  EXPECT_DOUBLE_EQ(stats.avg_row_length, 1.75);
  EXPECT_DOUBLE_EQ(stats.row_length_stddev, std::sqrt(0.6875));  // mean of squares 15/4 - 1.75^2
  EXPECT_DOUBLE_EQ(stats.row_length_variation, std::sqrt(0.6875) / 1.75);
  EXPECT_DOUBLE_EQ(stats.ell_fill_ratio, 12.0 / 7.0);
  EXPECT_EQ(stats.empty_rows, 0);
  EXPECT_FALSE(stats.structurally_symmetric);
  EXPECT_FALSE(stats.numerically_symmetric);
  EXPECT_FALSE(stats.diagonally_dominant);
  EXPECT_EQ(stats.strictly_dominant_rows, 1);  // row 0 only
  EXPECT_EQ(stats.zero_or_missing_diagonal, 3);
  EXPECT_EQ(stats.first_zero_diagonal_row, 1);
}

TEST(MatrixStats, StructuralVersusNumericalSymmetry) {
  const std::vector<double> symmetric = {4, -1, 0, -1, 4, -3, 0, -3, 4};
  const MatrixStats both = compute_matrix_stats(csr_from_dense(3, 3, symmetric));
  EXPECT_TRUE(both.structurally_symmetric);
  EXPECT_TRUE(both.numerically_symmetric);
  EXPECT_TRUE(both.diagonally_dominant);
  EXPECT_EQ(both.strictly_dominant_rows, 2);  // rows 0 and 2; row 1 is 4 = 1 + 3
  EXPECT_EQ(both.zero_or_missing_diagonal, 0);
  EXPECT_EQ(both.first_zero_diagonal_row, -1);

  std::vector<double> values_differ = symmetric;
  values_differ[1] = -1.5;  // (0,1) != (1,0), same pattern
  const MatrixStats structural = compute_matrix_stats(csr_from_dense(3, 3, values_differ));
  EXPECT_TRUE(structural.structurally_symmetric);
  EXPECT_FALSE(structural.numerically_symmetric);

  // An explicit zero at (0,2) whose mirror is not stored: symmetric in value only.
  std::vector<bool> stored(9, false);
  for (std::size_t i = 0; i < 9; ++i) stored[i] = symmetric[i] != 0.0;
  stored[2] = true;
  const MatrixStats numerical = compute_matrix_stats(csr_from_dense(3, 3, symmetric, stored));
  EXPECT_FALSE(numerical.structurally_symmetric);
  EXPECT_TRUE(numerical.numerically_symmetric);

  // Rounding-level differences (assembly order) still count as symmetric.
  std::vector<double> rounded = symmetric;
  rounded[1] = std::nextafter(-1.0, 0.0);
  EXPECT_TRUE(compute_matrix_stats(csr_from_dense(3, 3, rounded)).numerically_symmetric);
}

TEST(MatrixStats, WeakDominanceToleratesRoundingOnlyAndStrictRowsAreStrict) {
  // 0.1 + 0.2 = 0.30000000000000004 > 0.3 by one rounding: still weakly dominant.
  const MatrixStats boundary = compute_matrix_stats(csr_from_dense(1, 3, {0.3, 0.1, 0.2}));
  EXPECT_TRUE(boundary.diagonally_dominant);
  EXPECT_EQ(boundary.strictly_dominant_rows, 0);
  const MatrixStats clearly_not = compute_matrix_stats(csr_from_dense(1, 3, {0.299, 0.1, 0.2}));
  EXPECT_FALSE(clearly_not.diagonally_dominant);
  const MatrixStats negative_diagonal = compute_matrix_stats(csr_from_dense(2, 2, {-3, 1, 1, -3}));
  EXPECT_TRUE(negative_diagonal.diagonally_dominant);  // |a_ii| counts
  EXPECT_EQ(negative_diagonal.strictly_dominant_rows, 2);
}

TEST(MatrixStats, RectangularEmptyRowsAndNoEntries) {
  // 3 x 2: row 2 has no diagonal position at all; row 1 is empty.
  const MatrixStats rectangular = compute_matrix_stats(csr_from_dense(3, 2, {2, 1, 0, 0, 5, 0}));
  EXPECT_FALSE(rectangular.structurally_symmetric);
  EXPECT_FALSE(rectangular.numerically_symmetric);
  EXPECT_EQ(rectangular.empty_rows, 1);
  EXPECT_EQ(rectangular.min_row_length, 0);
  EXPECT_EQ(rectangular.zero_or_missing_diagonal, 2);  // rows 1 and 2
  EXPECT_EQ(rectangular.first_zero_diagonal_row, 1);

  CsrMatrix<double> no_entries;
  no_entries.rows = 5;
  no_entries.cols = 5;
  no_entries.row_offsets.assign(6, 0);
  const MatrixStats empty = compute_matrix_stats(no_entries);
  EXPECT_EQ(empty.nnz, 0);
  EXPECT_EQ(empty.empty_rows, 5);
  EXPECT_EQ(empty.avg_row_length, 0.0);
  EXPECT_EQ(empty.row_length_variation, 0.0);
  EXPECT_EQ(empty.ell_fill_ratio, 1.0);
  EXPECT_EQ(empty.zero_or_missing_diagonal, 5);
  EXPECT_EQ(empty.first_zero_diagonal_row, 0);

  const MatrixStats nothing = compute_matrix_stats(CsrMatrix<double>{});
  EXPECT_EQ(nothing.rows, 0);
  EXPECT_EQ(nothing.min_row_length, 0);
  EXPECT_EQ(nothing.zero_or_missing_diagonal, 0);
  EXPECT_EQ(nothing.first_zero_diagonal_row, -1);
}

// Every field recomputed from the dense matrix by the definitions, on random matrices
// (symmetric and not, square and not, with empty rows).
TEST(MatrixStats, AgreesWithANaiveDenseRecomputation) {
  std::mt19937_64 rng(31337);
  for (int trial = 0; trial < 40; ++trial) {
    const index_t rows = 1 + static_cast<index_t>(rng() % 60);
    const index_t cols = trial % 3 == 0 ? 1 + static_cast<index_t>(rng() % 60) : rows;
    CsrMatrix<double> matrix = test::random_csr(rows, cols, 0.15, rng, {0, rows / 2});
    if (trial % 4 == 1 && rows == cols) {  // make it symmetric with a heavy diagonal
      std::vector<double> dense = test::to_dense(matrix);
      for (index_t i = 0; i < rows; ++i)
        for (index_t j = 0; j < i; ++j) dense[i * cols + j] = dense[j * cols + i];
      for (index_t i = 0; i < rows; ++i) dense[i * cols + i] = 100.0;
      matrix = csr_from_dense(rows, cols, dense);
    }
    const std::vector<double> dense = test::to_dense(matrix);
    const MatrixStats stats = compute_matrix_stats(matrix);

    index_t min_length = cols + 1, max_length = 0, empty = 0, strict = 0, zero_diagonal = 0;
    index_t first_zero = -1;
    double sum = 0.0, sum_squares = 0.0;
    bool dominant = true, symmetric = rows == cols, pattern_symmetric = rows == cols;
    for (index_t i = 0; i < rows; ++i) {
      const index_t length = matrix.row_length(i);
      min_length = std::min(min_length, length);
      max_length = std::max(max_length, length);
      sum += length;
      sum_squares += static_cast<double>(length) * length;
      if (length == 0) ++empty;
      double off = 0.0;
      for (index_t j = 0; j < cols; ++j)
        if (j != i) off += std::abs(dense[i * cols + j]);
      const double diagonal = i < cols ? std::abs(dense[i * cols + i]) : 0.0;
      if (diagonal > off) ++strict;
      if (diagonal < off) dominant = false;
      if (diagonal == 0.0) {
        ++zero_diagonal;
        if (first_zero < 0) first_zero = i;
      }
      if (rows == cols)
        for (index_t j = 0; j < cols; ++j) {
          if (dense[i * cols + j] != dense[j * cols + i]) symmetric = false;
          if ((dense[i * cols + j] != 0.0) != (dense[j * cols + i] != 0.0))
            pattern_symmetric = false;
        }
    }
    const double avg = sum / rows;
    const double stddev = std::sqrt(std::max(0.0, sum_squares / rows - avg * avg));
    SCOPED_TRACE("trial " + std::to_string(trial));
    EXPECT_EQ(stats.nnz, matrix.nnz());
    EXPECT_EQ(stats.min_row_length, min_length);
    EXPECT_EQ(stats.max_row_length, max_length);
    EXPECT_DOUBLE_EQ(stats.avg_row_length, avg);
    EXPECT_NEAR(stats.row_length_stddev, stddev, 1e-12);
    EXPECT_EQ(stats.empty_rows, empty);
    EXPECT_EQ(stats.strictly_dominant_rows, strict);
    EXPECT_EQ(stats.diagonally_dominant, dominant);
    EXPECT_EQ(stats.zero_or_missing_diagonal, zero_diagonal);
    EXPECT_EQ(stats.first_zero_diagonal_row, first_zero);
    EXPECT_EQ(stats.numerically_symmetric, symmetric);           // random values never tie
    EXPECT_EQ(stats.structurally_symmetric, pattern_symmetric);  // no explicit zeros here
    if (matrix.nnz() > 0) {
      EXPECT_DOUBLE_EQ(stats.ell_fill_ratio, static_cast<double>(rows) * max_length / matrix.nnz());
    }
    std::int64_t aligned16 = 0;
    for (index_t i = 0; i < rows; ++i) aligned16 += (matrix.row_length(i) + 15) / 16 * 16;
    EXPECT_EQ(stats.aligned16_entries, aligned16);
  }
}

// The pattern-only RowStats is the row part of MatrixStats, whatever the values.
TEST(MatrixStats, RowStatsAreTheRowPartOfMatrixStats) {
  std::mt19937_64 rng(4242);
  for (int trial = 0; trial < 10; ++trial) {
    const index_t rows = 1 + static_cast<index_t>(rng() % 300);
    const CsrMatrix<double> matrix = test::random_csr(rows, 40, 0.3, rng, {0});
    const MatrixStats full = compute_matrix_stats(matrix);
    const RowStats row = compute_row_stats(matrix.rows, matrix.cols, matrix.row_offsets);
    SCOPED_TRACE("trial " + std::to_string(trial));
    EXPECT_EQ(row.rows, full.rows);
    EXPECT_EQ(row.cols, full.cols);
    EXPECT_EQ(row.nnz, full.nnz);
    EXPECT_EQ(row.min_row_length, full.min_row_length);
    EXPECT_EQ(row.max_row_length, full.max_row_length);
    EXPECT_EQ(row.avg_row_length, full.avg_row_length);
    EXPECT_EQ(row.row_length_stddev, full.row_length_stddev);
    EXPECT_EQ(row.row_length_variation, full.row_length_variation);
    EXPECT_EQ(row.ell_fill_ratio, full.ell_fill_ratio);
    EXPECT_EQ(row.empty_rows, full.empty_rows);
    EXPECT_EQ(row.aligned16_entries, full.aligned16_entries);
    const double expected_padding =
        row.nnz == 0
            ? 0.0
            : static_cast<double>(row.aligned16_entries - row.nnz) / static_cast<double>(row.nnz);
    EXPECT_DOUBLE_EQ(row.aligned16_padding(), expected_padding);
  }
}

TEST(MatrixStats, FormattedTableShowsEveryProperty) {
  const MatrixStats stats = compute_matrix_stats(
      csr_from_dense(4, 4, {10, 0, 0, 0, 0, 0, 0, 20, 0, 30, 0, 40, 50, 60, 70, 0}));
  const std::string table = format_matrix_stats(stats);
  for (const char* expected :
       {"4 x 4", "nonzeros                7", "min 1  avg 1.75  max 3  max-avg 1.25", "stddev",
        "(47.38% of avg)", "ELLPACK fill ratio      1.714", "empty rows              0",
        "nonsymmetric", "not diagonally dominant (1 of 4 rows strictly)",
        "3 rows zero or missing (first: row 2, 1-based)"})
    EXPECT_NE(table.find(expected), std::string::npos) << "missing '" << expected << "' in\n"
                                                       << table;
  EXPECT_EQ(std::count(table.begin(), table.end(), '\n'), 8);  // nine lines

  const std::string symmetric =
      format_matrix_stats(compute_matrix_stats(csr_from_dense(2, 2, {2, -1, -1, 2})));
  EXPECT_NE(symmetric.find("symmetric"), std::string::npos);
  EXPECT_EQ(symmetric.find("nonsymmetric"), std::string::npos);
  EXPECT_NE(symmetric.find("weakly dominant in every row (2 of 2 rows strictly)"),
            std::string::npos);
  EXPECT_NE(symmetric.find("all nonzero"), std::string::npos);
}

bool is_json_literal(const std::string& value) {
  if (value == "true" || value == "false" || value == "null") return true;
  if (value.empty()) return false;
  char* end = nullptr;
  std::strtod(value.c_str(), &end);
  return *end == '\0' && value.find_first_of("nN") == std::string::npos;  // no nan/inf
}

TEST(MatrixStats, JsonFieldsAreUniqueLiteralsWithOneBasedRows) {
  const MatrixStats stats = compute_matrix_stats(
      csr_from_dense(4, 4, {10, 0, 0, 0, 0, 0, 0, 20, 0, 30, 0, 40, 50, 60, 70, 0}));
  const auto fields = matrix_stats_fields(stats);
  std::set<std::string> keys;
  for (const auto& [key, value] : fields) {
    EXPECT_TRUE(keys.insert(key).second) << "duplicate key " << key;
    EXPECT_TRUE(is_json_literal(value)) << key << " = " << value;
  }
  const auto value_of = [&fields](const std::string& key) {
    for (const auto& field : fields)
      if (field.first == key) return field.second;
    return std::string("<missing>");
  };
  EXPECT_EQ(value_of("rows"), "4");
  EXPECT_EQ(value_of("nnz"), "7");
  EXPECT_EQ(value_of("row_length_avg"), "1.75");
  EXPECT_EQ(value_of("row_length_max"), "3");
  EXPECT_EQ(value_of("numerically_symmetric"), "false");
  EXPECT_EQ(value_of("strictly_dominant_rows"), "1");
  EXPECT_EQ(value_of("first_zero_diagonal_row"), "2");
  for (const char* key :
       {"cols", "row_length_min", "row_length_stddev", "row_length_stddev_over_avg",
        "ell_fill_ratio", "empty_rows", "structurally_symmetric", "diagonally_dominant",
        "zero_or_missing_diagonal"})
    EXPECT_NE(value_of(key), "<missing>") << key;

  const auto clean = matrix_stats_fields(compute_matrix_stats(csr_from_dense(1, 1, {3})));
  for (const auto& [key, value] : clean) {
    if (key == "first_zero_diagonal_row") {
      EXPECT_EQ(value, "null");
    }
  }
}

}  // namespace
}  // namespace spk
