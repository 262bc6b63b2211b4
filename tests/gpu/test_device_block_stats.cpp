// device_block_stats (spmv/device/device_row_stats.hpp): one process's MatrixStats computed on
// the device from its whole rows as the GPU solver keeps them (split_local_and_halo's pattern:
// own columns local, halo columns as slots past them) must equal compute_block_stats of the
// same rows on the host (global columns), field for field: the row lengths and the diagonal's
// counts (zero or missing diagonals, the first of them, strict and weak dominance). Square
// random matrices with rows of every diagonal kind (missing, zero, exactly the off-diagonal
// sum, above and below it), cut into 1 and 3 blocks, and the awkward shapes: n = 1, nnz = 0,
// empty rows, one row holding every column, a block without rows. fp64 and fp32 values.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "distributed/local_halo_split.hpp"
#include "distributed/row_partition.hpp"
#include "spmv/device/device_row_stats.hpp"
#include "spmv/host/matrix_stats.hpp"
#include "spmv/host/row_block.hpp"
#include "tests/gpu/spmv_test_support.hpp"
#include "tests/test_support.hpp"

namespace spk {
namespace {

// Row r's stored diagonal (where the random pattern has one; elsewhere it is missing) made one
// of four kinds by r % 5: zero, the off-diagonal sum exactly (weakly dominant), twice it, half
// of it; with either sign.
CsrMatrix<double> with_diagonal_kinds(CsrMatrix<double> matrix) {
  for (index_t r = 0; r < matrix.rows; ++r) {
    double off = 0.0;
    index_t diagonal = -1;
    for (index_t k = matrix.row_offsets[r]; k < matrix.row_offsets[r + 1]; ++k) {
      if (matrix.columns[k] == r)
        diagonal = k;
      else
        off += std::abs(matrix.values[k]);
    }
    if (diagonal < 0) continue;  // a missing diagonal
    const double factors[5] = {0.0, 1.0, 2.0, 0.5, 1.0};
    matrix.values[diagonal] = (r % 2 == 0 ? 1.0 : -1.0) * factors[r % 5] * off;
  }
  return matrix;
}

template <class T>
void expect_block_stats_match(const CsrMatrix<double>& whole, int processes,
                              const std::string& name) {
  std::vector<global_index_t> counts;
  for (int p = 0; p < processes; ++p)
    counts.push_back(whole.rows * (p + 1) / processes - whole.rows * p / processes);
  const RowPartition partition = partition_from_counts(counts);
  const test::TestStream stream;
  for (int rank = 0; rank < processes; ++rank) {
    SCOPED_TRACE(name + ", block " + std::to_string(rank) + " of " + std::to_string(processes));
    RowBlock<double> block = rows_of(whole, partition.first_row(rank), partition.end_row(rank));
    for (double& value : block.values) value = static_cast<double>(static_cast<T>(value));
    const MatrixStats host = compute_block_stats(block);
    const SplitRows<double> split = split_local_and_halo(block, partition, rank);
    const std::vector<T> values(split.pattern.values.begin(), split.pattern.values.end());
    const DeviceBuffer<index_t> offsets(split.pattern.row_offsets, "offsets");
    const DeviceBuffer<index_t> columns(split.pattern.columns, "columns");
    const DeviceBuffer<T> device_values(values, "values");
    const MatrixStats got = device_block_stats(block.rows, offsets.data(), columns.data(),
                                               device_values.data(), stream.get());
    test::expect_same_row_stats(got, host);
    EXPECT_EQ(got.strictly_dominant_rows, host.strictly_dominant_rows);
    EXPECT_EQ(got.zero_or_missing_diagonal, host.zero_or_missing_diagonal);
    EXPECT_EQ(got.first_zero_diagonal_row, host.first_zero_diagonal_row);
    EXPECT_EQ(got.diagonally_dominant, host.diagonally_dominant);
    EXPECT_FALSE(got.numerically_symmetric);
  }
}

template <class T>
void expect_every_shape_matches() {
  test::FreshRandom fresh;
  std::mt19937_64& rng = fresh.engine();
  const auto up_to = [&rng](index_t longest) {
    return std::uniform_int_distribution<index_t>(0, longest)(rng);
  };
  std::vector<test::NamedShape> shapes;
  shapes.push_back(
      {"random 2000, rows 0..40 long", test::random_pattern_matrix(
                                           2000, 2000, [&](index_t) { return up_to(40); }, rng)});
  shapes.push_back(
      {"random 3000, one full row",
       test::random_pattern_matrix(
           3000, 3000, [&](index_t row) { return row == 1234 ? 3000 : up_to(9); }, rng)});
  shapes.push_back({"n=1", test::random_pattern_matrix(
                               1, 1, [](index_t) { return 1; }, rng)});
  shapes.push_back({"n=1, nnz=0", test::random_pattern_matrix(
                                      1, 1, [](index_t) { return 0; }, rng)});
  shapes.push_back(
      {"nnz=0 (2 rows: a block without rows among 3)", test::random_pattern_matrix(
                                                           2, 2, [](index_t) { return 0; }, rng)});
  shapes.push_back({"every third row empty",
                    test::random_pattern_matrix(
                        500, 500, [&](index_t row) { return row % 3 == 0 ? 0 : up_to(40); }, rng)});
  for (const test::NamedShape& shape : shapes) {
    const CsrMatrix<double> matrix =
        with_diagonal_kinds(test::with_random_values(shape.matrix, rng));
    for (const int processes : {1, 3}) expect_block_stats_match<T>(matrix, processes, shape.name);
  }
}

TEST(DeviceBlockStats, EqualTheHostBlockStatsOnRandomAndAwkwardRows) {
  SPK_REQUIRE_GPU_OR_SKIP();
  expect_every_shape_matches<double>();
}

TEST(DeviceBlockStats, SinglePrecisionValuesGiveTheStatsOfTheRoundedValues) {
  SPK_REQUIRE_GPU_OR_SKIP();
  expect_every_shape_matches<float>();
}

}  // namespace
}  // namespace spk
