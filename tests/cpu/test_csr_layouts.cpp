// CSR-family host side: the aligned-csr padded layout (element by element, invariants, its
// own reference SpMV against the CSR reference), its refusal rules, the threads-per-row and
// grid rules of csr-vector / aligned-csr, and the CSR byte model.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "spkrylov/errors.hpp"
#include "spmv/formats/aligned_csr_layout.hpp"
#include "spmv/formats/csr_bytes.hpp"
#include "spmv/formats/csr_launch_policy.hpp"
#include "spmv/formats/csr_long_rows.hpp"
#include "spmv/host/reference_spmv.hpp"
#include "tests/cpu/host_matrix_testing.hpp"

namespace spk {
namespace {

// 4x4 with an empty row:
//   [1 . 2 .]
//   [. . . .]
//   [3 4 5 6]
//   [. . . 7]
CsrMatrix<double> small_matrix() {
  CsrMatrix<double> matrix;
  matrix.rows = 4;
  matrix.cols = 4;
  matrix.row_offsets = {0, 2, 2, 6, 7};
  matrix.columns = {0, 2, 0, 1, 2, 3, 3};
  matrix.values = {1, 2, 3, 4, 5, 6, 7};
  return matrix;
}

TEST(AlignedCsrLayout, SmallMatrixGroupOf4ElementByElement) {
  const auto layout = to_aligned_csr(small_matrix(), 4);
  EXPECT_EQ(layout.rows, 4);
  EXPECT_EQ(layout.cols, 4);
  EXPECT_EQ(layout.group_size, 4);
  EXPECT_EQ(layout.nnz, 7);
  // Lengths 2, 0, 4, 1 pad to 4, 0, 4, 4.
  EXPECT_EQ(layout.row_starts, (std::vector<index_t>{0, 4, 4, 8, 12}));
  EXPECT_EQ(layout.columns, (std::vector<index_t>{0, 2, 2, 2, 0, 1, 2, 3, 3, 3, 3, 3}));
  EXPECT_EQ(layout.values, (std::vector<double>{1, 2, 0, 0, 3, 4, 5, 6, 7, 0, 0, 0}));
  EXPECT_EQ(layout.padded_entries(), 12);
  EXPECT_DOUBLE_EQ(layout.padding_overhead(), 5.0 / 7.0);
}

TEST(AlignedCsrLayout, SmallMatrixGroupOf2ElementByElement) {
  const auto layout = to_aligned_csr(convert_values<float>(small_matrix()), 2);
  EXPECT_EQ(layout.row_starts, (std::vector<index_t>{0, 2, 2, 6, 8}));
  EXPECT_EQ(layout.columns, (std::vector<index_t>{0, 2, 0, 1, 2, 3, 3, 3}));
  EXPECT_EQ(layout.values, (std::vector<float>{1, 2, 3, 4, 5, 6, 7, 0}));
  EXPECT_DOUBLE_EQ(layout.padding_overhead(), 1.0 / 7.0);
}

TEST(AlignedCsrLayout, GroupOf32PadsEveryNonEmptyRowToOneWarp) {
  const auto layout = to_aligned_csr(small_matrix(), 32);
  EXPECT_EQ(layout.row_starts, (std::vector<index_t>{0, 32, 32, 64, 96}));
  for (index_t slot = 2; slot < 32; ++slot) {
    EXPECT_EQ(layout.columns[slot], 2) << "row 0 padding repeats its last column";
    EXPECT_EQ(layout.values[slot], 0.0);
  }
  for (index_t slot = 65; slot < 96; ++slot) EXPECT_EQ(layout.columns[slot], 3);
}

// The layout's invariants on random matrices, for every group size, and its slot map for
// update_values: every nonzero on its own value in the padded layout, each slot at most once,
// the unmapped slots padding (value 0).
TEST(AlignedCsrLayout, InvariantsOnRandomMatrices) {
  std::mt19937_64 rng(11);
  const auto matrix = test::random_csr(97, 61, 0.2, rng, {0, 5, 96});
  for (int group : {2, 4, 8, 16, 32}) {
    SCOPED_TRACE("group " + std::to_string(group));
    const auto layout = to_aligned_csr(matrix, group);
    ASSERT_EQ(layout.row_starts.size(), static_cast<std::size_t>(matrix.rows) + 1);
    ASSERT_EQ(layout.columns.size(), static_cast<std::size_t>(layout.padded_entries()));
    ASSERT_EQ(layout.values.size(), layout.columns.size());
    for (index_t row = 0; row < matrix.rows; ++row) {
      const index_t start = layout.row_starts[row];
      const index_t padded = layout.row_starts[row + 1] - start;
      const index_t length = matrix.row_length(row);
      EXPECT_EQ(start % group, 0) << "row " << row;
      EXPECT_EQ(padded % group, 0) << "row " << row;
      EXPECT_GE(padded, length) << "row " << row;
      EXPECT_LT(padded - length, length == 0 ? 1 : group) << "row " << row;
      for (index_t k = 0; k < length; ++k) {
        EXPECT_EQ(layout.columns[start + k], matrix.columns[matrix.row_offsets[row] + k]);
        EXPECT_EQ(layout.values[start + k], matrix.values[matrix.row_offsets[row] + k]);
      }
      for (index_t k = length; k < padded; ++k) {
        EXPECT_EQ(layout.columns[start + k], matrix.columns[matrix.row_offsets[row + 1] - 1]);
        EXPECT_EQ(layout.values[start + k], 0.0);
      }
    }
    const ValueSlots slots = aligned_csr_value_slots(matrix.row_offsets, layout.row_starts);
    ASSERT_EQ(slots.size(), matrix.values.size());
    std::vector<int> hits(layout.values.size(), 0);
    for (std::size_t k = 0; k < slots.size(); ++k) {
      ASSERT_LT(slots[k], layout.values.size());
      ++hits[slots[k]];
      EXPECT_EQ(layout.values[slots[k]], matrix.values[k]) << "nonzero " << k;
      EXPECT_EQ(layout.columns[slots[k]], matrix.columns[k]) << "nonzero " << k;
    }
    for (std::size_t slot = 0; slot < hits.size(); ++slot) {
      EXPECT_LE(hits[slot], 1) << "slot " << slot;
      if (hits[slot] == 0) {
        EXPECT_EQ(layout.values[slot], 0.0) << "slot " << slot;
      }
    }
  }
  EXPECT_TRUE(aligned_csr_value_slots({0}, {0}).empty());
}

template <class T>
class AlignedCsrReference : public ::testing::Test {};
using ValueTypes = ::testing::Types<float, double>;
TYPED_TEST_SUITE(AlignedCsrReference, ValueTypes);

// Padding adds exact zeros after the row's real entries, which keep their order: the layout's
// product must equal the CSR reference bit for bit.
TYPED_TEST(AlignedCsrReference, EqualsCsrReferenceExactly) {
  using T = TypeParam;
  std::mt19937_64 rng(2024);
  struct Case {
    const char* name;
    CsrMatrix<double> matrix;
  };
  std::vector<Case> cases;
  cases.push_back({"random 200x200", test::random_csr(200, 200, 0.05, rng)});
  cases.push_back({"empty rows", test::random_csr(50, 50, 0.3, rng, {0, 7, 8, 9, 49})});
  cases.push_back({"n=1", test::random_csr(1, 1, 1.0, rng)});
  cases.push_back({"n=1 empty", test::random_csr(1, 1, 0.0, rng)});
  cases.push_back({"nnz=0", test::random_csr(13, 9, 0.0, rng)});
  cases.push_back({"one full row", test::random_csr(1, 777, 1.0, rng)});
  cases.push_back({"dense 40x40", test::random_csr(40, 40, 1.0, rng)});
  cases.push_back({"rectangular 30x300", test::random_csr(30, 300, 0.1, rng)});
  cases.push_back({"rectangular 300x30", test::random_csr(300, 30, 0.1, rng)});
  cases.push_back({"no columns", test::random_csr(6, 0, 0.5, rng)});
  cases.push_back({"no rows", test::random_csr(0, 6, 0.5, rng)});
  for (const auto& test_case : cases) {
    const CsrMatrix<T> matrix = convert_values<T>(test_case.matrix);
    std::vector<T> x(static_cast<std::size_t>(matrix.cols));
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    for (auto& value : x) value = static_cast<T>(uniform(rng));
    std::vector<T> expected(static_cast<std::size_t>(matrix.rows));
    reference_spmv(matrix, x.data(), expected.data());
    for (int group : {2, 4, 8, 16, 32}) {
      SCOPED_TRACE(std::string(test_case.name) + ", group " + std::to_string(group));
      const auto layout = to_aligned_csr(matrix, group);
      std::vector<T> y(expected.size(), std::numeric_limits<T>::quiet_NaN());
      aligned_csr_reference_spmv(layout, x.data(), y.data());
      for (std::size_t row = 0; row < y.size(); ++row)
        ASSERT_EQ(y[row], expected[row]) << "row " << row;
    }
  }
}

TEST(AlignedCsrLayout, RefusesGroupSizesTheKernelsAreNotCompiledFor) {
  for (int group : {-2, 0, 1, 3, 12, 64})
    test::expect_error<BadInput>([&] { to_aligned_csr(small_matrix(), group); },
                                 "aligned-csr:", "spmv.threads_per_row = " + std::to_string(group));
}

TEST(AlignedCsrLayout, RowStartsOfEmptyMatrices) {
  EXPECT_EQ(aligned_csr_row_starts({0}, 16), (std::vector<index_t>{0}));
  EXPECT_EQ(aligned_csr_row_starts({0, 0, 0}, 16), (std::vector<index_t>{0, 0, 0}));
}

// 2^26 rows of one entry each pad to 32 entries a row with 32 threads per row: 2^31 padded
// entries, one past the 32-bit index range. The refusal comes from the row offsets alone,
// before the padded arrays are allocated. (256 MiB of row offsets: the smallest input that
// can overflow, since a row gains at most 31 padding entries.)
TEST(AlignedCsrLayout, RefusesPaddedSizePastThe32BitIndexRange) {
  const std::size_t rows = std::size_t{1} << 26;
  std::vector<index_t> row_offsets(rows + 1);
  for (std::size_t row = 0; row <= rows; ++row) row_offsets[row] = static_cast<index_t>(row);
  test::expect_error<BadInput>([&] { aligned_csr_row_starts(row_offsets, 32); },
                               "aligned-csr padded entries (32 threads per row) = 2147483648",
                               "32-bit index limit");
  // With 16 threads per row the same matrix pads to 2^30 entries and is accepted.
  EXPECT_EQ(aligned_csr_row_starts(row_offsets, 16).back(), index_t{1} << 30);
}

// float: 4 entries per lane, double: 3.
TEST(CsrVectorThreadsPerRow, SmallestPowerOfTwoNotBelowTheMeanOverEntriesPerLane) {
  const std::size_t f = sizeof(float), d = sizeof(double);
  EXPECT_EQ(csr_vector_threads_per_row(100, 0, 0, f), 2);
  EXPECT_EQ(csr_vector_threads_per_row(100, 500, 0, f), 2);    // mean 5 (5-point stencil)
  EXPECT_EQ(csr_vector_threads_per_row(100, 500, 0, d), 2);    // 5 / 3 < 2
  EXPECT_EQ(csr_vector_threads_per_row(100, 700, 0, f), 2);    // mean 7 (7-point stencil)
  EXPECT_EQ(csr_vector_threads_per_row(100, 700, 0, d), 4);    // 7 / 3 > 2
  EXPECT_EQ(csr_vector_threads_per_row(100, 600, 0, d), 2);    // 6 / 3 = 2
  EXPECT_EQ(csr_vector_threads_per_row(100, 800, 0, f), 2);    // 8 / 4 = 2
  EXPECT_EQ(csr_vector_threads_per_row(100, 801, 0, f), 4);    // mean 8.01
  EXPECT_EQ(csr_vector_threads_per_row(100, 1600, 0, f), 4);   // mean 16
  EXPECT_EQ(csr_vector_threads_per_row(100, 2700, 0, f), 8);   // mean 27 (27-point stencil)
  EXPECT_EQ(csr_vector_threads_per_row(100, 2700, 0, d), 16);  // 27 / 3 = 9
  EXPECT_EQ(csr_vector_threads_per_row(100, 3201, 0, f), 16);  // mean 32.01
  EXPECT_EQ(csr_vector_threads_per_row(100, 8100, 0, f), 16);  // mean 81 (elasticity), clamped
  EXPECT_EQ(csr_vector_threads_per_row(1, 100000, 0, d), 16);  // clamped to a half-warp
  EXPECT_EQ(csr_vector_threads_per_row(0, 0, 0, d), 2);        // no rows: no division by zero
  // 2^31 - 1 rows: the product e * threads * rows needs 64 bits.
  EXPECT_EQ(csr_vector_threads_per_row(2147483647, std::int64_t{2147483647} * 60 + 5, 0, f), 16);
  EXPECT_EQ(csr_vector_threads_per_row(2147483647, std::int64_t{2147483647} * 31 + 5, 0, f), 8);
}

TEST(CsrVectorThreadsPerRow, ExplicitChoiceIsKeptOrRefused) {
  for (int threads : {2, 4, 8, 16, 32})
    EXPECT_EQ(csr_vector_threads_per_row(100, 700, threads, sizeof(double)), threads);
  for (int threads : {-1, 1, 3, 24, 64})
    test::expect_error<BadInput>(
        [&] { csr_vector_threads_per_row(100, 700, threads, sizeof(float)); },
        "csr-vector: spmv.threads_per_row = " + std::to_string(threads), "2, 4, 8, 16, 32");
}

TEST(AlignedCsrThreadsPerRow, HalfWarpByDefault) {
  EXPECT_EQ(aligned_csr_threads_per_row(0), 16);
  EXPECT_EQ(aligned_csr_threads_per_row(4), 4);
  test::expect_error<BadInput>([] { aligned_csr_threads_per_row(48); },
                               "aligned-csr: spmv.threads_per_row = 48", "2, 4, 8, 16, 32");
}

// Row lengths 3000 (starting at 0), 5, 1025 (starting at 3005), 0, 64 with a threshold of 64:
// rows 0 and 2 are long. Chunks are cut at multiples of 1024: row 0 = [0,1024) [1024,2048)
// [2048,3000); row 2 = [3005,3072) [3072,4030).
TEST(CsrLongRows, FindsLongRowsAndCutsChunksAtMultiplesOf1024) {
  const std::vector<index_t> row_offsets = {0, 3000, 3005, 4030, 4030, 4094};
  const CsrLongRows long_rows = find_long_rows(row_offsets, 64);
  EXPECT_EQ(long_rows.rows, (std::vector<index_t>{0, 2}));
  EXPECT_EQ(long_rows.chunk_offsets, (std::vector<index_t>{0, 3, 5}));
  EXPECT_EQ(long_rows.chunk_rows, (std::vector<index_t>{0, 0, 0, 1, 1}));
  EXPECT_EQ(long_rows.chunks(), 5);
  const std::vector<std::pair<index_t, index_t>> expected = {
      {0, 1024}, {1024, 2048}, {2048, 3000}, {3005, 3072}, {3072, 4030}};
  for (index_t chunk = 0; chunk < long_rows.chunks(); ++chunk) {
    const index_t slot = long_rows.chunk_rows[chunk];
    const index_t row = long_rows.rows[slot];
    const EntryRange range = long_row_chunk_range(row_offsets[row], row_offsets[row + 1],
                                                  chunk - long_rows.chunk_offsets[slot]);
    EXPECT_EQ(range.begin, expected[chunk].first) << "chunk " << chunk;
    EXPECT_EQ(range.end, expected[chunk].second) << "chunk " << chunk;
  }
  EXPECT_TRUE(find_long_rows(row_offsets, 3000).rows.empty());
  EXPECT_EQ(find_long_rows(row_offsets, 2999).rows, (std::vector<index_t>{0}));
  EXPECT_TRUE(find_long_rows({0}, 64).rows.empty());
}

// Where the entries are stored decides the cut (sell packs its long rows after the chunks, past
// 2^31 entries on a large matrix): a row stored at [3e9 - 100, 3e9 + 2000) has a chunk up to the
// next multiple of 1024, a whole one, then the rest.
TEST(CsrLongRows, AppendedRowsAreCutWhereTheyAreStoredWith64BitPositions) {
  CsrLongRows long_rows;
  const std::int64_t begin = 3000000000 - 100, end = 3000000000 + 2000;
  append_long_row(long_rows, 7, begin, end);
  append_long_row(long_rows, 9, 0, 1025);
  EXPECT_EQ(long_rows.rows, (std::vector<index_t>{7, 9}));
  // 3e9 - 100 = 2929687 * 1024 + 412, 3e9 + 1999 = 2929689 * 1024 + 463: chunks 2929687..9
  EXPECT_EQ(long_row_chunk_count(begin, end), 3);
  EXPECT_EQ(long_rows.chunk_offsets, (std::vector<index_t>{0, 3, 5}));
  EXPECT_EQ(long_rows.chunk_rows, (std::vector<index_t>{0, 0, 0, 1, 1}));
  const EntryRange first = long_row_chunk_range(begin, end, 0);
  EXPECT_EQ(first.begin, begin);
  EXPECT_EQ(first.end, std::int64_t{2929688} * 1024);
  const EntryRange last = long_row_chunk_range(begin, end, 2);
  EXPECT_EQ(last.begin, std::int64_t{2929689} * 1024);
  EXPECT_EQ(last.end, end);
}

TEST(CsrLongRows, ThresholdIsEightUnrolledStepsOfTheSubWarp) {
  EXPECT_EQ(csr_vector_long_row_length(2), 64);
  EXPECT_EQ(csr_vector_long_row_length(8), 256);
  EXPECT_EQ(csr_vector_long_row_length(32), 1024);
}

// The chunked sum is another summation order: equal to the CSR reference up to rounding.
TEST(CsrLongRows, ChunkedReferenceMatchesCsrReference) {
  std::mt19937_64 rng(77);
  CsrMatrix<double> matrix = test::random_csr(40, 5000, 0.02, rng);
  // Make rows 3 and 31 full (5000 entries, 5 or 6 chunks depending on alignment).
  for (index_t full : {3, 31}) {
    CsrMatrix<double> rebuilt;
    rebuilt.rows = matrix.rows;
    rebuilt.cols = matrix.cols;
    rebuilt.row_offsets = {0};
    for (index_t row = 0; row < matrix.rows; ++row) {
      if (row == full) {
        for (index_t column = 0; column < matrix.cols; ++column) {
          rebuilt.columns.push_back(column);
          rebuilt.values.push_back(std::uniform_real_distribution<double>(-1, 1)(rng));
        }
      } else {
        for (index_t k = matrix.row_offsets[row]; k < matrix.row_offsets[row + 1]; ++k) {
          rebuilt.columns.push_back(matrix.columns[k]);
          rebuilt.values.push_back(matrix.values[k]);
        }
      }
      rebuilt.row_offsets.push_back(rebuilt.nnz());
    }
    matrix = rebuilt;
  }
  std::vector<double> x(5000);
  for (auto& value : x) value = std::uniform_real_distribution<double>(-1, 1)(rng);
  std::vector<double> expected(40), y(40, 0.0);
  reference_spmv(matrix, x.data(), expected.data());
  const CsrLongRows long_rows = find_long_rows(matrix.row_offsets, 1024);
  ASSERT_EQ(long_rows.rows, (std::vector<index_t>{3, 31}));
  csr_long_rows_reference_spmv(matrix, long_rows, x.data(), y.data());
  for (index_t row : {3, 31}) EXPECT_NEAR(y[row], expected[row], 1e-12) << "row " << row;
  EXPECT_EQ(y[0], 0.0) << "rows that are not long are left alone";
}

TEST(CsrGridBlocks, CoversEveryRowWithOneSubWarp) {
  EXPECT_EQ(csr_grid_blocks(10, 8, 256), 1u);
  EXPECT_EQ(csr_grid_blocks(32, 8, 256), 1u);
  EXPECT_EQ(csr_grid_blocks(33, 8, 256), 2u);
  EXPECT_EQ(csr_grid_blocks(1000, 1, 128), 8u);
  // The largest case: 2^31 - 1 rows of 32 threads in blocks of 32 (64-bit product).
  EXPECT_EQ(csr_grid_blocks(2147483647, 32, 32), 2147483647u);
  EXPECT_EQ(csr_grid_blocks(2147483647, 32, 1024), 67108864u);
}

TEST(CsrByteModel, ValuesIndicesRowOffsetsXAndY) {
  // 3x4, 5 stored entries, double: 5 * (8 + 4) + 4 * 4 + 4 * 8 + 3 * 8.
  EXPECT_EQ(csr_bytes_per_spmv(3, 4, 5, sizeof(double), sizeof(double)), 60u + 16u + 32u + 24u);
  // float: 5 * (4 + 4) + 4 * 4 + 4 * 4 + 3 * 4.
  EXPECT_EQ(csr_bytes_per_spmv(3, 4, 5, sizeof(float), sizeof(float)), 40u + 16u + 16u + 12u);
  EXPECT_EQ(csr_bytes_per_spmv(0, 0, 0, sizeof(float), sizeof(float)), 4u);
  // fp32 values under fp64 vectors (spmv.matrix_values single): 5 * (4 + 4) + 4 * 4 + 4 * 8
  // + 3 * 8.
  EXPECT_EQ(csr_bytes_per_spmv(3, 4, 5, sizeof(float), sizeof(double)), 40u + 16u + 32u + 24u);
}

}  // namespace
}  // namespace spk
