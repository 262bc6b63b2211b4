#pragma once
// Test helpers for host matrices: CSR invariants, dense conversion, random sparse matrices,
// and checking that a call throws a given spk exception with a one-line message.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "spmv/host/csr_matrix.hpp"

namespace spk::test {

// Row-major dense copy (duplicates would be summed; CSR has none).
inline std::vector<double> to_dense(const CsrMatrix<double>& matrix) {
  std::vector<double> dense(static_cast<std::size_t>(matrix.rows) * matrix.cols, 0.0);
  for (index_t row = 0; row < matrix.rows; ++row)
    for (index_t k = matrix.row_offsets[row]; k < matrix.row_offsets[row + 1]; ++k)
      dense[static_cast<std::size_t>(row) * matrix.cols + matrix.columns[k]] += matrix.values[k];
  return dense;
}

// Offsets start at 0, never decrease and end at nnz; columns are in range and strictly
// increasing within each row; values and columns have the same length.
inline void expect_valid_csr(const CsrMatrix<double>& matrix) {
  ASSERT_GE(matrix.rows, 0);
  ASSERT_GE(matrix.cols, 0);
  ASSERT_EQ(matrix.row_offsets.size(), static_cast<std::size_t>(matrix.rows) + 1);
  ASSERT_EQ(matrix.row_offsets.front(), 0);
  ASSERT_EQ(matrix.row_offsets.back(), matrix.nnz());
  ASSERT_EQ(matrix.values.size(), matrix.columns.size());
  for (index_t row = 0; row < matrix.rows; ++row) {
    ASSERT_LE(matrix.row_offsets[row], matrix.row_offsets[row + 1]) << "row " << row;
    for (index_t k = matrix.row_offsets[row]; k < matrix.row_offsets[row + 1]; ++k) {
      ASSERT_GE(matrix.columns[k], 0) << "row " << row;
      ASSERT_LT(matrix.columns[k], matrix.cols) << "row " << row;
      if (k > matrix.row_offsets[row]) {
        ASSERT_LT(matrix.columns[k - 1], matrix.columns[k]) << "row " << row << " unsorted";
      }
    }
  }
}

// A random rows x cols matrix: each entry is present with probability `density`, values in
// [-1, 1); rows listed in `empty_rows` are left empty.
inline CsrMatrix<double> random_csr(index_t rows, index_t cols, double density,
                                    std::mt19937_64& rng,
                                    const std::vector<index_t>& empty_rows = {}) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  CsrMatrix<double> matrix;
  matrix.rows = rows;
  matrix.cols = cols;
  matrix.row_offsets.assign(static_cast<std::size_t>(rows) + 1, 0);
  for (index_t row = 0; row < rows; ++row) {
    bool keep_empty = false;
    for (index_t empty : empty_rows) keep_empty = keep_empty || empty == row;
    for (index_t column = 0; column < cols && !keep_empty; ++column) {
      if (unit(rng) >= density) continue;
      matrix.columns.push_back(column);
      matrix.values.push_back(2.0 * unit(rng) - 1.0);
    }
    matrix.row_offsets[row + 1] = matrix.nnz();
  }
  return matrix;
}

// Runs `call`, expecting an `Exception` whose message is one line, starts with `prefix`
// and contains `fragment`.
template <class Exception, class Call>
void expect_error(Call&& call, const std::string& prefix, const std::string& fragment) {
  try {
    call();
    ADD_FAILURE() << "no exception; expected one starting with '" << prefix << "'";
  } catch (const Exception& error) {
    const std::string what = error.what();
    EXPECT_EQ(what.rfind(prefix, 0), 0u) << "message: " << what;
    EXPECT_NE(what.find(fragment), std::string::npos) << "message: " << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << "message is not one line: " << what;
  } catch (const std::exception& error) {
    ADD_FAILURE() << "wrong exception type: " << error.what();
  }
}

// Row r has lengths[r] distinct sorted random columns (partial Fisher-Yates), values in
// [-1, 1).
inline CsrMatrix<double> matrix_with_row_lengths(index_t cols, const std::vector<index_t>& lengths,
                                                 std::mt19937_64& rng) {
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  CsrMatrix<double> matrix;
  matrix.rows = static_cast<index_t>(lengths.size());
  matrix.cols = cols;
  std::vector<index_t> all_columns(static_cast<std::size_t>(cols));
  for (index_t column = 0; column < cols; ++column) all_columns[column] = column;
  for (const index_t length : lengths) {
    for (index_t k = 0; k < length; ++k) {
      std::uniform_int_distribution<index_t> pick(k, cols - 1);
      std::swap(all_columns[k], all_columns[pick(rng)]);
    }
    std::vector<index_t> row(all_columns.begin(), all_columns.begin() + length);
    std::sort(row.begin(), row.end());
    for (const index_t column : row) {
      matrix.columns.push_back(column);
      matrix.values.push_back(value(rng));
    }
    matrix.row_offsets.push_back(matrix.nnz());
  }
  return matrix;
}

// A matrix and what it is, for SCOPED_TRACE in loops over shapes.
struct NamedMatrix {
  std::string name;
  CsrMatrix<double> matrix;
};

}  // namespace spk::test
