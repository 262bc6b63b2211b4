// csr-merge's merge path (spmv/formats/merge_path.hpp) on the CPU: the diagonal search lands on
// the path, every thread's share is the same, and the three-step carry handling (thread walk,
// block combine, fixup) writes every row once with the CSR product, on awkward shapes: empty
// rows, one huge row spanning many blocks, n = 1, nnz = 0, a row ending exactly at a thread or
// block boundary.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "spmv/formats/merge_path_reference.hpp"
#include "spmv/host/generators.hpp"
#include "spmv/host/reference_spmv.hpp"
#include "tests/cpu/host_matrix_testing.hpp"

namespace spk {
namespace {

CsrMatrix<double> with_lengths(const std::vector<index_t>& lengths, index_t cols,
                               std::mt19937_64& rng) {
  std::uniform_int_distribution<index_t> column(0, cols - 1);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  CsrMatrix<double> a;
  a.rows = static_cast<index_t>(lengths.size());
  a.cols = cols;
  a.row_offsets = {0};
  for (const index_t length : lengths) {
    for (index_t k = 0; k < length; ++k) {
      a.columns.push_back(column(rng));
      a.values.push_back(value(rng));
    }
    a.row_offsets.push_back(static_cast<index_t>(a.columns.size()));
  }
  return a;
}

void expect_merge_product(const CsrMatrix<double>& a, const std::string& what) {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  std::vector<double> x(static_cast<std::size_t>(a.cols));
  for (double& v : x) v = value(rng);
  std::vector<double> expected(static_cast<std::size_t>(a.rows));
  reference_spmv(a, x.data(), expected.data());
  for (const int items : {1, 4, 8, 16})
    for (const int block : {1, 2, 32, 256}) {
      SCOPED_TRACE(what + ", items per thread " + std::to_string(items) + ", block " +
                   std::to_string(block));
      std::vector<double> y(static_cast<std::size_t>(a.rows), std::nan(""));
      std::vector<int> writes;
      merge_path_reference_spmv(a, items, block, x.data(), y.data(), &writes);
      for (index_t row = 0; row < a.rows; ++row) {
        ASSERT_EQ(writes[static_cast<std::size_t>(row)], 1) << "row " << row;
        ASSERT_NEAR(y[static_cast<std::size_t>(row)], expected[static_cast<std::size_t>(row)],
                    1e-12 * (1.0 + std::abs(expected[static_cast<std::size_t>(row)])))
            << "row " << row;
      }
    }
}

TEST(MergePath, SearchLandsOnThePath) {
  std::mt19937_64 rng(1);
  const CsrMatrix<double> a = with_lengths({0, 3, 0, 0, 7, 1, 0, 12, 2, 0}, 20, rng);
  const index_t nnz = a.nnz();
  const std::int64_t path = static_cast<std::int64_t>(a.rows) + nnz;
  MergeCoordinate previous{0, 0};
  for (std::int64_t d = 0; d <= path; ++d) {
    const MergeCoordinate c = merge_path_search(d, a.rows, nnz, a.row_offsets.data() + 1);
    EXPECT_EQ(static_cast<std::int64_t>(c.row) + c.nonzero, d);
    EXPECT_GE(c.row, previous.row);
    EXPECT_GE(c.nonzero, previous.nonzero);
    EXPECT_LE(c.row, a.rows);
    EXPECT_LE(c.nonzero, nnz);
    // On the path: every row end taken comes before the next nonzero, and the next row end
    // (if any) is not due yet.
    if (c.row > 0) {
      EXPECT_LE(a.row_offsets[c.row], c.nonzero);
    }
    if (c.row < a.rows && c.nonzero > 0) {
      EXPECT_GE(a.row_offsets[c.row + 1], c.nonzero);
    }
    previous = c;
  }
  const MergeCoordinate end = merge_path_search(path, a.rows, nnz, a.row_offsets.data() + 1);
  EXPECT_EQ(end.row, a.rows);
  EXPECT_EQ(end.nonzero, nnz);
}

TEST(MergePath, EveryThreadGetsTheSameShare) {
  EXPECT_EQ(merge_path_threads(10, 90, 8), 13);
  EXPECT_EQ(merge_path_threads(1, 0, 8), 1);
  EXPECT_EQ(merge_path_threads(0, 0, 8), 0);
  // 2^31 - 1 rows and as many nonzeros: the path passes 32 bits.
  EXPECT_EQ(merge_path_threads(2147483647, 2147483647, 4), 1073741824);
}

TEST(MergePath, ProductOnAwkwardShapes) {
  std::mt19937_64 rng(2);
  expect_merge_product(with_lengths({1}, 1, rng), "n = 1");
  expect_merge_product(with_lengths({0}, 1, rng), "n = 1, no entry");
  expect_merge_product(with_lengths(std::vector<index_t>(50, 0), 5, rng), "nnz = 0");
  expect_merge_product(with_lengths({0, 0, 5, 0, 0, 0, 9, 0}, 30, rng), "empty rows");
  std::vector<index_t> huge(300, 2);
  huge[150] = 20000;
  expect_merge_product(with_lengths(huge, 5000, rng), "one row of 20000 among short rows");
  expect_merge_product(with_lengths({20000}, 3000, rng), "a single huge row");
  // Rows that end exactly at thread boundaries for 8 items per thread (7 nonzeros + the end).
  expect_merge_product(with_lengths(std::vector<index_t>(100, 7), 50, rng), "rows of 7");
  std::vector<index_t> mixed;
  std::uniform_int_distribution<index_t> length(0, 40);
  for (int r = 0; r < 2000; ++r) mixed.push_back(r % 97 == 0 ? 3000 : length(rng));
  expect_merge_product(with_lengths(mixed, 4000, rng), "random lengths with long rows");
  expect_merge_product(generate_powerlaw(3000, 8.0, 1.5, 7), "powerlaw");
}

}  // namespace
}  // namespace spk
