// The host steps of a distributed setup that read one process's rows in place instead of
// copying them (issue 32, setup under mpirun): the local/halo split from the caller's arrays
// against the split of the same rows as a RowBlock and against the whole matrix's product, the
// first fault in row order however many threads scan, and the statistics of a block of rows
// with global columns against those of the whole matrix.
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "distributed/local_halo_split.hpp"
#include "distributed/row_partition.hpp"
#include "spkrylov/errors.hpp"
#include "spmv/host/generators.hpp"
#include "spmv/host/matrix_stats.hpp"
#include "spmv/host/row_block.hpp"

namespace spk {
namespace {

// A random square matrix with a nonzero diagonal, some empty rows and long rows, columns
// ascending in each row (as a file's rows are after reading).
CsrMatrix<double> random_matrix(index_t n, std::uint64_t seed) {
  std::mt19937_64 engine(seed);
  std::uniform_int_distribution<index_t> column(0, n - 1), length(0, 12);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  CsrMatrix<double> matrix;
  matrix.rows = matrix.cols = n;
  for (index_t row = 0; row < n; ++row) {
    std::vector<index_t> columns;
    if (row % 17 != 5) {  // every 17th row empty
      columns.push_back(row);
      const index_t extra = row % 29 == 3 ? std::min<index_t>(n / 2, 300) : length(engine);
      for (index_t k = 0; k < extra; ++k) columns.push_back(column(engine));
      std::sort(columns.begin(), columns.end());
      columns.erase(std::unique(columns.begin(), columns.end()), columns.end());
    }
    for (const index_t c : columns) {
      matrix.columns.push_back(c);
      matrix.values.push_back(c == row ? 4.0 + value(engine) : value(engine));
    }
    matrix.row_offsets.push_back(static_cast<index_t>(matrix.columns.size()));
  }
  return matrix;
}

template <class T>
void expect_same_split(const SplitRows<T>& a, const SplitRows<T>& b) {
  EXPECT_EQ(a.first_row, b.first_row);
  for (const auto& [x, y] : {std::pair{&a.local, &b.local}, std::pair{&a.halo, &b.halo},
                             std::pair{&a.pattern, &b.pattern}}) {
    EXPECT_EQ(x->rows, y->rows);
    EXPECT_EQ(x->cols, y->cols);
    EXPECT_EQ(x->row_offsets, y->row_offsets);
    EXPECT_EQ(x->columns, y->columns);
    EXPECT_EQ(x->values, y->values);
  }
  EXPECT_EQ(a.halo_columns, b.halo_columns);
  ASSERT_EQ(a.sources.size(), b.sources.size());
  for (std::size_t s = 0; s < a.sources.size(); ++s) {
    EXPECT_EQ(a.sources[s].rank, b.sources[s].rank);
    EXPECT_EQ(a.sources[s].first_slot, b.sources[s].first_slot);
    EXPECT_EQ(a.sources[s].count, b.sources[s].count);
  }
}

// Every process's rows of a random matrix (uneven blocks, an empty one), split from the
// caller's arrays with 1 and 3 threads: the RowBlock's split, and y = local x_own + halo
// x_halo is the whole matrix's product on those rows; the pattern keeps the caller's order.
TEST(SplitInPlace, CallerArraysSplitAsTheRowBlockAndMultiplyAsTheWholeMatrix) {
  const index_t n = 30000;  // blocks of more rows than the passes run in parallel from
  const CsrMatrix<double> whole = random_matrix(n, 7);
  const RowPartition partition = partition_from_counts({9000, 0, 12000, 9000});
  std::vector<double> x(n);
  for (index_t i = 0; i < n; ++i) x[i] = 1.0 + 1e-6 * i * i;
  const int threads = omp_get_max_threads();
  for (const int used : {1, 3}) {
    omp_set_num_threads(used);
    for (int rank = 0; rank < partition.processes(); ++rank) {
      SCOPED_TRACE("rank " + std::to_string(rank) + ", threads " + std::to_string(used));
      const RowBlock<double> block =
          rows_of(whole, partition.first_row(rank), partition.end_row(rank));
      const SplitRows<double> split =
          split_local_and_halo(arrays_of(block), block.first_row, partition, rank);
      expect_same_split(split, split_local_and_halo(block, partition, rank));
      EXPECT_EQ(split.pattern.values, block.values);
      EXPECT_TRUE(std::is_sorted(split.halo_columns.begin(), split.halo_columns.end()));
      for (std::size_t s = 0; s < split.halo_columns.size(); ++s)
        EXPECT_NE(partition.owner(split.halo_columns[s]), rank);
      for (index_t row = 0; row < block.rows; ++row) {
        const global_index_t global = block.first_row + row;
        double expected = 0.0, got = 0.0, magnitude = 0.0;  // sum |a_ij x_j|: the rounding's scale
        for (index_t k = whole.row_offsets[global]; k < whole.row_offsets[global + 1]; ++k) {
          expected += whole.values[k] * x[whole.columns[k]];
          magnitude += std::abs(whole.values[k] * x[whole.columns[k]]);
        }
        for (index_t k = split.local.row_offsets[row]; k < split.local.row_offsets[row + 1]; ++k)
          got += split.local.values[k] * x[block.first_row + split.local.columns[k]];
        for (index_t k = split.halo.row_offsets[row]; k < split.halo.row_offsets[row + 1]; ++k)
          got += split.halo.values[k] * x[split.halo_columns[split.halo.columns[k]]];
        EXPECT_NEAR(got, expected, 1e-13 * magnitude) << row;  // summed in another order
      }
    }
  }
  omp_set_num_threads(threads);
}

// The error a row-by-row walk meets first, whichever thread finds which fault (rows enough for
// the parallel passes): a bad column before decreasing offsets is named; decreasing offsets
// before a bad column are.
TEST(SplitInPlace, TheFirstFaultInRowOrderIsNamed) {
  const index_t n = 40000;
  const RowPartition partition = partition_from_counts({0, n});
  std::vector<index_t> offsets(n + 1);
  std::vector<global_index_t> columns(n);
  for (index_t row = 0; row < n; ++row) {  // the diagonal alone
    offsets[row + 1] = row + 1;
    columns[row] = row;
  }
  const std::vector<double> values(n, 1.0);
  offsets[30001] = 29999;  // offsets decrease at global row 30000 ...
  offsets[30002] = 30002;  // ... and go on
  const int threads = omp_get_max_threads();
  for (const int used : {1, 3}) {
    omp_set_num_threads(used);
    const DistributedCsrArrays<double> arrays{n, offsets.data(), columns.data(), values.data()};
    columns[25000] = n;  // past the n columns, before the decrease
    columns[35000] = -1;
    try {
      split_local_and_halo(arrays, 0, partition, 1);
      ADD_FAILURE() << "no error";
    } catch (const BadInput& error) {
      EXPECT_EQ(std::string(error.what()),
                "column index 40000 in global row 25000 (0-based) is "
                "out of range 0..39999");
    }
    columns[25000] = 25000;  // the bad column after the decrease is not reached
    try {
      split_local_and_halo(arrays, 0, partition, 1);
      ADD_FAILURE() << "no error";
    } catch (const BadInput& error) {
      EXPECT_STREQ(error.what(), "row_offsets decrease at global row 30000 (0-based)");
    }
    columns[35000] = 35000;
  }
  omp_set_num_threads(threads);
}

// A block of rows with global columns has the statistics of the same rows of the whole matrix:
// the blocks' sums are the whole matrix's; a missing diagonal (an empty row) is found at its
// local row.
TEST(SplitInPlace, BlockStatisticsAddUpToTheWholeMatrix) {
  const CsrMatrix<double> whole = random_matrix(200, 11);
  const MatrixStats expected = compute_matrix_stats(whole);
  const RowPartition partition = partition_from_counts({60, 0, 90, 50});
  std::int64_t nnz = 0, aligned = 0;
  index_t empty = 0, dominant = 0, zero = 0, longest = 0, first_zero = -1;
  for (int rank = 0; rank < partition.processes(); ++rank) {
    const RowBlock<double> block =
        rows_of(whole, partition.first_row(rank), partition.end_row(rank));
    const MatrixStats stats = compute_block_stats(block);
    EXPECT_EQ(stats.rows, block.rows);
    nnz += stats.nnz;
    aligned += stats.aligned16_entries;
    empty += stats.empty_rows;
    dominant += stats.strictly_dominant_rows;
    zero += stats.zero_or_missing_diagonal;
    longest = std::max(longest, stats.max_row_length);
    if (stats.first_zero_diagonal_row >= 0 && first_zero < 0)
      first_zero = static_cast<index_t>(block.first_row) + stats.first_zero_diagonal_row;
    EXPECT_FALSE(stats.numerically_symmetric);
  }
  EXPECT_EQ(nnz, expected.nnz);
  EXPECT_EQ(aligned, expected.aligned16_entries);
  EXPECT_EQ(empty, expected.empty_rows);
  EXPECT_EQ(dominant, expected.strictly_dominant_rows);
  EXPECT_EQ(zero, expected.zero_or_missing_diagonal);
  EXPECT_EQ(longest, expected.max_row_length);
  EXPECT_EQ(first_zero, expected.first_zero_diagonal_row);
  EXPECT_EQ(expected.first_zero_diagonal_row, 5);  // row 5 is empty: its diagonal is missing
}

}  // namespace
}  // namespace spk
