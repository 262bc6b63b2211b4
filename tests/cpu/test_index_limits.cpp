// 32-bit indices at the edge (issue 34: 250M rows and about 1.75e9 nonzeros per process, under
// 2^31 but close), without allocating gigabytes: the size checks just under and over 2^31, a
// billion-row grid cut for 4 processes (fits) and for 3 (refused with the block, the count and
// the remedy, on the host and the device generator's path alike, before anything is allocated),
// the launch-size helpers past 2^31 items, and the device grid generator's per-row rules
// (distributed/grid_rows_geometry.hpp), emulated on the CPU against the host generator and the
// host split.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "core/launch_grid.hpp"
#include "distributed/compressed_rows_operator.hpp"
#include "distributed/device_grid_rows.hpp"
#include "distributed/grid_rows_geometry.hpp"
#include "distributed/local_halo_split.hpp"
#include "distributed/row_partition.hpp"
#include "spmv/formats/csr_launch_policy.hpp"
#include "spmv/formats/ellpack_layout.hpp"
#include "spmv/host/generators.hpp"
#include "spmv/host/grid_stencil.hpp"
#include "tests/test_support.hpp"

namespace spk {
namespace {

constexpr std::int64_t two_to_31 = std::int64_t{1} << 31;

std::string message_of(const std::function<void()>& work) {
  try {
    work();
  } catch (const BadInput& error) {
    return error.what();
  }
  return "(no BadInput)";
}

TEST(IndexLimits, CheckIndexRangeAcceptsTwoToThe31MinusOneAndRefusesTwoToThe31) {
  EXPECT_NO_THROW(check_index_range(two_to_31 - 1, "entries"));
  const std::string message = message_of([] { check_index_range(two_to_31, "entries"); });
  EXPECT_EQ(message, "entries = 2147483648 exceeds the 32-bit index limit 2147483647");
  EXPECT_THROW(check_index_range(-1, "entries"), BadInput);
}

// 1000^3 7-point Poisson (10^9 rows, 6,994,000,000 nonzeros) cut by nonzeros: every one of 4
// blocks fits 32-bit offsets (about 1.75e9 entries), which is what issue 34's run needs.
TEST(IndexLimits, ABillionRowGridFitsFourProcessesOf32BitBlocks) {
  const int n = 1000;
  const GridStencil stencil = *grid_stencil_of(test::grid_spec("poisson3d", n));
  const std::int64_t rows = grid_operator_rows(stencil, n);
  ASSERT_EQ(rows, 1'000'000'000);
  const auto before = [&](global_index_t row) { return grid_entries_before(stencil, n, row); };
  EXPECT_EQ(before(rows), 7 * rows - 6 * std::int64_t{n} * n);
  const RowPartition four = partition_rows(rows, 4, RowBalance::nonzeros, before);
  for (int rank = 0; rank < 4; ++rank) {
    const std::int64_t entries = before(four.end_row(rank)) - before(four.first_row(rank));
    EXPECT_LT(entries, two_to_31) << rank;
    EXPECT_GT(entries, 1'740'000'000) << rank;
    EXPECT_NO_THROW(check_grid_block(stencil, n, four.first_row(rank), four.end_row(rank), "p"));
  }
}

// Three processes: 2.33e9 entries each. Refused before a byte is allocated, naming the block,
// the count and the remedy, by the host generator and by the device one (which checks before
// any CUDA call: this runs without a GPU).
TEST(IndexLimits, ABlockPastTwoToThe31EntriesIsRefusedBeforeAllocating) {
  const int n = 1000;
  const GridStencil stencil = *grid_stencil_of(test::grid_spec("poisson3d", n));
  const std::int64_t rows = grid_operator_rows(stencil, n);
  const auto before = [&](global_index_t row) { return grid_entries_before(stencil, n, row); };
  const RowPartition three = partition_rows(rows, 3, RowBalance::nonzeros, before);
  const std::int64_t first = three.first_row(1), end = three.end_row(1);
  const std::int64_t entries = before(end) - before(first);
  ASSERT_GT(entries, two_to_31);
  const std::string expected = "poisson3d n=1000 (rank 1): the block of rows [" +
                               std::to_string(first) + ", " + std::to_string(end) + ") has " +
                               std::to_string(entries) +
                               " nonzeros, more than the 32-bit index limit 2147483647 (one "
                               "process holds at most 2147483647 rows and entries: use more "
                               "processes, e.g. mpirun -np N)";
  EXPECT_EQ(
      message_of([&] { assemble_grid_rows(stencil, n, first, end, "poisson3d n=1000 (rank 1)"); }),
      expected);
  EXPECT_EQ(message_of([&] {
              generate_device_grid_rows<double>(stencil, n, first, end, DeviceGridRowsRequest{},
                                                "poisson3d n=1000 (rank 1)", nullptr);
            }),
            expected);
  // One process: 10^9 rows fit, 6.99e9 entries do not.
  EXPECT_NE(message_of([&] {
              assemble_grid_rows(stencil, n, 0, rows, "whole");
            }).find("has 6994000000 nonzeros, more than the 32-bit index limit"),
            std::string::npos);
  // 1300^3: 2.197e9 rows in one block.
  const GridStencil big = *grid_stencil_of(test::grid_spec("poisson3d", 1300));
  EXPECT_NE(message_of([&] {
              assemble_grid_rows(big, 1300, 0, 2'197'000'000, "big");
            }).find("has 2197000000 rows, more than the 32-bit index limit"),
            std::string::npos);
}

TEST(IndexLimits, LaunchSizesStayExactPastTwoToThe31Items) {
  EXPECT_EQ(setup_grid(0), 1u);
  EXPECT_EQ(setup_grid(1), 1u);
  EXPECT_EQ(setup_grid(257), 2u);
  EXPECT_EQ(setup_grid(two_to_31 - 1), 65535u * 16);  // capped: grid-stride loops walk the rest
  EXPECT_EQ(setup_grid(std::int64_t{7} * two_to_31), 65535u * 16);
  EXPECT_EQ(setup_grid(std::int64_t{65535} * 16 * 256), 65535u * 16);
  EXPECT_EQ(setup_grid(std::int64_t{65535} * 16 * 256 - 256), 65535u * 16 - 1);
  // 2^31 - 1 rows, a warp each: 6.9e10 threads, counted in 64 bits.
  const auto max_rows = std::numeric_limits<index_t>::max();
  EXPECT_EQ(csr_grid_blocks(max_rows, 32, 256), 268435456u);
  EXPECT_EQ(csr_grid_blocks(max_rows, 1, 256), 8388608u);
}

TEST(IndexLimits, EllpackRSizesOfA250MillionRowBlockAreCountedIn64Bits) {
  const index_t rows = 250'000'000, width = 7;
  EXPECT_EQ(ell_pitch(rows), 250'000'000u);  // already a multiple of 32
  // 1.75e9 slots of 8 + 4 bytes: 21 GB, past 2^32.
  EXPECT_EQ(ell_array_bytes<double>(rows, width), std::size_t{1'750'000'000} * 12);
  EllPaddingLimits limits;
  limits.format = "ellpack-r";
  limits.max_bytes = std::size_t{80} * 1000 * 1000 * 1000;
  EXPECT_NO_THROW(check_ell_size<double>(rows, width, limits));
  limits.max_bytes = std::size_t{20} * 1000 * 1000 * 1000;
  EXPECT_THROW(check_ell_size<double>(rows, width, limits), BadInput);
}

// ---- the device generator's rules, on the CPU ----

TEST(GridRowsGeometry, TheHaloWindowIsTheStencilsReach) {
  const auto reach = [](const GeneratorSpec& spec) {
    const GridStencil stencil = *grid_stencil_of(spec);
    const std::int64_t rows = grid_operator_rows(stencil, spec.n);
    return grid_rows_geometry(stencil, spec.n, rows / 3, rows / 2).reach;
  };
  EXPECT_EQ(reach(test::grid_spec("poisson3d", 10)), 100);             // n^2: the plane
  EXPECT_EQ(reach(test::grid_spec("poisson3d", 10, 27)), 111);         // n^2 + n + 1
  EXPECT_EQ(reach(test::grid_spec("poisson2d", 10)), 10);              // n: the line
  EXPECT_EQ(reach(test::grid_spec("elasticity3d", 10)), 3 * 111 + 2);  // whole nodes
  EXPECT_EQ(reach(test::grid_spec("convdiff2d", 10)), 10);
  // Clipped at the grid's ends.
  const GridStencil stencil = *grid_stencil_of(test::grid_spec("poisson3d", 10));
  const GridRowsGeometry first_block = grid_rows_geometry(stencil, 10, 0, 150);
  EXPECT_EQ(first_block.below, 0);
  EXPECT_EQ(first_block.above, 100);
  const GridRowsGeometry last_block = grid_rows_geometry(stencil, 10, 950, 1000);
  EXPECT_EQ(last_block.below, 100);
  EXPECT_EQ(last_block.above, 0);
  EXPECT_EQ(last_block.window_column(0), 850);
  EXPECT_EQ(last_block.window_position(949), 99);
}

// What the device generator computes (device_grid_rows.cu), step for step on the CPU: pass 1,
// the scans, the compaction and pass 2, from for_each_grid_entry and the window.
struct EmulatedRows {
  CsrMatrix<double> local, halo, pattern;
  std::vector<index_t> halo_rows;
  std::vector<global_index_t> halo_columns;
  std::vector<double> row_sums;
};

EmulatedRows emulate_device_generator(const GridStencil& stencil, int n, std::int64_t first,
                                      std::int64_t end) {
  const GridRowsGeometry g = grid_rows_geometry(stencil, n, first, end);
  const std::vector<double> blocks = grid_point_blocks(stencil);
  const auto rows = static_cast<index_t>(end - first);
  std::vector<index_t> local_lengths(rows + 1, 0), halo_lengths(rows + 1, 0), kept(rows + 1, 0);
  std::vector<index_t> flags(static_cast<std::size_t>(g.window()) + 1, 0);
  for (index_t r = 0; r < rows; ++r) {
    for_each_grid_entry(g, g.first + r, [&](std::int64_t column, int) {
      if (g.own(column)) {
        ++local_lengths[r];
      } else {
        const std::int64_t w = g.window_position(column);
        EXPECT_GE(w, 0);
        EXPECT_LT(w, g.window());
        EXPECT_EQ(g.window_column(w), column);
        flags[static_cast<std::size_t>(w)] = 1;
        ++halo_lengths[r];
      }
    });
    kept[r] = halo_lengths[r] > 0 ? 1 : 0;
  }
  const auto exclusive = [](const std::vector<index_t>& in) {
    std::vector<index_t> out(in.size(), 0);
    std::exclusive_scan(in.begin(), in.end(), out.begin(), index_t{0});
    return out;
  };
  const std::vector<index_t> local_offsets = exclusive(local_lengths);
  const std::vector<index_t> halo_starts = exclusive(halo_lengths);
  const std::vector<index_t> kept_numbers = exclusive(kept);
  const std::vector<index_t> slots = exclusive(flags);
  EmulatedRows out;
  const index_t kept_count = kept_numbers[rows], halo_size = slots.back();
  out.halo_rows.resize(kept_count);
  out.halo.rows = kept_count;
  out.halo.cols = halo_size;
  out.halo.row_offsets.assign(kept_count + 1, halo_starts[rows]);
  for (index_t r = 0; r < rows; ++r)
    if (halo_lengths[r] > 0) {
      out.halo_rows[kept_numbers[r]] = r;
      out.halo.row_offsets[kept_numbers[r]] = halo_starts[r];
    }
  out.halo_columns.resize(halo_size);
  for (std::int64_t w = 0; w < g.window(); ++w)
    if (flags[w] != 0) out.halo_columns[slots[w]] = g.window_column(w);
  out.local.rows = out.local.cols = rows;
  out.local.row_offsets = local_offsets;
  out.local.columns.resize(local_offsets[rows]);
  out.local.values.resize(local_offsets[rows]);
  out.halo.columns.resize(halo_starts[rows]);
  out.halo.values.resize(halo_starts[rows]);
  out.pattern.rows = rows;
  out.pattern.cols = rows + halo_size;
  out.pattern.row_offsets.resize(rows + 1);
  out.pattern.columns.resize(local_offsets[rows] + halo_starts[rows]);
  out.pattern.values.resize(out.pattern.columns.size());
  out.row_sums.resize(rows);
  for (index_t r = 0; r <= rows; ++r)
    out.pattern.row_offsets[r] = local_offsets[r] + halo_starts[r];
  for (index_t r = 0; r < rows; ++r) {
    index_t l = local_offsets[r], h = halo_starts[r], p = l + h;
    double sum = 0.0;
    for_each_grid_entry(g, g.first + r, [&](std::int64_t column, int slot) {
      const double value = blocks[slot];
      sum += value;
      index_t stored;
      if (g.own(column)) {
        stored = static_cast<index_t>(column - g.first);
        out.local.columns[l] = stored;
        out.local.values[l++] = value;
      } else {
        const index_t s = slots[g.window_position(column)];
        stored = rows + s;
        out.halo.columns[h] = s;
        out.halo.values[h++] = value;
      }
      out.pattern.columns[p] = stored;
      out.pattern.values[p++] = value;
    });
    out.row_sums[r] = sum;
  }
  return out;
}

void expect_same_csr(const CsrMatrix<double>& a, const CsrMatrix<double>& b, const char* what) {
  EXPECT_EQ(a.rows, b.rows) << what;
  EXPECT_EQ(a.cols, b.cols) << what;
  EXPECT_EQ(a.row_offsets, b.row_offsets) << what;
  EXPECT_EQ(a.columns, b.columns) << what;
  EXPECT_EQ(a.values, b.values) << what;
}

TEST(GridRowsGeometry, TheDeviceAlgorithmEqualsTheHostGeneratorAndSplit) {
  for (const GeneratorSpec& spec :
       {test::grid_spec("poisson3d", 6), test::grid_spec("poisson3d", 5, 27),
        test::grid_spec("poisson2d", 9), test::grid_spec("convdiff3d", 5),
        test::grid_spec("convdiff2d", 7), test::grid_spec("elasticity3d", 4),
        test::grid_spec("poisson3d", 1)}) {
    const GridStencil stencil = *grid_stencil_of(spec);
    const std::int64_t rows = grid_operator_rows(stencil, spec.n);
    const auto before = [&](global_index_t row) {
      return grid_entries_before(stencil, spec.n, row);
    };
    for (int processes : {1, 2, 3, 5, 8}) {
      const RowPartition partition = partition_rows(rows, processes, RowBalance::nonzeros, before);
      for (int rank = 0; rank < processes; ++rank) {
        SCOPED_TRACE(spec.kind + " n=" + std::to_string(spec.n) + ", rank " + std::to_string(rank) +
                     " of " + std::to_string(processes));
        const std::int64_t first = partition.first_row(rank), end = partition.end_row(rank);
        const RowBlock<double> block = assemble_grid_rows(stencil, spec.n, first, end, "test");
        const SplitRows<double> split = split_local_and_halo(block, partition, rank);
        const NonEmptyRows<double> kept = drop_empty_rows(split.halo);
        const EmulatedRows emulated = emulate_device_generator(stencil, spec.n, first, end);
        expect_same_csr(emulated.local, split.local, "local");
        expect_same_csr(emulated.halo, kept.matrix, "halo");
        EXPECT_EQ(emulated.halo_rows, kept.rows);
        EXPECT_EQ(emulated.halo_columns, split.halo_columns);
        expect_same_csr(emulated.pattern, split.pattern, "pattern");
        for (index_t r = 0; r < block.rows; ++r) {
          double sum = 0.0;
          for (index_t k = block.row_offsets[r]; k < block.row_offsets[r + 1]; ++k)
            sum += block.values[k];
          ASSERT_EQ(emulated.row_sums[r], sum) << r;
        }
      }
    }
  }
}

}  // namespace
}  // namespace spk
