// The CPU reference SpMV against a dense matrix-vector product, on fresh random matrices
// of awkward shapes, with the output poisoned (NaN) before every run.
#include <gtest/gtest.h>

#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "spmv/host/reference_spmv.hpp"
#include "tests/cpu/host_matrix_testing.hpp"
#include "tests/test_support.hpp"

namespace spk {
namespace {

struct Shape {
  const char* name;
  index_t rows;
  index_t cols;
  double density;
  std::vector<index_t> empty_rows;
};

std::vector<Shape> awkward_shapes() {
  return {{"one_by_one", 1, 1, 1.0, {}},
          {"square", 97, 97, 0.1, {}},
          {"wide", 7, 130, 0.2, {}},
          {"tall", 130, 7, 0.3, {}},
          {"empty_rows", 64, 64, 0.2, {0, 1, 31, 63}},
          {"all_rows_empty", 20, 20, 0.0, {}},
          {"no_columns", 5, 0, 0.5, {}},
          {"no_rows", 0, 9, 0.5, {}},
          {"dense", 33, 33, 1.0, {}}};
}

std::vector<double> dense_product(const CsrMatrix<double>& matrix, const std::vector<double>& x) {
  const std::vector<double> dense = test::to_dense(matrix);
  std::vector<double> y(static_cast<std::size_t>(matrix.rows), 0.0);
  for (index_t i = 0; i < matrix.rows; ++i)
    for (index_t j = 0; j < matrix.cols; ++j)
      y[i] += dense[static_cast<std::size_t>(i) * matrix.cols + j] * x[j];
  return y;
}

std::vector<double> random_vector(index_t size, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::vector<double> x(static_cast<std::size_t>(size));
  for (double& value : x) value = unit(rng);
  return x;
}

// One row holding every column, the others nearly empty.
CsrMatrix<double> one_huge_row(index_t rows, index_t cols, std::mt19937_64& rng) {
  CsrMatrix<double> matrix = test::random_csr(rows, cols, 0.01, rng);
  std::vector<double> dense = test::to_dense(matrix);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  for (index_t j = 0; j < cols; ++j)
    dense[static_cast<std::size_t>(rows / 2) * cols + j] = unit(rng);
  CsrMatrix<double> result;
  result.rows = rows;
  result.cols = cols;
  result.row_offsets.assign(static_cast<std::size_t>(rows) + 1, 0);
  for (index_t i = 0; i < rows; ++i) {
    for (index_t j = 0; j < cols; ++j) {
      const double value = dense[static_cast<std::size_t>(i) * cols + j];
      if (value == 0.0) continue;
      result.columns.push_back(j);
      result.values.push_back(value);
    }
    result.row_offsets[i + 1] = result.nnz();
  }
  return result;
}

TEST(ReferenceSpmv, MatchesDenseProductInDoubleOnAwkwardShapes) {
  const unsigned seed = std::random_device{}();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  for (const Shape& shape : awkward_shapes()) {
    SCOPED_TRACE(shape.name);
    for (int trial = 0; trial < 3; ++trial) {
      const CsrMatrix<double> matrix =
          test::random_csr(shape.rows, shape.cols, shape.density, rng, shape.empty_rows);
      const std::vector<double> x = random_vector(shape.cols, rng);
      std::vector<double> y(static_cast<std::size_t>(shape.rows),
                            std::numeric_limits<double>::quiet_NaN());
      reference_spmv(matrix, x.data(), y.data());
      const std::vector<double> expected = dense_product(matrix, x);
      EXPECT_LE(test::relative_error(y, expected), 1e-14);
      for (index_t row : shape.empty_rows) {
        if (row < shape.rows) {
          EXPECT_EQ(y[row], 0.0) << "empty row " << row;
        }
      }
      if (shape.density == 0.0) {
        for (double value : y) EXPECT_EQ(value, 0.0);
      }
    }
  }
}

TEST(ReferenceSpmv, OneHugeRow) {
  const unsigned seed = std::random_device{}();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const CsrMatrix<double> matrix = one_huge_row(200, 3000, rng);
  ASSERT_EQ(matrix.row_length(100), 3000);
  const std::vector<double> x = random_vector(3000, rng);
  std::vector<double> y(200, std::numeric_limits<double>::quiet_NaN());
  reference_spmv(matrix, x.data(), y.data());
  EXPECT_LE(test::relative_error(y, dense_product(matrix, x)), 1e-13);
}

TEST(ReferenceSpmv, SinglePrecisionMatchesTheDoubleProduct) {
  const unsigned seed = std::random_device{}();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  for (const Shape& shape : awkward_shapes()) {
    SCOPED_TRACE(shape.name);
    const CsrMatrix<double> matrix =
        test::random_csr(shape.rows, shape.cols, shape.density, rng, shape.empty_rows);
    const CsrMatrix<float> single = convert_values<float>(matrix);
    const std::vector<double> x = random_vector(shape.cols, rng);
    const std::vector<float> x_single(x.begin(), x.end());
    std::vector<float> y(static_cast<std::size_t>(shape.rows),
                         std::numeric_limits<float>::quiet_NaN());
    reference_spmv(single, x_single.data(), y.data());
    EXPECT_LE(test::relative_error(y, dense_product(matrix, x)), 1e-5);
  }
}

TEST(ReferenceSpmv, HostCsrOperatorAppliesTheReference) {
  const unsigned seed = std::random_device{}();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const CsrMatrix<double> matrix = test::random_csr(40, 25, 0.3, rng, {3});
  const HostCsrOperator<double> op(matrix);
  EXPECT_EQ(op.rows(), 40);
  EXPECT_EQ(op.cols(), 25);
  const std::vector<double> x = random_vector(25, rng);
  std::vector<double> y(40, std::numeric_limits<double>::quiet_NaN());
  op.apply(x.data(), y.data());
  EXPECT_LE(test::relative_error(y, dense_product(matrix, x)), 1e-14);
}

// y = alpha A x + beta y through the operator, against the dense product, on every awkward
// shape and one huge row: alpha -1.5 and beta 0.5 on a random y; beta 0 on a NaN y (y must be
// written without being read).
TEST(ReferenceSpmv, HostCsrOperatorApplyScaled) {
  const unsigned seed = std::random_device{}();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  std::vector<std::pair<std::string, CsrMatrix<double>>> matrices;
  for (const Shape& shape : awkward_shapes())
    matrices.emplace_back(
        shape.name, test::random_csr(shape.rows, shape.cols, shape.density, rng, shape.empty_rows));
  matrices.emplace_back("one_huge_row", one_huge_row(50, 2000, rng));
  for (const auto& [name, matrix] : matrices) {
    SCOPED_TRACE(name);
    const HostCsrOperator<double> op(matrix);
    const std::vector<double> x = random_vector(matrix.cols, rng);
    const std::vector<double> product = dense_product(matrix, x);

    const std::vector<double> y_start = random_vector(matrix.rows, rng);
    std::vector<double> y = y_start, expected(y_start.size());
    for (std::size_t i = 0; i < y.size(); ++i) expected[i] = -1.5 * product[i] + 0.5 * y_start[i];
    op.apply_scaled(-1.5, x.data(), 0.5, y.data());
    EXPECT_LE(test::relative_error(y, expected), 1e-14);

    std::vector<double> poisoned(y_start.size(), std::numeric_limits<double>::quiet_NaN());
    for (std::size_t i = 0; i < y.size(); ++i) expected[i] = -1.5 * product[i];
    op.apply_scaled(-1.5, x.data(), 0.0, poisoned.data());
    EXPECT_LE(test::relative_error(poisoned, expected), 1e-14);
  }
}

}  // namespace
}  // namespace spk
