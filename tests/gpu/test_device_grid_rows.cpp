// generate_device_grid_rows (distributed/device_grid_rows.hpp): one process's rows of a grid
// kind built on the device, already split into local and halo blocks. Downloaded, every array
// must equal the host path's: assemble_grid_rows, split_local_and_halo and drop_empty_rows (the
// halo block as the GPU path stores it), for every grid kind, several process counts (ranks
// faked by calling it with each rank's [first, end)), fp64 and fp32 values, the pattern and
// both right-hand sides; the whole-form halo offsets and block Jacobi's positions equal the
// device split's of the host rows (split_rows_on_device); and a block that owns the whole grid
// or no rows at all.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "distributed/compressed_rows_operator.hpp"
#include "distributed/device_grid_rows.hpp"
#include "distributed/local_halo_split.hpp"
#include "spmv/host/generators.hpp"
#include "spmv/registry.hpp"
#include "tests/gpu/spmv_test_support.hpp"
#include "tests/test_support.hpp"

namespace spk {
namespace {

template <class T>
void expect_same(const DeviceCsrMatrix<T>& device, const CsrMatrix<double>& host,
                 cudaStream_t stream, const char* what) {
  const CsrMatrix<T> downloaded = to_host(device, stream);
  const CsrMatrix<T> expected = convert_values<T>(host);
  EXPECT_EQ(downloaded.rows, expected.rows) << what;
  EXPECT_EQ(downloaded.cols, expected.cols) << what;
  EXPECT_EQ(downloaded.row_offsets, expected.row_offsets) << what;
  EXPECT_EQ(downloaded.columns, expected.columns) << what;
  EXPECT_EQ(downloaded.values, expected.values) << what;
}

template <class T>
void expect_matches_host_split(const GeneratorSpec& spec, int processes) {
  const GridStencil stencil = *grid_stencil_of(spec);
  const std::int64_t rows = grid_operator_rows(stencil, spec.n);
  const RowPartition partition =
      partition_rows(rows, processes, RowBalance::nonzeros,
                     [&](global_index_t row) { return grid_entries_before(stencil, spec.n, row); });
  const test::TestStream stream;
  for (int rank = 0; rank < processes; ++rank) {
    SCOPED_TRACE(spec.kind + " n=" + std::to_string(spec.n) + ", rank " + std::to_string(rank) +
                 " of " + std::to_string(processes));
    const global_index_t first = partition.first_row(rank), end = partition.end_row(rank);
    const RowBlock<double> block = assemble_grid_rows(stencil, spec.n, first, end, "host");
    const SplitRows<double> split = split_local_and_halo(block, partition, rank);
    const NonEmptyRows<double> kept = drop_empty_rows(split.halo);

    for (const DeviceRhs rhs : {DeviceRhs::ones, DeviceRhs::row_sums}) {
      DeviceGridRowsRequest request;
      request.pattern = rhs == DeviceRhs::row_sums;  // once with, once without
      request.local_positions = request.pattern;
      request.rhs = rhs;
      const DeviceGridRows<T> device = generate_device_grid_rows<T>(
          stencil, spec.n, first, end, request, "device", stream.get());
      EXPECT_EQ(device.global_rows, rows);
      EXPECT_EQ(device.first_row, first);
      EXPECT_EQ(device.rows, block.rows);
      EXPECT_EQ(device.nnz(), block.nnz());
      expect_same(device.local, split.local, stream.get(), "local");
      expect_same(device.halo, kept.matrix, stream.get(), "halo (non-empty rows)");
      EXPECT_EQ(download_array(device.halo_rows.data(), device.halo_rows.size(), stream.get()),
                kept.rows);
      EXPECT_EQ(device.halo_columns, split.halo_columns);
      // the whole-form halo offsets and block Jacobi's positions: the device split's
      const DeviceSplitRows<double> uploaded =
          split_rows_on_device(arrays_of(block), partition, rank, true, stream.get());
      EXPECT_EQ(device.halo_starts.to_host(), uploaded.halo_starts.to_host());
      if (request.pattern) {
        expect_same(device.pattern, split.pattern, stream.get(), "pattern");
        EXPECT_EQ(device.local_positions.to_host(), uploaded.local_positions.to_host());
      } else {
        EXPECT_EQ(device.pattern.columns.size(), 0u);
        EXPECT_EQ(device.local_positions.size(), 0u);
      }
      const std::vector<T> b = device.rhs.to_host();
      ASSERT_EQ(b.size(), static_cast<std::size_t>(block.rows));
      for (index_t r = 0; r < block.rows; ++r) {
        double sum = 0.0;  // (A 1)_r in storage order, as the kernel adds it
        for (index_t k = block.row_offsets[r]; k < block.row_offsets[r + 1]; ++k)
          sum += block.values[k];
        ASSERT_EQ(b[r], rhs == DeviceRhs::ones ? T(1) : static_cast<T>(sum)) << r;
      }
    }
  }
}

std::vector<GeneratorSpec> grid_specs() {
  return {test::grid_spec("poisson3d", 9),  test::grid_spec("poisson3d", 6, 27),
          test::grid_spec("poisson2d", 13), test::grid_spec("convdiff3d", 7),
          test::grid_spec("convdiff2d", 9), test::grid_spec("elasticity3d", 5),
          test::grid_spec("poisson3d", 1)};
}

TEST(DeviceGridRows, EqualsTheHostGeneratorAndSplitForEveryKindAndProcessCount) {
  SPK_REQUIRE_GPU_OR_SKIP();
  for (const GeneratorSpec& spec : grid_specs())
    for (int processes : {1, 2, 3, 4, 7}) expect_matches_host_split<double>(spec, processes);
}

TEST(DeviceGridRows, SinglePrecisionValuesAreTheHostValuesRounded) {
  SPK_REQUIRE_GPU_OR_SKIP();
  expect_matches_host_split<float>(test::grid_spec("poisson3d", 8), 3);
  expect_matches_host_split<float>(test::grid_spec("elasticity3d", 4), 2);
}

// A block larger than the halo window on both sides, several windows in (64^3 over 5 blocks:
// 52,000 rows each, the window 2 x 4096): the scans over many thread blocks.
TEST(DeviceGridRows, ALargerGridOverFiveProcesses) {
  SPK_REQUIRE_GPU_OR_SKIP();
  expect_matches_host_split<double>(test::grid_spec("poisson3d", 64), 5);
}

// The plug-in of the distributed GPU path: the generated blocks as SpMV backends without a host
// copy (the local block in ellpack-r, the halo block over its non-empty rows from the device
// row list), y = A_local x_own + A_halo x_halo, against the host product of the same rows.
TEST(DeviceGridRows, TheGeneratedBlocksMultiplyAsTheRowsDo) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const GeneratorSpec spec = test::grid_spec("poisson3d", 24);
  const GridStencil stencil = *grid_stencil_of(spec);
  const std::int64_t rows = grid_operator_rows(stencil, spec.n);
  const RowPartition partition =
      partition_rows(rows, 3, RowBalance::nonzeros,
                     [&](global_index_t row) { return grid_entries_before(stencil, spec.n, row); });
  std::mt19937_64 rng(34);
  const std::vector<double> x = test::random_values<double>(static_cast<std::size_t>(rows), rng);
  const test::TestStream stream;
  SpmvOptions options;
  options.format = Format::ellpack_r;
  const int rank = 1;  // both neighbours
  const global_index_t first = partition.first_row(rank), end = partition.end_row(rank);
  DeviceGridRows<double> device =
      generate_device_grid_rows<double>(stencil, spec.n, first, end, {}, "device", stream.get());
  const auto local =
      make_spmv_backend(describe_device_csr(device.local, stream.get()), options, stream.get());
  const CompressedRowsOperator<double> halo(
      make_spmv_backend(describe_device_csr(device.halo, stream.get()), options, stream.get()),
      std::move(device.halo_rows), device.rows);
  std::vector<double> x_halo;
  for (const global_index_t column : device.halo_columns) x_halo.push_back(x[column]);
  const DeviceBuffer<double> x_own(std::vector<double>(x.begin() + first, x.begin() + end));
  const DeviceBuffer<double> x_halo_device(x_halo);
  DeviceBuffer<double> y(static_cast<std::size_t>(device.rows));
  local->apply(x_own.data(), y.data());
  halo.apply_scaled(1.0, x_halo_device.data(), 1.0, y.data());
  SPK_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
  const std::vector<double> product = y.to_host();
  const RowBlock<double> block = assemble_grid_rows(stencil, spec.n, first, end, "host");
  double error = 0.0, norm = 0.0;
  for (index_t r = 0; r < block.rows; ++r) {
    double expected = 0.0;
    for (index_t k = block.row_offsets[r]; k < block.row_offsets[r + 1]; ++k)
      expected += block.values[k] * x[block.columns[k]];
    error = std::max(error, std::abs(product[r] - expected));
    norm = std::max(norm, std::abs(expected));
  }
  EXPECT_LT(error, 1e-13 * std::max(norm, 1.0));
}

TEST(DeviceGridRows, ABlockWithoutRowsIsEmpty) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const GridStencil stencil = *grid_stencil_of(test::grid_spec("poisson3d", 4));
  const test::TestStream stream;
  DeviceGridRowsRequest request;
  request.pattern = true;
  request.rhs = DeviceRhs::ones;
  const DeviceGridRows<double> empty =
      generate_device_grid_rows<double>(stencil, 4, 20, 20, request, "empty", stream.get());
  EXPECT_EQ(empty.rows, 0);
  EXPECT_EQ(empty.nnz(), 0);
  EXPECT_EQ(empty.halo_row_count(), 0);
  EXPECT_TRUE(empty.halo_columns.empty());
  EXPECT_EQ(empty.local.row_offsets.to_host(), std::vector<index_t>{0});
  EXPECT_EQ(empty.halo.row_offsets.to_host(), std::vector<index_t>{0});
  EXPECT_EQ(empty.pattern.row_offsets.to_host(), std::vector<index_t>{0});
  EXPECT_EQ(empty.halo_starts.to_host(), std::vector<index_t>{0});
}

TEST(DeviceGridRows, RangesOutsideTheGridAreRefused) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const GridStencil stencil = *grid_stencil_of(test::grid_spec("poisson3d", 4));
  const test::TestStream stream;
  EXPECT_THROW(generate_device_grid_rows<double>(stencil, 4, 10, 65, {}, "x", stream.get()),
               BadInput);
  EXPECT_THROW(generate_device_grid_rows<double>(stencil, 4, 10, 5, {}, "x", stream.get()),
               BadInput);
}

}  // namespace
}  // namespace spk
