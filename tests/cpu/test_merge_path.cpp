// Host side of csr-merge: the merge-path partition (every tile start on its diagonal,
// monotone, covering rows + nnz exactly) on awkward shapes, the search on a hand-made path and
// past 2^31 items, and the whole two-level algorithm (tiles, thread walks, the block's
// reduce-by-row scan, the per-tile carries and their fix-up) run on the CPU against the CSR
// reference.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "spmv/formats/merge_path.hpp"
#include "spmv/host/generators.hpp"
#include "spmv/host/reference_spmv.hpp"
#include "tests/cpu/host_matrix_testing.hpp"

namespace spk {
namespace {

using test::matrix_with_row_lengths;
using test::NamedMatrix;

// rows = 0, nnz = 0, n = 1, empty rows, one huge row, a power-law matrix, random rows.
std::vector<NamedMatrix> awkward_matrices(std::mt19937_64& rng) {
  std::vector<NamedMatrix> shapes;
  shapes.push_back({"rows=0", matrix_with_row_lengths(5, {}, rng)});
  shapes.push_back(
      {"nnz=0 (40 empty rows)", matrix_with_row_lengths(40, std::vector<index_t>(40, 0), rng)});
  shapes.push_back({"n=1", matrix_with_row_lengths(1, {1}, rng)});
  shapes.push_back({"n=1, nnz=0", matrix_with_row_lengths(1, {0}, rng)});
  std::vector<index_t> every_third;
  for (index_t row = 0; row < 300; ++row) every_third.push_back(row % 3 == 0 ? 0 : 1 + row % 17);
  shapes.push_back({"every third row empty", matrix_with_row_lengths(300, every_third, rng)});
  std::vector<index_t> huge(70, 0);
  for (index_t row = 0; row < 70; ++row) huge[row] = row % 5;
  huge[33] = 100000;
  shapes.push_back({"one row of 100000 entries", matrix_with_row_lengths(100000, huge, rng)});
  std::vector<index_t> leading_empty(50, 0);
  leading_empty.push_back(4000);
  shapes.push_back(
      {"50 empty rows, then a row of 4000", matrix_with_row_lengths(4000, leading_empty, rng)});
  shapes.push_back({"powerlaw 3000", generate_powerlaw(3000, 8.0, 2.0, 4)});
  std::vector<index_t> random(777);
  for (auto& length : random) length = std::uniform_int_distribution<index_t>(0, 90)(rng);
  shapes.push_back({"random 777 rows of 0..90", matrix_with_row_lengths(500, random, rng)});
  return shapes;
}

double max_abs_difference(const std::vector<double>& a, const std::vector<double>& b) {
  double largest = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) largest = std::max(largest, std::abs(a[i] - b[i]));
  return largest;
}

std::vector<double> reference_product(const CsrMatrix<double>& matrix,
                                      const std::vector<double>& x) {
  std::vector<double> y(static_cast<std::size_t>(matrix.rows));
  reference_spmv(matrix, x.data(), y.data());
  return y;
}

std::vector<double> random_vector(index_t size, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  std::vector<double> x(static_cast<std::size_t>(size));
  for (auto& entry : x) entry = value(rng);
  return x;
}

// Every coordinate lies on its diagonal (row + nonzero = min(t * tile, rows + nnz)), inside
// the path, on the path (the nonzeros before it belong to rows at or after its row: the row
// ends before it are <= its nonzero, the ones after > it), and the partition is monotone from
// (0, 0) to (rows, nnz).
void expect_valid_partition(const std::vector<index_t>& row_offsets, std::int64_t tile_items) {
  const auto rows = static_cast<index_t>(row_offsets.size() - 1);
  const index_t nnz = row_offsets.back();
  const std::int64_t path = std::int64_t{rows} + nnz;
  const std::vector<MergeCoordinate> starts = merge_path_partition(row_offsets, tile_items);
  ASSERT_EQ(static_cast<std::int64_t>(starts.size()), merge_tiles(path, tile_items) + 1);
  EXPECT_EQ(starts.front().row, 0);
  EXPECT_EQ(starts.front().nonzero, 0);
  EXPECT_EQ(starts.back().row, rows);
  EXPECT_EQ(starts.back().nonzero, nnz);
  for (std::size_t t = 0; t < starts.size(); ++t) {
    const MergeCoordinate at = starts[t];
    const std::int64_t diagonal = std::min(static_cast<std::int64_t>(t) * tile_items, path);
    ASSERT_EQ(std::int64_t{at.row} + at.nonzero, diagonal) << "tile " << t;
    ASSERT_GE(at.row, 0);
    ASSERT_LE(at.row, rows);
    ASSERT_GE(at.nonzero, 0);
    ASSERT_LE(at.nonzero, nnz);
    if (at.row > 0) {
      ASSERT_LE(row_offsets[at.row], at.nonzero) << "tile " << t << " row end after";
    }
    if (at.row < rows) {
      ASSERT_GT(row_offsets[at.row + 1], at.nonzero - 1) << "tile " << t;
    }
    if (at.row < rows && at.nonzero < nnz) {
      ASSERT_LE(row_offsets[at.row], at.nonzero);
    }
    if (t > 0) {
      ASSERT_GE(at.row, starts[t - 1].row) << "tile " << t;
      ASSERT_GE(at.nonzero, starts[t - 1].nonzero) << "tile " << t;
    }
  }
}

TEST(MergePath, PartitionCoordinatesLieOnTheirDiagonalsAndCoverThePath) {
  std::mt19937_64 rng(1601);
  for (const NamedMatrix& shape : awkward_matrices(rng)) {
    SCOPED_TRACE(shape.name);
    for (const std::int64_t tile : {1, 2, 7, 160, 1280, 1792, 7168})
      expect_valid_partition(shape.matrix.row_offsets, tile);
  }
}

// Three rows by hand: row 0 = 3 entries, row 1 empty, row 2 = 1 entry. Path (R = row end,
// N = nonzero): N N N R R N R, 7 items.
TEST(MergePath, HandMadePathSplitsWhereTheMergeSays) {
  const std::vector<index_t> offsets = {0, 3, 3, 4};
  const MergeCoordinate expected[] = {{0, 0}, {0, 1}, {0, 2}, {0, 3},
                                      {1, 3}, {2, 3}, {2, 4}, {3, 4}};
  for (int diagonal = 0; diagonal <= 7; ++diagonal) {
    const MergeCoordinate at = merge_path_search(diagonal, offsets.data() + 1, 3, 0, 4);
    EXPECT_EQ(at.row, expected[diagonal].row) << "diagonal " << diagonal;
    EXPECT_EQ(at.nonzero, expected[diagonal].nonzero) << "diagonal " << diagonal;
  }
}

TEST(MergePath, PathsLongerThan2To31UseSixtyFourBitDiagonals) {
  // 2000 rows sharing 2^31 - 1 nonzeros (the nonzero list is virtual: only the row ends are
  // stored): rows + nnz passes 2^31, so a 32-bit diagonal would overflow.
  const index_t rows = 2000;
  const index_t nnz = std::numeric_limits<index_t>::max();
  std::vector<index_t> ends(static_cast<std::size_t>(rows));
  for (index_t i = 0; i < rows; ++i)
    ends[i] = static_cast<index_t>((std::int64_t{i} + 1) * nnz / rows);
  const std::int64_t path = std::int64_t{rows} + nnz;
  ASSERT_GT(path, std::int64_t{1} << 31);
  for (const std::int64_t diagonal :
       {std::int64_t{0}, (std::int64_t{1} << 31) - 1, std::int64_t{1} << 31,
        (std::int64_t{1} << 31) + 7, path - 1, path}) {
    const MergeCoordinate at = merge_path_search(diagonal, ends.data(), rows, 0, nnz);
    EXPECT_EQ(std::int64_t{at.row} + at.nonzero, diagonal) << diagonal;
    if (at.row > 0) {
      EXPECT_LE(ends[at.row - 1], at.nonzero) << diagonal;
    }
    if (at.row < rows) {
      EXPECT_GE(ends[at.row], at.nonzero) << diagonal;
    }
  }
  EXPECT_EQ(merge_path_search(path, ends.data(), rows, 0, nnz).row, rows);
}

TEST(MergePath, CpuRunOfTheAlgorithmMatchesTheCsrReference) {
  std::mt19937_64 rng(2016);
  for (const NamedMatrix& shape : awkward_matrices(rng)) {
    SCOPED_TRACE(shape.name);
    const CsrMatrix<double>& matrix = shape.matrix;
    const std::vector<double> x = random_vector(matrix.cols, rng);
    const std::vector<double> expected = reference_product(matrix, x);
    double scale = 1.0;
    for (const double value : expected) scale = std::max(scale, std::abs(value));
    for (const auto& [threads, items] :
         std::vector<std::pair<int, int>>{{32, 5}, {64, 7}, {256, 5}, {1, 1}, {3, 2}, {1024, 5}}) {
      std::vector<double> y(static_cast<std::size_t>(matrix.rows),
                            std::numeric_limits<double>::quiet_NaN());
      csr_merge_reference_spmv(matrix, x.data(), y.data(), threads, items);
      EXPECT_LT(max_abs_difference(y, expected), 1e-12 * scale)
          << threads << " threads x " << items << " items";
    }
  }
}

TEST(MergePath, ItemsPerThreadFitTheDefaultSharedMemory) {
  EXPECT_EQ(merge_items_per_thread<double>(), 5);
  EXPECT_EQ(merge_items_per_thread<float>(), 7);
  EXPECT_LE(1024 * merge_items_per_thread<double>() * 8 + 8 + 32 * 16, 48 * 1024);
  EXPECT_LE(1024 * merge_items_per_thread<float>() * 4 + 4 + 32 * 8, 48 * 1024);
}

}  // namespace
}  // namespace spk
