// split_values_on_device (distributed/device_split_values.hpp): new values of a process's
// whole rows split on the device into its local and halo blocks must equal scatter_values on
// the host (local_halo_split.hpp), bit for bit, outputs poisoned first: random rows with empty
// rows and one long row, every process of an uneven partition (one process without rows), fp64
// and fp32.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "core/device_buffer.hpp"
#include "distributed/device_split_values.hpp"
#include "distributed/local_halo_split.hpp"
#include "distributed/row_partition.hpp"
#include "spmv/host/row_block.hpp"
#include "tests/gpu/spmv_test_support.hpp"
#include "tests/test_support.hpp"

namespace spk {
namespace {

template <class T>
void expect_split_equals_host(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const index_t n = 300;
  const CsrMatrix<double> whole = test::random_pattern_matrix(
      n, n, [](index_t row) { return row % 17 == 0 ? 0 : (row == 150 ? 280 : 1 + row % 9); }, rng);
  const RowPartition partition = partition_from_counts({120, 0, 100, 80});
  const test::TestStream stream;
  std::uniform_real_distribution<double> value(-2.0, 2.0);
  for (int rank = 0; rank < partition.processes(); ++rank) {
    SCOPED_TRACE("rank " + std::to_string(rank));
    const RowBlock<T> block =
        convert_values<T>(rows_of(whole, partition.first_row(rank), partition.end_row(rank)));
    SplitRows<T> split = split_local_and_halo(block, partition, rank);
    std::vector<T> fresh(split.pattern.values.size());
    for (T& v : fresh) v = static_cast<T>(value(rng));
    SplitRows<T> expected = split;
    scatter_values(expected, fresh.data());

    const DeviceBuffer<index_t> offsets(split.pattern.row_offsets, "pattern offsets");
    const DeviceBuffer<index_t> columns(split.pattern.columns, "pattern columns");
    const DeviceBuffer<T> values(fresh, "values");
    const DeviceBuffer<index_t> local_offsets(split.local.row_offsets, "local offsets");
    const DeviceBuffer<index_t> halo_offsets(split.halo.row_offsets, "halo offsets");
    const T nan = std::numeric_limits<T>::quiet_NaN();
    DeviceBuffer<T> local(std::vector<T>(split.local.values.size(), nan), "local");
    DeviceBuffer<T> halo(std::vector<T>(split.halo.values.size(), nan), "halo");
    split_values_on_device(split.pattern.rows, split.local.cols, offsets.data(), columns.data(),
                           values.data(), local_offsets.data(), halo_offsets.data(), local.data(),
                           halo.data(), stream.get());
    ASSERT_EQ(cudaStreamSynchronize(stream.get()), cudaSuccess);
    EXPECT_EQ(local.to_host(), expected.local.values);
    EXPECT_EQ(halo.to_host(), expected.halo.values);
    if (rank == 0) {
      EXPECT_GT(expected.halo.values.size(), 0u);  // the case has a halo to split
    }
  }
}

TEST(DeviceSplitValues, EqualsTheHostScatterOnEveryProcess) {
  SPK_REQUIRE_GPU_OR_SKIP();
  expect_split_equals_host<double>(5);
  expect_split_equals_host<float>(6);
}

}  // namespace
}  // namespace spk
