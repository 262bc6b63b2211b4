// generate_device_grid_rows (distributed/device_grid_rows.hpp) under mpirun: every process builds
// its own rows of a grid kind on the device, split, and each must equal what the host path gives
// that process (assemble_grid_rows + split_local_and_halo + drop_empty_rows), its halo sources
// the host split's, and the halo exchange plan made from the device's halo columns
// (make_halo_plan, collective) the plan made from the host split's, neighbour for neighbour.
// And a DistributedSolver over the generated rows (distributed_solver_of_device_rows) solves as
// one over the host rows does: the same iterations and x within 1e-12, for Jacobi, block
// Jacobi (its positions generated) and AMG, in fp64 and fp32.
// Skips without a GPU (every process on one GPU is fine: nothing here is timed).
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <type_traits>
#include <vector>

#include "core/cuda_check.hpp"
#include "distributed/compressed_rows_operator.hpp"
#include "distributed/device_binding.hpp"
#include "distributed/device_grid_rows.hpp"
#include "distributed/device_rows_solver.hpp"
#include "distributed/halo_plan.hpp"
#include "distributed/local_halo_split.hpp"
#include "spmv/host/generators.hpp"
#include "tests/mpi/distributed_comparison.hpp"
#include "tests/mpi/mpi_test_support.hpp"
#include "tests/test_support.hpp"

