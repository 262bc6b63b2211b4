// whole_rows (distributed/amg/whole_rows.hpp; host code of the MPI library, so in
// spk_tests_mpi, though nothing here communicates): a process's rows with global columns in
// the whole form (own columns, then halo slots, each row sorted by its local column). Checked
// against a plain serial reference on fresh random rows big enough for the parallel loops
// (2^16 entries and more): rows given sorted by global column (the form send_rows_to_owners
// sums) and rows in any order, empty rows, a given halo with unused ids; and the errors: the
// first row (in row order) holding a column twice is named by its global row, a column outside
// the own range and the halo is refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "distributed/amg/whole_rows.hpp"
#include "spkrylov/errors.hpp"
#include "tests/test_support.hpp"

namespace spk {
namespace {

constexpr global_index_t first_column = 5000;
constexpr index_t own_columns = 3000;
constexpr global_index_t global_columns = 20000;

// rows of distinct random columns (a third of them outside the own range), each sorted or
// shuffled, every tenth empty
RowBlock<double> random_rows(std::mt19937_64& rng, index_t rows, bool sorted) {
  RowBlock<double> block;
  block.global_rows = global_columns;
  block.first_row = first_column;
  block.rows = rows;
  block.row_offsets.push_back(0);
  std::uniform_int_distribution<int> length(1, 40);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  std::uniform_int_distribution<global_index_t> own(first_column, first_column + own_columns - 1);
  std::uniform_int_distribution<global_index_t> any(0, global_columns - 1);
  for (index_t r = 0; r < rows; ++r) {
    std::vector<global_index_t> columns;
    if (r % 10 != 0)
      for (int k = length(rng); k > 0; --k) columns.push_back(k % 3 == 0 ? any(rng) : own(rng));
    std::sort(columns.begin(), columns.end());
    columns.erase(std::unique(columns.begin(), columns.end()), columns.end());
    if (!sorted) std::shuffle(columns.begin(), columns.end(), rng);
    for (const global_index_t column : columns) {
      block.columns.push_back(column);
      block.values.push_back(value(rng));
    }
    block.row_offsets.push_back(static_cast<index_t>(block.columns.size()));
  }
  return block;
}

// The serial reference: each entry's local column, each row sorted by it.
void expect_matches_reference(const RowBlock<double>& block, const WholeRows& whole) {
  const std::vector<global_index_t>& halo = whole.halo_columns;
  ASSERT_TRUE(std::is_sorted(halo.begin(), halo.end()));
  ASSERT_EQ(whole.matrix.rows, block.rows);
  ASSERT_EQ(whole.matrix.cols, own_columns + static_cast<index_t>(halo.size()));
  ASSERT_EQ(whole.matrix.row_offsets, block.row_offsets);
  for (index_t r = 0; r < block.rows; ++r) {
    std::vector<std::pair<index_t, double>> expected;
    for (index_t k = block.row_offsets[r]; k < block.row_offsets[r + 1]; ++k) {
      const global_index_t column = block.columns[k];
      const bool own = column >= first_column && column < first_column + own_columns;
      const index_t local =
          own ? static_cast<index_t>(column - first_column)
              : own_columns +
                    static_cast<index_t>(std::lower_bound(halo.begin(), halo.end(), column) -
                                         halo.begin());
      expected.emplace_back(local, block.values[k]);
    }
    std::sort(expected.begin(), expected.end());
    for (index_t k = block.row_offsets[r]; k < block.row_offsets[r + 1]; ++k) {
      const auto& [local, value] = expected[static_cast<std::size_t>(k - block.row_offsets[r])];
      ASSERT_EQ(whole.matrix.columns[k], local) << "row " << r;
      ASSERT_EQ(whole.matrix.values[k], value) << "row " << r;
      ASSERT_EQ(block.values[static_cast<std::size_t>(whole.order[k])], value) << "row " << r;
    }
  }
}

TEST(WholeRows, SortedAndShuffledRowsEqualTheSerialReference) {
  test::FreshRandom fresh;
  for (const bool sorted : {true, false}) {
    SCOPED_TRACE(sorted ? "rows sorted by global column" : "rows in any order");
    const RowBlock<double> block = random_rows(fresh.engine(), 6000, sorted);
    ASSERT_GE(block.columns.size(), 65536u);  // the parallel loops run
    expect_matches_reference(block, whole_rows(block, first_column, own_columns));
  }
}

TEST(WholeRows, AGivenHaloWithUnusedIdsNumbersTheSlotsByIt) {
  test::FreshRandom fresh;
  const RowBlock<double> block = random_rows(fresh.engine(), 4000, true);
  std::vector<global_index_t> halo;
  for (global_index_t c = 0; c < global_columns; ++c)
    if (c < first_column || c >= first_column + own_columns) halo.push_back(c);  // every one
  const WholeRows whole = whole_rows(block, first_column, own_columns, halo);
  EXPECT_EQ(whole.halo_columns, halo);
  expect_matches_reference(block, whole);
}

TEST(WholeRows, TheFirstRowHoldingAColumnTwiceIsNamed) {
  test::FreshRandom fresh;
  RowBlock<double> block = random_rows(fresh.engine(), 6000, false);
  // the first rows of at least two entries from 5000 and from 4000 repeat their first column
  const auto long_row_from = [&](index_t row) {
    while (block.row_offsets[row + 1] - block.row_offsets[row] < 2) ++row;
    return row;
  };
  const index_t later = long_row_from(5000), first = long_row_from(4000);
  for (const index_t row : {later, first}) {
    const index_t begin = block.row_offsets[row];
    block.columns[begin + 1] = block.columns[begin];
  }
  try {
    (void)whole_rows(block, first_column, own_columns);
    FAIL() << "no error";
  } catch (const BadInput& error) {
    EXPECT_NE(std::string(error.what())
                  .find("global row " + std::to_string(first_column + first) + " holds column " +
                        std::to_string(block.columns[block.row_offsets[first]]) + " twice"),
              std::string::npos)
        << error.what();
  }
}

TEST(WholeRows, AColumnOutsideTheOwnRangeAndTheHaloIsRefused) {
  test::FreshRandom fresh;
  const RowBlock<double> block = random_rows(fresh.engine(), 3000, true);
  std::vector<global_index_t> halo;  // the halo without column 0 and 19999
  for (global_index_t c = 1; c < global_columns - 1; ++c)
    if (c < first_column || c >= first_column + own_columns) halo.push_back(c);
  RowBlock<double> outside = block;
  outside.columns[outside.row_offsets[7]] = global_columns - 1;
  EXPECT_THROW((void)whole_rows(outside, first_column, own_columns, halo), BadInput);
}

}  // namespace
}  // namespace spk
