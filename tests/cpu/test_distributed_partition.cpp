// The MPI-free parts of a distributed solve: the row partition, the row-range generators
// (grid_entries_before, assemble_grid_rows) against the whole assembled matrix, the local/halo
// split, and one process's rows of a grid with more than 2^31 rows built alone.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <vector>

#include "distributed/local_halo_split.hpp"
#include "distributed/row_partition.hpp"
#include "spmv/host/generators.hpp"
#include "spmv/host/grid_stencil.hpp"
#include "tests/test_support.hpp"

namespace spk {
namespace {

std::vector<GeneratorSpec> grid_specs() {
  return {test::grid_spec("poisson2d", 7),     test::grid_spec("poisson3d", 5),
          test::grid_spec("poisson3d", 4, 27), test::grid_spec("convdiff2d", 6),
          test::grid_spec("convdiff3d", 4),    test::grid_spec("elasticity3d", 3),
          test::grid_spec("poisson3d", 1),     test::grid_spec("elasticity3d", 1)};
}

TEST(GridRows, EntriesBeforeEveryRowMatchTheAssembledMatrix) {
  for (const GeneratorSpec& spec : grid_specs()) {
    SCOPED_TRACE(spec.kind + " n=" + std::to_string(spec.n));
    const GridStencil stencil = *grid_stencil_of(spec);
    const CsrMatrix<double> whole = generate_matrix(spec);
    for (index_t row = 0; row <= whole.rows; ++row)
      ASSERT_EQ(grid_entries_before(stencil, spec.n, row), whole.row_offsets[row]) << row;
  }
}

TEST(GridRows, EveryRangeOfRowsEqualsThoseRowsOfTheWholeMatrix) {
  for (const GeneratorSpec& spec : grid_specs()) {
    SCOPED_TRACE(spec.kind + " n=" + std::to_string(spec.n));
    const GridStencil stencil = *grid_stencil_of(spec);
    const CsrMatrix<double> whole = generate_matrix(spec);
    for (const auto& [first, end] :
         std::vector<std::pair<index_t, index_t>>{{0, whole.rows},
                                                  {0, 0},
                                                  {1, 2},
                                                  {whole.rows / 3, 2 * whole.rows / 3 + 1},
                                                  {whole.rows - 1, whole.rows}}) {
      if (end > whole.rows) continue;  // n = 1: a single row
      const RowBlock<double> block = assemble_grid_rows(stencil, spec.n, first, end, "test");
      const RowBlock<double> expected = rows_of(whole, first, end);
      EXPECT_EQ(block.global_rows, whole.rows);
      EXPECT_EQ(block.first_row, first);
      EXPECT_EQ(block.rows, end - first);
      EXPECT_EQ(block.row_offsets, expected.row_offsets);
      EXPECT_EQ(block.columns, expected.columns);
      EXPECT_EQ(block.values, expected.values);
    }
  }
}

TEST(GridRows, RangesOutsideTheGridAreRefused) {
  const GridStencil stencil = *grid_stencil_of(test::grid_spec("poisson2d", 4));
  EXPECT_THROW(assemble_grid_rows(stencil, 4, 3, 17, "poisson2d n=4"), BadInput);
  EXPECT_THROW(assemble_grid_rows(stencil, 4, 5, 4, "poisson2d n=4"), BadInput);
  EXPECT_THROW(assemble_grid_rows(stencil, 0, 0, 0, "poisson2d n=0"), BadInput);
  EXPECT_FALSE(grid_stencil_of(test::grid_spec("powerlaw", 10)).has_value());
}

TEST(RowPartition, RowsBalanceGivesBlocksThatDifferByOneRow) {
  const RowPartition partition =
      partition_rows(10, 4, RowBalance::rows, [](global_index_t r) { return r; });
  EXPECT_EQ(partition.offsets, (std::vector<global_index_t>{0, 3, 6, 8, 10}));
  EXPECT_EQ(partition.owner(0), 0);
  EXPECT_EQ(partition.owner(5), 1);
  EXPECT_EQ(partition.owner(9), 3);
}

TEST(RowPartition, NonzeroBalanceFollowsTheEntries) {
  // rows 0..3 hold 10 entries each, rows 4..11 one each: 48 entries, 2 processes -> 24 each
  const auto entries = [](global_index_t r) { return r <= 4 ? 10 * r : 40 + (r - 4); };
  const RowPartition partition = partition_rows(12, 2, RowBalance::nonzeros, entries);
  EXPECT_EQ(partition.offsets, (std::vector<global_index_t>{0, 3, 12}));  // 30 >= 24 at row 3
  for (const GeneratorSpec& spec : grid_specs()) {
    const GridStencil stencil = *grid_stencil_of(spec);
    const CsrMatrix<double> whole = generate_matrix(spec);
    const RowPartition even =
        partition_rows(whole.rows, 3, RowBalance::nonzeros,
                       [&](global_index_t r) { return grid_entries_before(stencil, spec.n, r); });
    for (int p = 0; p < 3; ++p) {  // every block within one row's entries of nnz / 3
      const double share =
          whole.row_offsets[even.end_row(p)] - whole.row_offsets[even.first_row(p)];
      EXPECT_NEAR(share, whole.nnz() / 3.0, 81.0 + 1e-9) << spec.kind << " block " << p;
    }
  }
}

TEST(RowPartition, MoreProcessesThanRowsLeavesEmptyBlocks) {
  for (const RowBalance balance : {RowBalance::rows, RowBalance::nonzeros}) {
    const RowPartition partition =
        partition_rows(3, 5, balance, [](global_index_t r) { return 2 * r; });
    EXPECT_EQ(partition.processes(), 5);
    EXPECT_EQ(partition.global_rows(), 3);
    int empty = 0;
    for (int p = 0; p < 5; ++p) empty += partition.rows(p) == 0 ? 1 : 0;
    EXPECT_EQ(empty, 2);
    for (global_index_t row = 0; row < 3; ++row) {  // the owner holds the row
      const int owner = partition.owner(row);
      EXPECT_LE(partition.first_row(owner), row);
      EXPECT_LT(row, partition.end_row(owner));
    }
  }
  const RowPartition counts = partition_from_counts({0, 2, 0, 0, 1});
  EXPECT_EQ(counts.owner(0), 1);
  EXPECT_EQ(counts.owner(1), 1);
  EXPECT_EQ(counts.owner(2), 4);
}

TEST(RowPartition, AgglomerationMergesConsecutiveBlocksOntoTheFirstOfEachGroup) {
  const RowPartition four = partition_from_counts({30, 30, 30, 30});
  // 30 rows a process against 100 wanted: ceil(120 / 100) = 2 groups of two ranks
  EXPECT_EQ(agglomerated_partition(four, 100).offsets,
            (std::vector<global_index_t>{0, 60, 60, 120, 120}));
  // 1000: one process takes every row
  EXPECT_EQ(agglomerated_partition(four, 1000).offsets,
            (std::vector<global_index_t>{0, 120, 120, 120, 120}));
  // enough rows a process, 0 (never), or one process holding rows: unchanged
  EXPECT_EQ(agglomerated_partition(four, 30).offsets, four.offsets);
  EXPECT_EQ(agglomerated_partition(four, 0).offsets, four.offsets);
  const RowPartition one = partition_from_counts({0, 0, 40, 0});
  EXPECT_EQ(agglomerated_partition(one, 1000).offsets, one.offsets);
  // empty ranks are skipped: the group's rows go to its first rank that holds any
  const RowPartition gaps = partition_from_counts({0, 25, 0, 25, 25, 0, 25});
  const RowPartition merged = agglomerated_partition(gaps, 50);
  EXPECT_EQ(merged.offsets, (std::vector<global_index_t>{0, 0, 50, 50, 50, 100, 100, 100}));
  EXPECT_EQ(merged.global_rows(), gaps.global_rows());
  // three groups from five ranks of unequal blocks; the numbering (global rows) unchanged
  const RowPartition uneven = partition_from_counts({10, 50, 5, 5, 30});
  const RowPartition three = agglomerated_partition(uneven, 35);
  EXPECT_EQ(three.global_rows(), 100);
  int holding = 0;
  for (int p = 0; p < three.processes(); ++p) holding += three.rows(p) > 0 ? 1 : 0;
  EXPECT_EQ(holding, 3);
  for (int p = 0; p < three.processes(); ++p) {  // every block starts where one of the old did
    if (three.rows(p) > 0) {
      EXPECT_EQ(three.first_row(p), uneven.first_row(p));
    }
  }
}

TEST(LocalHaloSplit, OwnColumnsAreLocalOthersCompressedByOwner) {
  // poisson2d n=4 (16 rows), 4 processes by rows: process 1 owns rows 4..7 (grid line y=1)
  const GeneratorSpec spec = test::grid_spec("poisson2d", 4);
  const CsrMatrix<double> whole = generate_matrix(spec);
  const RowPartition partition =
      partition_rows(16, 4, RowBalance::rows, [](global_index_t r) { return r; });
  const SplitRows<double> split = split_local_and_halo(rows_of(whole, 4, 8), partition, 1);
  EXPECT_EQ(split.local.rows, 4);
  EXPECT_EQ(split.local.cols, 4);
  EXPECT_EQ(split.halo_columns, (std::vector<global_index_t>{0, 1, 2, 3, 8, 9, 10, 11}));
  ASSERT_EQ(split.sources.size(), 2u);
  EXPECT_EQ(split.sources[0].rank, 0);
  EXPECT_EQ(split.sources[0].count, 4);
  EXPECT_EQ(split.sources[1].rank, 2);
  EXPECT_EQ(split.sources[1].first_slot, 4);
  EXPECT_EQ(split.local.nnz() + split.halo.nnz(), whole.row_offsets[8] - whole.row_offsets[4]);
  EXPECT_EQ(split.halo.nnz(), 8);  // one neighbour below and one above each point
  // the pattern keeps the order: row 5 = (1,1) has columns 1, 4, 5, 6, 9 -> slot 1, 0, 1, 2, 5
  const index_t begin = split.pattern.row_offsets[1];
  EXPECT_EQ(std::vector<index_t>(split.pattern.columns.begin() + begin,
                                 split.pattern.columns.begin() + begin + 5),
            (std::vector<index_t>{4 + 1, 0, 1, 2, 4 + 5}));
  // y = local x_own + halo x_halo equals the whole matrix's rows
  std::vector<double> x(16);
  for (int i = 0; i < 16; ++i) x[i] = 1.0 + i * i;
  std::vector<double> x_halo;
  for (const global_index_t column : split.halo_columns) x_halo.push_back(x[column]);
  for (index_t row = 0; row < 4; ++row) {
    double expected = 0.0, got = 0.0;
    for (index_t k = whole.row_offsets[4 + row]; k < whole.row_offsets[5 + row]; ++k)
      expected += whole.values[k] * x[whole.columns[k]];
    for (index_t k = split.local.row_offsets[row]; k < split.local.row_offsets[row + 1]; ++k)
      got += split.local.values[k] * x[4 + split.local.columns[k]];
    for (index_t k = split.halo.row_offsets[row]; k < split.halo.row_offsets[row + 1]; ++k)
      got += split.halo.values[k] * x_halo[split.halo.columns[k]];
    EXPECT_EQ(got, expected) << row;
  }
}

TEST(LocalHaloSplit, ScatterValuesFollowsThePattern) {
  const CsrMatrix<double> whole = generate_matrix(test::grid_spec("poisson2d", 4));
  const RowPartition partition =
      partition_rows(16, 2, RowBalance::rows, [](global_index_t r) { return r; });
  SplitRows<double> split = split_local_and_halo(rows_of(whole, 8, 16), partition, 1);
  std::vector<double> doubled(whole.values.begin() + whole.row_offsets[8], whole.values.end());
  for (double& value : doubled) value *= 2.0;
  scatter_values(split, doubled.data());
  EXPECT_EQ(split.pattern.values, doubled);
  for (const double value : split.local.values) EXPECT_TRUE(value == 8.0 || value == -2.0);
  for (const double value : split.halo.values) EXPECT_EQ(value, -2.0);
}

TEST(LocalHaloSplit, BadColumnsAndWrongBlocksAreRefusedNamingTheGlobalRow) {
  RowBlock<double> block;
  block.global_rows = 4;
  block.first_row = 2;
  block.rows = 2;
  block.row_offsets = {0, 1, 2};
  block.columns = {2, 4};  // column 4 of a 4 x 4 matrix
  block.values = {1.0, 1.0};
  const RowPartition partition = partition_from_counts({2, 2});
  try {
    split_local_and_halo(block, partition, 1);
    FAIL() << "no error";
  } catch (const BadInput& error) {
    EXPECT_STREQ(error.what(), "column index 4 in global row 3 (0-based) is out of range 0..3");
  }
  EXPECT_THROW(split_local_and_halo(block, partition, 0), BadInput);  // not rank 0's block
}

// A rectangular matrix (a prolongator: 8 fine rows, 3 coarse columns): rows cut {3, 5}, columns
// {1, 2}. Process 1 owns rows 3..7 and columns 1..2: the local block has 2 columns, column 0 is
// the halo (owned by process 0), and y = local x_own + halo x_halo is P x.
TEST(LocalHaloSplit, RectangularMatrixSplitsByTheColumnPartition) {
  RowBlock<double> block;
  block.global_rows = 8;
  block.first_row = 3;
  block.rows = 5;
  block.row_offsets = {0, 2, 3, 5, 6, 8};
  block.columns = {1, 0, 1, 1, 2, 2, 0, 2};
  block.values = {1.0, 0.5, 2.0, 3.0, 0.25, 4.0, 0.125, 5.0};
  const RowPartition rows = partition_from_counts({3, 5});
  const RowPartition columns = partition_from_counts({1, 2});
  const SplitRows<double> split = split_local_and_halo(block, rows, columns, 1);
  EXPECT_EQ(split.first_row, 3);
  EXPECT_EQ(split.first_column, 1);
  EXPECT_EQ(split.local.rows, 5);
  EXPECT_EQ(split.local.cols, 2);
  EXPECT_EQ(split.local.row_offsets, (std::vector<index_t>{0, 1, 2, 4, 5, 6}));
  EXPECT_EQ(split.local.columns, (std::vector<index_t>{0, 0, 0, 1, 1, 1}));
  EXPECT_EQ(split.local.values, (std::vector<double>{1.0, 2.0, 3.0, 0.25, 4.0, 5.0}));
  EXPECT_EQ(split.halo_columns, (std::vector<global_index_t>{0}));
  ASSERT_EQ(split.sources.size(), 1u);
  EXPECT_EQ(split.sources[0].rank, 0);
  EXPECT_EQ(split.sources[0].count, 1);
  EXPECT_EQ(split.halo.cols, 1);
  EXPECT_EQ(split.halo.row_offsets, (std::vector<index_t>{0, 1, 1, 1, 1, 2}));
  EXPECT_EQ(split.halo.values, (std::vector<double>{0.5, 0.125}));
  // the pattern: own columns 0..1, then the halo slot as column 2, in the caller's order
  EXPECT_EQ(split.pattern.cols, 3);
  EXPECT_EQ(split.pattern.columns, (std::vector<index_t>{0, 2, 0, 0, 1, 1, 2, 1}));
  EXPECT_EQ(split.pattern.values, block.values);
  const std::vector<double> x = {7.0, 11.0, 13.0};  // the coarse vector, global
  for (index_t row = 0; row < 5; ++row) {
    double expected = 0.0, got = 0.0;
    for (index_t k = block.row_offsets[row]; k < block.row_offsets[row + 1]; ++k)
      expected += block.values[k] * x[block.columns[k]];
    for (index_t k = split.local.row_offsets[row]; k < split.local.row_offsets[row + 1]; ++k)
      got += split.local.values[k] * x[1 + split.local.columns[k]];
    for (index_t k = split.halo.row_offsets[row]; k < split.halo.row_offsets[row + 1]; ++k)
      got += split.halo.values[k] * x[split.halo_columns[split.halo.columns[k]]];
    EXPECT_EQ(got, expected) << row;
  }
  // new values reach the local and halo blocks through the rectangular pattern
  SplitRows<double> refreshed = split;
  std::vector<double> doubled = block.values;
  for (double& value : doubled) value *= 2.0;
  scatter_values(refreshed, doubled.data());
  EXPECT_EQ(refreshed.local.values, (std::vector<double>{2.0, 4.0, 6.0, 0.5, 8.0, 10.0}));
  EXPECT_EQ(refreshed.halo.values, (std::vector<double>{1.0, 0.25}));
  // a column past the 3 global columns is refused, naming the global row
  block.columns[4] = 3;
  try {
    split_local_and_halo(block, rows, columns, 1);
    FAIL() << "no error";
  } catch (const BadInput& error) {
    EXPECT_STREQ(error.what(), "column index 3 in global row 5 (0-based) is out of range 0..2");
  }
}

// The square overload is the rectangular one with the row partition twice.
TEST(LocalHaloSplit, SquareSplitEqualsTheRectangularOneWithTheSamePartition) {
  const CsrMatrix<double> whole = generate_matrix(test::grid_spec("convdiff2d", 6));
  const RowPartition partition = partition_from_counts({10, 0, 17, 9});
  for (int rank = 0; rank < 4; ++rank) {
    const RowBlock<double> block =
        rows_of(whole, partition.first_row(rank), partition.end_row(rank));
    const SplitRows<double> square = split_local_and_halo(block, partition, rank);
    const SplitRows<double> rectangular = split_local_and_halo(block, partition, partition, rank);
    EXPECT_EQ(square.first_column, square.first_row);
    EXPECT_EQ(square.local.cols, square.local.rows);
    EXPECT_EQ(square.local.columns, rectangular.local.columns);
    EXPECT_EQ(square.local.values, rectangular.local.values);
    EXPECT_EQ(square.halo.columns, rectangular.halo.columns);
    EXPECT_EQ(square.pattern.columns, rectangular.pattern.columns);
    EXPECT_EQ(square.halo_columns, rectangular.halo_columns);
    EXPECT_EQ(square.sources.size(), rectangular.sources.size());
  }
}

// One process's rows of the 3-D Poisson problem on a 1300^3 grid: 2,197,000,000 rows (more
// than 2^31) and 15.4 billion nonzeros, cut by nonzeros for 4096 processes. Only the rows of
// one process in the middle are built (about 536,000); the partition, the neighbours'
// columns and the halo owners are checked against the grid arithmetic.
TEST(GridRows, OneProcessOfAGridBeyond32BitIndicesIsBuiltAlone) {
  const int n = 1300;
  const std::int64_t plane = std::int64_t{n} * n;
  const GridStencil stencil = *grid_stencil_of(test::grid_spec("poisson3d", n));
  const std::int64_t rows = grid_operator_rows(stencil, n);
  ASSERT_EQ(rows, std::int64_t{n} * n * n);
  ASSERT_GT(rows, std::int64_t{std::numeric_limits<index_t>::max()});
  const std::int64_t nnz = grid_entries_before(stencil, n, rows);
  EXPECT_EQ(nnz, 7 * std::int64_t{n} * n * n - 6 * plane);  // 7n^3 - 6n^2

  const RowPartition partition =
      partition_rows(rows, 4096, RowBalance::nonzeros,
                     [&](global_index_t r) { return grid_entries_before(stencil, n, r); });
  const int rank = 4050;  // its rows lie past 2^31
  const global_index_t first = partition.first_row(rank), end = partition.end_row(rank);
  EXPECT_GT(first, std::int64_t{std::numeric_limits<index_t>::max()});
  EXPECT_NEAR(static_cast<double>(grid_entries_before(stencil, n, end) -
                                  grid_entries_before(stencil, n, first)),
              static_cast<double>(nnz) / 4096.0, 7.0);

  const RowBlock<double> block = assemble_grid_rows(stencil, n, first, end, "poisson3d n=1300");
  EXPECT_EQ(block.global_rows, rows);
  EXPECT_EQ(block.rows, end - first);
  EXPECT_EQ(block.nnz(),
            grid_entries_before(stencil, n, end) - grid_entries_before(stencil, n, first));
  // An interior row: the diagonal and its six neighbours at +-1, +-n, +-n^2, in order.
  const index_t local = block.rows / 2;
  const global_index_t row = first + local;
  ASSERT_TRUE(row % n > 0 && row % n < n - 1 && (row / n) % n > 0 && row / plane < n - 1);
  const std::vector<global_index_t> expected{row - plane, row - n, row - 1,    row,
                                             row + 1,     row + n, row + plane};
  const index_t begin = block.row_offsets[local];
  ASSERT_EQ(block.row_offsets[local + 1] - begin, 7);
  EXPECT_EQ(
      std::vector<global_index_t>(block.columns.begin() + begin, block.columns.begin() + begin + 7),
      expected);
  EXPECT_EQ(block.values[begin + 3], 6.0);
  EXPECT_EQ(block.values[begin], -1.0);

  // The halo: the rows one plane below and above, owned by the processes around this one.
  const SplitRows<double> split = split_local_and_halo(block, partition, rank);
  EXPECT_EQ(split.halo_columns.front(), first - plane);
  EXPECT_EQ(split.halo_columns.back(), end - 1 + plane);
  ASSERT_FALSE(split.sources.empty());
  EXPECT_EQ(split.sources.front().rank, partition.owner(first - plane));
  EXPECT_EQ(split.sources.back().rank, partition.owner(end - 1 + plane));
  EXPECT_LT(split.sources.front().rank, rank);
  EXPECT_GT(split.sources.back().rank, rank);
  // a plane below and above each row (2 x rows), and at most a grid line either side
  const auto halo = static_cast<std::int64_t>(split.halo_columns.size());
  EXPECT_GE(halo, 2 * std::int64_t{block.rows});
  EXPECT_LE(halo, 2 * std::int64_t{block.rows} + 2 * n);
}

}  // namespace
}  // namespace spk
