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

// find_first_non_finite: the least index of a NaN or infinity, wherever they lie (first entry,
// last, several at once), or above any count when there is none (count 0 included).
template <class T>
void expect_first_non_finite(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const test::TestStream stream;
  DeviceBuffer<index_t> first(std::vector<index_t>{-5}, "first");  // poisoned
  const auto found = [&](const std::vector<T>& values) {
    const DeviceBuffer<T> on_device(values.empty() ? std::vector<T>{T(1)} : values, "values");
    find_first_non_finite(static_cast<index_t>(values.size()), on_device.data(), first.data(),
                          stream.get());
    EXPECT_EQ(cudaStreamSynchronize(stream.get()), cudaSuccess);
    return first.to_host()[0];
  };
  const index_t none = 0x7f7f7f7f;
  std::uniform_real_distribution<double> value(-1e3, 1e3);
  for (const index_t n : {1, 7, 1000, 300001}) {
    SCOPED_TRACE("n " + std::to_string(n));
    std::vector<T> values(static_cast<std::size_t>(n));
    for (T& v : values) v = static_cast<T>(value(rng));
    EXPECT_EQ(found(values), none);
    std::vector<T> bad = values;
    bad.back() = std::numeric_limits<T>::infinity();
    EXPECT_EQ(found(bad), n - 1);
    const index_t at = std::uniform_int_distribution<index_t>(0, n - 1)(rng);
    bad[static_cast<std::size_t>(at)] = std::numeric_limits<T>::quiet_NaN();
    EXPECT_EQ(found(bad), at);
    bad[0] = -std::numeric_limits<T>::infinity();
    EXPECT_EQ(found(bad), 0);
  }
  EXPECT_EQ(found({}), none);
}

TEST(DeviceSplitValues, FirstNonFiniteValueIsTheLeastIndex) {
  SPK_REQUIRE_GPU_OR_SKIP();
  expect_first_non_finite<double>(8);
  expect_first_non_finite<float>(9);
}

}  // namespace
}  // namespace spk