namespace spk {
namespace {

using test::world_rank;
using test::world_size;

void expect_same(const DeviceCsrMatrix<double>& device, const CsrMatrix<double>& host,
                 cudaStream_t stream, const char* what) {
  const CsrMatrix<double> downloaded = to_host(device, stream);
  EXPECT_EQ(downloaded.rows, host.rows) << what;
  EXPECT_EQ(downloaded.cols, host.cols) << what;
  EXPECT_EQ(downloaded.row_offsets, host.row_offsets) << what;
  EXPECT_EQ(downloaded.columns, host.columns) << what;
  EXPECT_EQ(downloaded.values, host.values) << what;
}

void expect_same_plan(const HaloPlan& device, const HaloPlan& host) {
  EXPECT_EQ(device.halo_size, host.halo_size);
  EXPECT_EQ(device.send_rows, host.send_rows);
  ASSERT_EQ(device.sources.size(), host.sources.size());
  for (std::size_t k = 0; k < host.sources.size(); ++k) {
    EXPECT_EQ(device.sources[k].rank, host.sources[k].rank);
    EXPECT_EQ(device.sources[k].first_slot, host.sources[k].first_slot);
    EXPECT_EQ(device.sources[k].count, host.sources[k].count);
  }
  ASSERT_EQ(device.targets.size(), host.targets.size());
  for (std::size_t k = 0; k < host.targets.size(); ++k) {
    EXPECT_EQ(device.targets[k].rank, host.targets[k].rank);
    EXPECT_EQ(device.targets[k].first, host.targets[k].first);
    EXPECT_EQ(device.targets[k].count, host.targets[k].count);
  }
}

TEST(DeviceGridRowsMpi, EveryProcessesRowsAndHaloPlanEqualTheHostPath) {
  SPK_REQUIRE_GPU_OR_SKIP();
  cudaStream_t stream = nullptr;
  SPK_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  const int rank = world_rank();
  for (const GeneratorSpec& spec :
       {test::grid_spec("poisson3d", 12), test::grid_spec("poisson3d", 8, 27),
        test::grid_spec("poisson2d", 30), test::grid_spec("elasticity3d", 5)}) {
    SCOPED_TRACE(spec.kind + " n=" + std::to_string(spec.n) + ", rank " + std::to_string(rank) +
                 " of " + std::to_string(world_size()));
    const GridStencil stencil = *grid_stencil_of(spec);
    const std::int64_t rows = grid_operator_rows(stencil, spec.n);
    const RowPartition partition = partition_rows(
        rows, world_size(), RowBalance::nonzeros,
        [&](global_index_t row) { return grid_entries_before(stencil, spec.n, row); });
    const global_index_t first = partition.first_row(rank), end = partition.end_row(rank);

    DeviceGridRowsRequest request;
    request.pattern = true;
    request.rhs = DeviceRhs::row_sums;
    const DeviceGridRows<double> device =
        generate_device_grid_rows<double>(stencil, spec.n, first, end, request, "device", stream);
    const RowBlock<double> block = assemble_grid_rows(stencil, spec.n, first, end, "host");
    const SplitRows<double> split = split_local_and_halo(block, partition, rank);
    const NonEmptyRows<double> kept = drop_empty_rows(split.halo);

    expect_same(device.local, split.local, stream, "local");
    expect_same(device.halo, kept.matrix, stream, "halo");
    expect_same(device.pattern, split.pattern, stream, "pattern");
    EXPECT_EQ(device.halo_rows.to_host(), kept.rows);
    EXPECT_EQ(device.halo_columns, split.halo_columns);
    const std::vector<HaloSource> sources = halo_sources(device.halo_columns, partition);
    // EXPECT, not ASSERT, before a collective call: a rank that left early would hang the others
    EXPECT_EQ(sources.size(), split.sources.size());
    for (std::size_t k = 0; k < std::min(sources.size(), split.sources.size()); ++k) {
      EXPECT_EQ(sources[k].rank, split.sources[k].rank);
      EXPECT_EQ(sources[k].first_slot, split.sources[k].first_slot);
      EXPECT_EQ(sources[k].count, split.sources[k].count);
    }
    const HaloPlan from_device =
        make_halo_plan(MPI_COMM_WORLD, sources, device.halo_columns, first, device.rows);
    const HaloPlan from_host = make_halo_plan(MPI_COMM_WORLD, split.sources, split.halo_columns,
                                              split.first_column, split.local.cols);
    expect_same_plan(from_device, from_host);
  }
  SPK_CUDA_CHECK(cudaStreamDestroy(stream));
}

template <class T>
void expect_generated_rows_solve_as_host_rows(Preconditioner preconditioner) {
  const int rank = world_rank();
  (void)bind_device(MPI_COMM_WORLD, true);  // the solver's GPU, made current
  const GeneratorSpec spec = test::grid_spec("poisson3d", 14);
  const GridStencil stencil = *grid_stencil_of(spec);
  const RowPartition partition =
      partition_rows(grid_operator_rows(stencil, spec.n), world_size(), RowBalance::nonzeros,
                     [&](global_index_t row) { return grid_entries_before(stencil, spec.n, row); });
  const global_index_t first = partition.first_row(rank), end = partition.end_row(rank);
  Options options = test::cpu_options(Method::cg, preconditioner);
  options.device = Device::gpu;
  options.solver.tolerance = std::is_same_v<T, float> ? 1e-5 : 1e-10;

  const RowBlock<double> block = assemble_grid_rows(stencil, spec.n, first, end, "host");
  const std::vector<T> values(block.values.begin(), block.values.end());
  DistributedSolver<T> from_host(
      MPI_COMM_WORLD, {block.rows, block.row_offsets.data(), block.columns.data(), values.data()},
      options);
  DeviceGridRowsRequest request;
  request.pattern = true;
  request.local_positions = preconditioner == Preconditioner::block_jacobi;
  DeviceGridRows<T> generated =
      generate_device_grid_rows<T>(stencil, spec.n, first, end, request, "device", nullptr);
  DistributedSolver<T> from_device =
      distributed_solver_of_device_rows<T>(MPI_COMM_WORLD, split_rows_of(generated), options, {});

  const std::vector<T> b(static_cast<std::size_t>(block.rows), T(1));
  std::vector<T> x_host(b.size(), T(0)), x_device(b.size(), T(0));
  const SolveResult host = from_host.solve(b, x_host);
  const SolveResult device = from_device.solve(b, x_device);
  EXPECT_TRUE(device.converged());
  EXPECT_EQ(device.iterations, host.iterations);
  EXPECT_LE(device.relative_true_residual, options.solver.tolerance);
  EXPECT_LT(test::relative_error(x_device, x_host), 1e-12);
  EXPECT_EQ(from_device.global_rows(), partition.global_rows());
  EXPECT_EQ(from_device.first_row(), first);
}

TEST(DeviceGridRowsMpi, ASolverOverGeneratedRowsSolvesAsOneOverTheHostRows) {
  SPK_REQUIRE_GPU_OR_SKIP();
  for (const Preconditioner preconditioner :
       {Preconditioner::jacobi, Preconditioner::block_jacobi, Preconditioner::amg}) {
    SCOPED_TRACE(to_string(preconditioner));
    expect_generated_rows_solve_as_host_rows<double>(preconditioner);
    expect_generated_rows_solve_as_host_rows<float>(preconditioner);
  }
}

}  // namespace
}  // namespace spk
