// split_rows_on_device (distributed/device_split_rows.hpp): the GPU path's local/halo split of
// the caller's rows. Downloaded, every array must equal the host split's
// (split_local_and_halo, the halo block through drop_empty_rows, diagonal_block_positions), on
// fresh random matrices and the awkward shapes (n = 1, nnz = 0, empty rows, a huge row), for
// 1, 3 and 5 processes (ranks faked by splitting each rank's rows; n = 1 over 5 processes
// leaves four of them without rows), fp64 and fp32 values; its input errors are the host
// split's, word for word.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <utility>
#include <vector>

#include "distributed/compressed_rows_operator.hpp"
#include "distributed/device_split_rows.hpp"
#include "distributed/diagonal_block_positions.hpp"
#include "distributed/local_halo_split.hpp"
#include "spmv/host/row_block.hpp"
#include "tests/cpu/host_matrix_testing.hpp"
#include "tests/gpu/spmv_test_support.hpp"
#include "tests/test_support.hpp"

namespace spk {
namespace {

template <class T>
void expect_same(const DeviceCsrMatrix<T>& device, const CsrMatrix<T>& host, cudaStream_t stream,
                 const std::string& what) {
  const CsrMatrix<T> downloaded = to_host(device, stream);
  EXPECT_EQ(downloaded.rows, host.rows) << what;
  EXPECT_EQ(downloaded.cols, host.cols) << what;
  EXPECT_EQ(downloaded.row_offsets, host.row_offsets) << what;
  EXPECT_EQ(downloaded.columns, host.columns) << what;
  EXPECT_EQ(downloaded.values, host.values) << what;
}

// Rows split as evenly as they go (blocks differ by at most one row; more processes than rows
// leave some without rows).
RowPartition even_rows(index_t rows, int processes) {
  std::vector<global_index_t> counts;
  for (int p = 0; p < processes; ++p)
    counts.push_back(rows / processes + (p < rows % processes ? 1 : 0));
  return partition_from_counts(counts);
}

template <class T>
void expect_matches_host_split(const CsrMatrix<double>& whole, int processes,
                               const std::string& name) {
  const CsrMatrix<T> matrix = convert_values<T>(whole);
  const RowPartition partition = even_rows(matrix.rows, processes);
  const test::TestStream stream;
  for (int rank = 0; rank < processes; ++rank) {
    SCOPED_TRACE(name + ", rank " + std::to_string(rank) + " of " + std::to_string(processes));
    const RowBlock<T> block = rows_of(matrix, partition.first_row(rank), partition.end_row(rank));
    const SplitRows<T> host = split_local_and_halo(block, partition, rank);
    const NonEmptyRows<T> kept = drop_empty_rows(host.halo);
    const DeviceSplitRows<T> device =
        split_rows_on_device(arrays_of(block), partition, rank, true, stream.get());
    EXPECT_EQ(device.first_row, host.first_row);
    EXPECT_EQ(device.rows, host.local.rows);
    EXPECT_EQ(device.own_columns, host.local.cols);
    expect_same(device.local, host.local, stream.get(), "local block");
    expect_same(device.halo, kept.matrix, stream.get(), "halo block (non-empty rows)");
    EXPECT_EQ(device.halo_rows.to_host(), kept.rows);
    EXPECT_EQ(device.halo_starts.to_host(), host.halo.row_offsets);
    expect_same(device.pattern, host.pattern, stream.get(), "pattern");
    EXPECT_EQ(device.halo_columns, host.halo_columns);
    EXPECT_EQ(device.local_positions.to_host(), diagonal_block_positions(host));

    const SplitRows<T> shape = split_shape(device, partition);
    EXPECT_EQ(shape.local_entries, host.local_entries);
    EXPECT_EQ(shape.halo_entries, host.halo_entries);
    EXPECT_EQ(shape.pattern.cols, host.pattern.cols);
    EXPECT_EQ(shape.halo.cols, host.halo.cols);
    ASSERT_EQ(shape.sources.size(), host.sources.size());
    for (std::size_t s = 0; s < host.sources.size(); ++s) {
      EXPECT_EQ(shape.sources[s].rank, host.sources[s].rank);
      EXPECT_EQ(shape.sources[s].first_slot, host.sources[s].first_slot);
      EXPECT_EQ(shape.sources[s].count, host.sources[s].count);
    }
  }
}

std::vector<test::NamedShape> square_shapes(std::mt19937_64& rng) {
  std::vector<test::NamedShape> shapes;
  for (test::NamedShape& shape : test::awkward_shapes(rng))
    if (shape.matrix.rows == shape.matrix.cols) shapes.push_back(std::move(shape));
  shapes.push_back({"random 700x700, 2% dense", test::random_csr(700, 700, 0.02, rng, {3, 350})});
  return shapes;
}

TEST(DeviceSplitRows, EqualsTheHostSplitOnRandomAndAwkwardRows) {
  SPK_REQUIRE_GPU_OR_SKIP();
  test::FreshRandom random;
  for (const test::NamedShape& shape : square_shapes(random.engine()))
    for (const int processes : {1, 3, 5}) {
      expect_matches_host_split<double>(shape.matrix, processes, shape.name + " (fp64)");
      expect_matches_host_split<float>(shape.matrix, processes, shape.name + " (fp32)");
    }
}

TEST(DeviceSplitRows, PositionsAreLeftOutUnlessAskedFor) {
  SPK_REQUIRE_GPU_OR_SKIP();
  test::FreshRandom random;
  const CsrMatrix<double> matrix = test::random_csr(50, 50, 0.1, random.engine());
  const RowPartition partition = even_rows(50, 2);
  const RowBlock<double> block = rows_of(matrix, partition.first_row(1), partition.end_row(1));
  const test::TestStream stream;
  const DeviceSplitRows<double> device =
      split_rows_on_device(arrays_of(block), partition, 1, false, stream.get());
  EXPECT_EQ(device.local_positions.size(), 0u);
  EXPECT_GT(device.local_entries(), 0);
}

// The host split's errors, in its words: the first bad column in row order, decreasing
// offsets at the first row where they decrease.
TEST(DeviceSplitRows, InputErrorsAreTheHostSplits) {
  SPK_REQUIRE_GPU_OR_SKIP();
  test::FreshRandom random;
  const CsrMatrix<double> matrix = test::random_csr(40, 40, 0.2, random.engine(), {7});
  const RowPartition partition = even_rows(40, 2);
  const test::TestStream stream;
  const auto messages = [&](const RowBlock<double>& block) {
    std::string host, device;
    try {
      split_local_and_halo(block, partition, 1);
    } catch (const BadInput& error) {
      host = error.what();
    }
    try {
      split_rows_on_device(arrays_of(block), partition, 1, false, stream.get());
    } catch (const BadInput& error) {
      device = error.what();
    }
    return std::make_pair(host, device);
  };
  RowBlock<double> bad_columns = rows_of(matrix, 20, 40);
  ASSERT_GT(bad_columns.nnz(), 10);
  bad_columns.columns[static_cast<std::size_t>(bad_columns.nnz() - 1)] = 40;  // past the end
  bad_columns.columns[5] = -3;                                                // the first
  const auto columns = messages(bad_columns);
  EXPECT_NE(columns.first.find("column index -3 in global row"), std::string::npos)
      << columns.first;
  EXPECT_EQ(columns.second, columns.first);

  RowBlock<double> decreasing = rows_of(matrix, 20, 40);
  ASSERT_GT(decreasing.row_offsets[12], 0);
  decreasing.row_offsets[13] = decreasing.row_offsets[12] - 1;
  const auto offsets = messages(decreasing);
  EXPECT_NE(offsets.first.find("row_offsets decrease at global row"), std::string::npos)
      << offsets.first;
  EXPECT_EQ(offsets.second, offsets.first);
}

}  // namespace
}  // namespace spk
