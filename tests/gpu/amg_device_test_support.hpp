#pragma once
// Helpers of the GPU tests of the AMG setup pieces (tests/gpu/test_amg_device_*.cpp):
//   expect_same_matrix   the same shape and pattern, values within a tolerance of the host's
//                        relative to the largest |value|
//   random_square        a random square matrix with every diagonal entry (an AMG level)
//   random_tall          a random prolongator-shaped matrix
//   host_level           A and the host's smoothed prolongator P for it
//   with_new_values      the same pattern, each value scaled by a random factor in [0.5, 2)
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "solver/amg/aggregation.hpp"
#include "solver/amg/smoothed_prolongator.hpp"
#include "solver/amg/strength.hpp"
#include "solver/amg/tentative_prolongator.hpp"
#include "solver/eigen_estimate.hpp"
#include "solver/jacobi.hpp"
#include "tests/gpu/spmv_test_support.hpp"

namespace spk::test {

// The same rows, columns and pattern; values within `tolerance` times the largest |value|.
inline void expect_same_matrix(const CsrMatrix<double>& device, const CsrMatrix<double>& host,
                               double tolerance, const std::string& what) {
  ASSERT_EQ(device.rows, host.rows) << what;
  ASSERT_EQ(device.cols, host.cols) << what;
  ASSERT_EQ(device.row_offsets, host.row_offsets) << what;
  ASSERT_EQ(device.columns, host.columns) << what;
  ASSERT_EQ(device.values.size(), host.values.size()) << what;
  double largest = 0.0;
  for (const double value : host.values) largest = std::max(largest, std::abs(value));
  for (std::size_t k = 0; k < host.values.size(); ++k)
    ASSERT_LE(std::abs(device.values[k] - host.values[k]), tolerance * largest)
        << what << ": entry " << k << ", device " << device.values[k] << ", host "
        << host.values[k];
}

// A square random matrix with every diagonal entry (as an AMG level has), 2..8 entries a row.
inline CsrMatrix<double> random_square(index_t n, std::mt19937_64& rng) {
  const CsrMatrix<double> random = random_pattern_matrix(
      n, n, [](index_t row) { return 2 + row % 7; }, rng);
  CsrMatrix<double> a;
  a.rows = a.cols = n;
  for (index_t row = 0; row < n; ++row) {
    std::map<index_t, double> entries;
    for (index_t k = random.row_offsets[row]; k < random.row_offsets[row + 1]; ++k)
      entries[random.columns[k]] = random.values[k];
    entries[row] = 4.0;
    for (const auto& [column, value] : entries) {
      a.columns.push_back(column);
      a.values.push_back(value);
    }
    a.row_offsets.push_back(a.nnz());
  }
  return a;
}

// A random n x m prolongator-shaped matrix: 1..3 entries a row, every column used or not.
inline CsrMatrix<double> random_tall(index_t n, index_t m, std::mt19937_64& rng) {
  return random_pattern_matrix(
      n, m, [](index_t row) { return 1 + row % 3; }, rng);
}

// A Poisson-like level: A and its smoothed prolongator from the host's own pipeline.
struct Level {
  CsrMatrix<double> a, p;
};
inline Level host_level(const CsrMatrix<double>& a) {
  const Aggregates aggregates = aggregate_mis2(strength_graph(a, 0.0));
  CsrMatrix<double> t = tentative_prolongator(aggregates, std::vector<double>(a.rows, 1.0)).matrix;
  std::vector<double> inverse_diagonal(static_cast<std::size_t>(a.rows));
  const std::vector<index_t> positions = diagonal_positions(a.rows, a.row_offsets, a.columns);
  for (index_t row = 0; row < a.rows; ++row) inverse_diagonal[row] = 1.0 / a.values[positions[row]];
  SmoothedProlongator prolongator(a, std::move(t), 4.0 / 3.0);
  prolongator.compute(a, inverse_diagonal, gershgorin_lambda_max(a));
  return {a, prolongator.matrix()};
}

inline CsrMatrix<double> with_new_values(CsrMatrix<double> matrix, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> factor(0.5, 2.0);
  for (double& value : matrix.values) value *= factor(rng);
  return matrix;
}

}  // namespace spk::test
