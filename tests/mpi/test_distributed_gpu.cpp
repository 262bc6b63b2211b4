// spk::DistributedSolver on the GPU path under mpirun (spk_tests_mpi; every test skips without
// a GPU, or fails under SPK_REQUIRE_GPU=1). On the one-GPU machine:
//   - NCCL with one process: setup, the allreduce on device scalars, CUDA graphs;
//   - the mpi transport with 2-4 processes sharing the GPU, running the same exchange plan
//     (neighbours, buffers, order) as NCCL, so that only the transport is left for the
//     multi-GPU run;
// against the single-GPU Solver (each process solves the whole system itself): the count
// within 1, x within 1e-6, the true residual met, every process the same.
// Also: update_values and solve with arrays in device memory (a GPU simulation's), equal to
// the host arrays' results, their checks on the device.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "core/cuda_check.hpp"
#include "core/device_buffer.hpp"
#include "tests/mpi/distributed_comparison.hpp"
#include "tests/mpi/mpi_test_support.hpp"
#include "tests/test_support.hpp"

namespace spk {
namespace {

using test::Comparison;
using test::expect_every_process_agrees;
using test::generated_case;
using test::my_part;
using test::my_rows;
using test::solve_both;
using test::transport_here;
using test::world_rank;
using test::world_size;

Options gpu_options(Method method, Preconditioner preconditioner, const std::string& format) {
  Options options = test::cpu_options(method, preconditioner);
  options.device = Device::gpu;
  options.spmv.format = parse_format(format);
  return options;
}

void expect_matches_one_gpu(const Comparison& result, const char* label) {
  test::expect_matches_one_process(result);
  if (world_rank() == 0)
    std::printf("  %s, %d processes over %s: %d iterations (one GPU: %d)\n", label, world_size(),
                result.transport.c_str(), result.distributed.iterations, result.single.iterations);
}

struct GpuCase {
  const char* label;
  CsrMatrix<double> (*matrix)();
  Method method;
  Preconditioner preconditioner;
  const char* format;
};

const GpuCase gpu_cases[] = {
    {"poisson3d_16_cg_ellpack-r", [] { return generated_case("poisson3d", 16); }, Method::cg,
     Preconditioner::none, "ellpack-r"},
    {"poisson3d27_12_cg_jacobi_csr", [] { return generated_case("poisson3d", 12, 27); }, Method::cg,
     Preconditioner::jacobi, "csr"},
    {"poisson2d_48_cg_chebyshev_hyb", [] { return generated_case("poisson2d", 48); }, Method::cg,
     Preconditioner::chebyshev, "hyb"},
    {"convdiff3d_12_bicgstab_ellpack", [] { return generated_case("convdiff3d", 12); },
     Method::bicgstab, Preconditioner::none, "ellpack"},
    {"convdiff2d_48_bicgstab_jacobi_auto",
     [] { return generated_case("convdiff2d", 48, 7, 0.5, "central"); }, Method::bicgstab,
     Preconditioner::jacobi, "auto"},
    // pipelined CG: NCCL's allreduce on a side stream over the product (or MPI_Iallgather)
    {"poisson3d_16_pipecg_ellpack-r", [] { return generated_case("poisson3d", 16); },
     Method::pipecg, Preconditioner::none, "ellpack-r"},
    {"poisson3d27_12_pipecg_jacobi_csr", [] { return generated_case("poisson3d", 12, 27); },
     Method::pipecg, Preconditioner::jacobi, "csr"},
    {"poisson2d_48_pipecg_chebyshev_hyb", [] { return generated_case("poisson2d", 48); },
     Method::pipecg, Preconditioner::chebyshev, "hyb"},
};

class DistributedGpu : public ::testing::TestWithParam<GpuCase> {};

TEST_P(DistributedGpu, MatchesOneGpu) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const GpuCase& c = GetParam();
  DistributedOptions distributed;
  distributed.transport = transport_here();
  const Comparison result =
      solve_both(c.matrix(), gpu_options(c.method, c.preconditioner, c.format),
                 RowBalance::nonzeros, distributed);
  EXPECT_EQ(result.transport, transport_here() == Transport::nccl ? "nccl" : "mpi (host-staged)");
  expect_matches_one_gpu(result, c.label);
}

INSTANTIATE_TEST_SUITE_P(Cases, DistributedGpu, ::testing::ValuesIn(gpu_cases),
                         [](const auto& test) {
                           std::string name = test.param.label;
                           for (char& ch : name)
                             if (ch == '-') ch = '_';
                           return name;
                         });

// The same system on the CPU path and the GPU path over the same processes: the same count
// within 1 (the sums round differently on the two).
TEST(DistributedGpuPaths, GpuMatchesTheCpuPathOverTheSameProcesses) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const CsrMatrix<double> whole = generated_case("poisson3d", 14);
  const RowPartition partition = test::partition_of(whole, RowBalance::rows);
  const RowBlock<double> rows = my_rows(whole, partition);
  const std::vector<double> b =
      my_part(test::random_vector(static_cast<std::size_t>(whole.rows), 3), partition);
  DistributedOptions distributed;
  distributed.transport = transport_here();
  DistributedSolver<double> cpu(MPI_COMM_WORLD, arrays_of(rows),
                                test::cpu_options(Method::cg, Preconditioner::jacobi));
  DistributedSolver<double> gpu(MPI_COMM_WORLD, arrays_of(rows),
                                gpu_options(Method::cg, Preconditioner::jacobi, "ellpack-r"),
                                distributed);
  std::vector<double> x_cpu(b.size(), 0.0), x_gpu(b.size(), 0.0);
  const SolveResult on_cpu = cpu.solve(b, x_cpu);
  const SolveResult on_gpu = gpu.solve(b, x_gpu);
  ASSERT_EQ(on_cpu.status, SolveStatus::converged);
  ASSERT_EQ(on_gpu.status, SolveStatus::converged) << on_gpu.message;
  EXPECT_NEAR(on_gpu.iterations, on_cpu.iterations, 1);
  EXPECT_LT(test::distributed_relative_error(x_gpu, x_cpu), 1e-6);
  EXPECT_EQ(gpu.setup_info().device, Device::gpu);
  EXPECT_GE(gpu.process_info().device, 0);
}

// The distributed AMG (setup on the host, the V-cycle's level operators on the GPU: each level
// its own halo exchange over the transport) against the one-GPU AMG: within 1.3x of its count
// (aggregates do not cross processes), the same count at one process, the true residual met;
// and against the CPU path's distributed AMG over the same processes (the same hierarchy: the
// count within 1). CUDA graphs (NCCL) capture the whole cycle.
TEST(DistributedGpuAmg, WithinOnePointThreeOfOneGpuAndTheCpuPathsCount) {
  SPK_REQUIRE_GPU_OR_SKIP();
  for (const char* format : {"ellpack-r", "csr"}) {
    SCOPED_TRACE(format);
    DistributedOptions distributed;
    distributed.transport = transport_here();
    const CsrMatrix<double> whole = generated_case("poisson3d", 20);
    Options options = gpu_options(Method::cg, Preconditioner::amg, format);
    const Comparison result = solve_both(whole, options, RowBalance::nonzeros, distributed);
    ASSERT_EQ(result.single.status, SolveStatus::converged);
    EXPECT_EQ(result.distributed.status, SolveStatus::converged) << result.distributed.message;
    EXPECT_LE(result.distributed.true_residual, result.distributed.threshold);
    expect_every_process_agrees(result.distributed);
    if (world_size() == 1)
      EXPECT_NEAR(result.distributed.iterations, result.single.iterations, 1);
    else
      EXPECT_LE(result.distributed.iterations, 1.3 * result.single.iterations + 1);
    const test::Comparison on_cpu =
        solve_both(whole, test::cpu_options(Method::cg, Preconditioner::amg), RowBalance::nonzeros);
    EXPECT_NEAR(result.distributed.iterations, on_cpu.distributed.iterations, 1);
    if (world_rank() == 0)
      std::printf("  amg %s, %d processes over %s: %d iterations (one GPU: %d, CPU path: %d)\n",
                  format, world_size(), result.transport.c_str(), result.distributed.iterations,
                  result.single.iterations, on_cpu.distributed.iterations);
  }
}

// `method` with Jacobi on poisson3d 16^3 with CUDA graphs off and on (NCCL: the iteration
// captured) and then the overlap off: the same iterations and bits, each matching one GPU.
// Returns the run with graphs on.
Comparison expect_graphs_and_overlap_change_nothing(Method method, const char* label) {
  const CsrMatrix<double> whole = generated_case("poisson3d", 16);
  Options options = gpu_options(method, Preconditioner::jacobi, "ellpack-r");
  DistributedOptions distributed;
  distributed.transport = transport_here();
  options.solver.cuda_graph = false;
  const Comparison plain = solve_both(whole, options, RowBalance::nonzeros, distributed);
  options.solver.cuda_graph = true;
  const Comparison graph = solve_both(whole, options, RowBalance::nonzeros, distributed);
  distributed.overlap = false;
  const Comparison serial = solve_both(whole, options, RowBalance::nonzeros, distributed);
  for (const Comparison* run : {&plain, &graph, &serial}) expect_matches_one_gpu(*run, label);
  EXPECT_EQ(graph.distributed.iterations, plain.distributed.iterations);
  EXPECT_EQ(serial.distributed.iterations, plain.distributed.iterations);
  EXPECT_EQ(graph.distributed.true_residual, plain.distributed.true_residual);
  return graph;
}

// Overlap off, and (NCCL) the iteration captured as a CUDA graph: the same iterations.
TEST(DistributedGpuPaths, OverlapAndGraphsChangeNothingButTime) {
  SPK_REQUIRE_GPU_OR_SKIP();
  expect_graphs_and_overlap_change_nothing(Method::cg, "poisson3d_16");
}

// Pipelined CG with its split sum (NCCL: a side stream forked and joined inside the graph),
// graphs on and off and the overlap off: the same iterations and bits, and fused CG's count
// within 2%.
TEST(DistributedGpuPaths, PipecgGraphsAndOverlapChangeNothingButTime) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const Comparison graph =
      expect_graphs_and_overlap_change_nothing(Method::pipecg, "poisson3d_16 pipecg");
  Options cg = gpu_options(Method::cg, Preconditioner::jacobi, "ellpack-r");
  cg.solver.vector_ops = VectorOps::fused;
  DistributedOptions distributed;
  distributed.transport = transport_here();
  distributed.overlap = false;
  const Comparison fused =
      solve_both(generated_case("poisson3d", 16), cg, RowBalance::nonzeros, distributed);
  EXPECT_LE(std::abs(graph.distributed.iterations - fused.distributed.iterations),
            std::max(1.0, 0.02 * fused.distributed.iterations));
}

// vector_ops: fused on the GPU path (one reduction of two sums per CG iteration).
TEST(DistributedGpuPaths, FusedVectorOpsMatchOneGpu) {
  SPK_REQUIRE_GPU_OR_SKIP();
  DistributedOptions distributed;
  distributed.transport = transport_here();
  for (const Preconditioner preconditioner : {Preconditioner::none, Preconditioner::jacobi}) {
    Options options = gpu_options(Method::cg, preconditioner, "ellpack-r");
    options.solver.vector_ops = VectorOps::fused;
    const Comparison result =
        solve_both(generated_case("poisson3d", 16), options, RowBalance::nonzeros, distributed);
    expect_matches_one_gpu(result, "poisson3d_16 fused");
    Options bicgstab = gpu_options(Method::bicgstab, preconditioner, "ellpack-r");
    bicgstab.solver.vector_ops = VectorOps::fused;
    const Comparison nonsymmetric =
        solve_both(generated_case("convdiff3d", 16), bicgstab, RowBalance::nonzeros, distributed);
    expect_matches_one_gpu(nonsymmetric, "convdiff3d_16 fused bicgstab");
  }
}

// update_values from device arrays (a GPU simulation's values): on the GPU path they stay on
// the device, and give what the host array's update gives, for each preconditioner kind
// (none uploads the pattern at the first such update); the CPU path copies them to the host.
// The host path's checks run on the device: a NaN and a zero diagonal on the last process are
// one agreed error everywhere, naming the entry or the global row, and the old system stays.
TEST(DistributedGpuPaths, UpdateValuesFromDeviceArraysEqualsTheHostArraysUpdate) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const CsrMatrix<double> whole = generated_case("poisson3d", 10);
  const RowPartition partition = test::partition_of(whole, RowBalance::nonzeros);
  const RowBlock<double> rows = my_rows(whole, partition);
  const std::size_t n = static_cast<std::size_t>(rows.rows);
  // A + 2 I, then every value times 1.5: new values, the same pattern
  std::vector<double> changed = rows.values;
  for (index_t row = 0; row < rows.rows; ++row)
    for (index_t k = rows.row_offsets[row]; k < rows.row_offsets[row + 1]; ++k)
      changed[k] = 1.5 * (changed[k] + (rows.columns[k] == rows.first_row + row ? 2.0 : 0.0));
  const DeviceBuffer<double> on_device(changed, "test: new values");
  const std::vector<double> b = test::random_vector(n, 7 + static_cast<unsigned>(world_rank()));
  DistributedOptions distributed;
  distributed.transport = transport_here();
  struct Case {
    Preconditioner preconditioner;
    const char* format;
    Device device;
  };
  for (const Case c : {Case{Preconditioner::jacobi, "csr", Device::gpu},
                       Case{Preconditioner::none, "ellpack-r", Device::gpu},
                       Case{Preconditioner::amg, "ellpack-r", Device::gpu},
                       Case{Preconditioner::block_jacobi, "csr", Device::gpu},
                       Case{Preconditioner::jacobi, "csr", Device::cpu}}) {
    SCOPED_TRACE(std::string(to_string(c.preconditioner)) + " " + c.format +
                 (c.device == Device::cpu ? " (CPU path)" : ""));
    Options options = gpu_options(Method::cg, c.preconditioner, c.format);
    options.device = c.device;
    DistributedSolver<double> from_host(MPI_COMM_WORLD, arrays_of(rows), options, distributed);
    DistributedSolver<double> from_device(MPI_COMM_WORLD, arrays_of(rows), options, distributed);
    from_host.update_values(changed);
    from_device.update_values(on_device.data());
    std::vector<double> x_host(n, 0.0), x_device(n, std::nan(""));
    const SolveResult expected = from_host.solve(b, x_host);
    std::fill(x_device.begin(), x_device.end(), 0.0);
    const SolveResult result = from_device.solve(b, x_device);
    EXPECT_EQ(result.status, SolveStatus::converged) << result.message;
    EXPECT_LE(result.true_residual, result.threshold);
    EXPECT_EQ(result.iterations, expected.iterations);
    EXPECT_LT(test::distributed_relative_error(x_device, x_host), 1e-12);
    // the new system, not the old one: A x = b with A the changed values
    std::vector<double> ax(n, std::nan(""));
    from_device.multiply(x_device.data(), ax.data());
    EXPECT_LT(test::distributed_relative_error(ax, b), 1e-7);
  }

  // The checks, on the device: nothing changes where they fail.
  DistributedSolver<double> solver(MPI_COMM_WORLD, arrays_of(rows),
                                   gpu_options(Method::cg, Preconditioner::jacobi, "csr"),
                                   distributed);
  std::vector<double> x_before(n, 0.0), x_after(n, 0.0);
  const SolveResult before = solver.solve(b, x_before);
  const bool last = world_rank() == world_size() - 1;
  std::vector<double> with_nan = changed;
  if (last && with_nan.size() > 3) with_nan[3] = std::nan("");
  const DeviceBuffer<double> nan_on_device(with_nan, "test: a NaN on the last process");
  if (rows.values.size() > 3) {  // the last process has entries (it has, from 1 to 4 processes)
    const std::string nan_error =
        test::error_on_every_process<BadInput>([&] { solver.update_values(nan_on_device.data()); });
    EXPECT_NE(nan_error.find("non-finite value at entry 3"), std::string::npos) << nan_error;
  }
  std::vector<double> zero_diagonal = changed;
  global_index_t zero_row = -1;
  if (last)
    for (index_t k = rows.row_offsets[1]; k < rows.row_offsets[2]; ++k)
      if (rows.columns[k] == rows.first_row + 1)
        zero_diagonal[k] = 0.0, zero_row = rows.first_row + 1;
  const DeviceBuffer<double> zero_on_device(zero_diagonal, "test: a zero diagonal");
  const std::string diagonal_error = test::error_on_every_process<BadDiagonal>(
      [&] { solver.update_values(zero_on_device.data()); });
  long long named = zero_row;
  MPI_Bcast(&named, 1, MPI_LONG_LONG, world_size() - 1, MPI_COMM_WORLD);
  EXPECT_NE(diagonal_error.find("row " + std::to_string(named)), std::string::npos)
      << diagonal_error;
  const SolveResult after = solver.solve(b, x_after);
  EXPECT_EQ(after.iterations, before.iterations);
  EXPECT_EQ(x_after, x_before);
}

// solve with b and x in device memory (a GPU simulation's vectors): the GPU path copies them on
// the device, the CPU path through the host; the count and x equal the host arrays' solve. The
// checks run where the vectors are: a NaN in b on the last process is one agreed error naming
// its global row; b on the device with x on the host is refused.
TEST(DistributedGpuPaths, SolveWithDeviceVectorsEqualsTheHostVectorsSolve) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const CsrMatrix<double> whole = generated_case("poisson3d", 10);
  const RowPartition partition = test::partition_of(whole, RowBalance::nonzeros);
  const RowBlock<double> rows = my_rows(whole, partition);
  const std::size_t n = static_cast<std::size_t>(rows.rows);
  const std::vector<double> b = test::random_vector(n, 11 + static_cast<unsigned>(world_rank()));
  const std::vector<double> start =
      test::random_vector(n, 29 + static_cast<unsigned>(world_rank()));
  DistributedOptions distributed;
  distributed.transport = transport_here();
  for (const Device device : {Device::gpu, Device::cpu}) {
    SCOPED_TRACE(device == Device::cpu ? "CPU path" : "GPU path");
    Options options = gpu_options(Method::cg, Preconditioner::amg, "ellpack-r");
    options.device = device;
    DistributedSolver<double> solver(MPI_COMM_WORLD, arrays_of(rows), options, distributed);
    std::vector<double> x_host = start;
    const SolveResult expected = solver.solve(b, x_host);
    const DeviceBuffer<double> b_device(b, "test: b");
    DeviceBuffer<double> x_device(start, "test: x");
    const SolveResult result = solver.solve(b_device.data(), x_device.data());
    EXPECT_EQ(result.status, SolveStatus::converged) << result.message;
    EXPECT_LE(result.true_residual, result.threshold);
    EXPECT_EQ(result.iterations, expected.iterations);
    std::vector<double> x(n, std::nan(""));
    SPK_CUDA_CHECK(
        cudaMemcpy(x.data(), x_device.data(), n * sizeof(double), cudaMemcpyDeviceToHost));
    EXPECT_LT(test::distributed_relative_error(x, x_host), 1e-12);

    std::vector<double> with_nan = b;
    const bool last = world_rank() == world_size() - 1;
    if (last) with_nan[2] = std::nan("");
    const DeviceBuffer<double> nan_device(with_nan, "test: b with a NaN");
    const std::string nan_error = test::error_on_every_process<BadInput>(
        [&] { solver.solve(nan_device.data(), x_device.data()); });
    long long row = rows.first_row + 2;
    MPI_Bcast(&row, 1, MPI_LONG_LONG, world_size() - 1, MPI_COMM_WORLD);
    EXPECT_NE(nan_error.find("the right-hand side has a non-finite value at entry " +
                             std::to_string(row)),
              std::string::npos)
        << nan_error;
    const std::string mixed_error = test::error_on_every_process<BadInput>(
        [&] { solver.solve(b_device.data(), x_host.data()); });
    EXPECT_NE(mixed_error.find("must both be host arrays or both device arrays"), std::string::npos)
        << mixed_error;
  }
}

TEST(DistributedGpuPaths, UpdateValuesAndMultiply) {
  SPK_REQUIRE_GPU_OR_SKIP();
  CsrMatrix<double> whole = generated_case("poisson3d", 12);
  const RowPartition partition = test::partition_of(whole, RowBalance::nonzeros);
  DistributedOptions distributed;
  distributed.transport = transport_here();
  DistributedSolver<double> solver(MPI_COMM_WORLD, arrays_of(my_rows(whole, partition)),
                                   gpu_options(Method::cg, Preconditioner::jacobi, "csr"),
                                   distributed);
  // multiply: y = A x against the reference on the whole matrix
  const std::vector<double> x = test::random_vector(static_cast<std::size_t>(whole.rows), 11);
  std::vector<double> y_whole(x.size());
  reference_spmv(whole, x.data(), y_whole.data());
  const std::vector<double> x_local = my_part(x, partition);
  std::vector<double> y_local(x_local.size(), std::nan(""));  // poisoned
  solver.multiply(x_local.data(), y_local.data());
  EXPECT_LT(test::distributed_relative_error(y_local, my_part(y_whole, partition)), 1e-14);

  // A + 2 I: same pattern, new values
  for (index_t row = 0; row < whole.rows; ++row)
    for (index_t k = whole.row_offsets[row]; k < whole.row_offsets[row + 1]; ++k)
      if (whole.columns[k] == row) whole.values[k] += 2.0;
  const RowBlock<double> rows = my_rows(whole, partition);
  solver.update_values(rows.values);
  Solver<double> single(arrays_of(whole), gpu_options(Method::cg, Preconditioner::jacobi, "csr"));
  const std::vector<double> b = test::random_vector(static_cast<std::size_t>(whole.rows), 5);
  std::vector<double> x_single(b.size(), 0.0);
  const SolveResult expected = single.solve(b, x_single);
  const std::vector<double> b_local = my_part(b, partition);
  std::vector<double> x_new(b_local.size(), 0.0);
  const SolveResult result = solver.solve(b_local, x_new);
  EXPECT_EQ(result.status, SolveStatus::converged) << result.message;
  EXPECT_NEAR(result.iterations, expected.iterations, 1);
  EXPECT_LT(test::distributed_relative_error(x_new, my_part(x_single, partition)), 1e-6);
}

// A process without rows, and blocks without a halo, on the GPU path.
TEST(DistributedGpuPaths, EmptyProcessAndEmptyHalo) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const CsrMatrix<double> whole = generated_case("poisson2d", 20);
  // The last process gets no rows (with one process: all of them).
  std::vector<global_index_t> counts(static_cast<std::size_t>(world_size()), 0);
  const int busy = std::max(1, world_size() - 1);
  for (int p = 0; p < busy; ++p)
    counts[static_cast<std::size_t>(p)] = whole.rows / busy + (p < whole.rows % busy ? 1 : 0);
  const RowPartition partition = partition_from_counts(counts);
  DistributedOptions distributed;
  distributed.transport = transport_here();
  const Options options = gpu_options(Method::cg, Preconditioner::jacobi, "ellpack-r");
  DistributedSolver<double> solver(MPI_COMM_WORLD, arrays_of(my_rows(whole, partition)), options,
                                   distributed);
  const std::vector<double> b = test::random_vector(static_cast<std::size_t>(whole.rows), 9);
  const std::vector<double> b_local = my_part(b, partition);
  std::vector<double> x_local(b_local.size(), 0.0);
  const SolveResult result = solver.solve(b_local, x_local);
  EXPECT_EQ(result.status, SolveStatus::converged) << result.message;
  EXPECT_LE(result.true_residual, result.threshold);
  expect_every_process_agrees(result);
  const CommunicationPhases phases = solver.time_phases(5);
  EXPECT_GT(phases.product_ms, 0.0);
  EXPECT_GE(phases.allreduce_ms, 0.0);
  EXPECT_GT(solver.communication_times().exchanges, 0);
}

// NCCL needs a GPU per process: asking for it with more processes than GPUs is one agreed
// error naming two ranks that share a GPU (on every process, none left waiting).
TEST(DistributedGpuFaults, NcclWithProcessesSharingAGpuIsRefused) {
  SPK_REQUIRE_GPU_OR_SKIP();
  int devices = 0;
  ASSERT_EQ(cudaGetDeviceCount(&devices), cudaSuccess);
  if (world_size() <= devices) GTEST_SKIP() << "every process has a GPU of its own here";
  const CsrMatrix<double> whole = generated_case("poisson2d", 16);
  const RowPartition partition = test::partition_of(whole, RowBalance::rows);
  DistributedOptions distributed;
  distributed.transport = Transport::nccl;
  try {
    DistributedSolver<double> solver(MPI_COMM_WORLD, arrays_of(my_rows(whole, partition)),
                                     gpu_options(Method::cg, Preconditioner::none, "csr"),
                                     distributed);
    ADD_FAILURE() << "no error";
  } catch (const NotSupported& error) {
    EXPECT_NE(std::string(error.what()).find("share one (NCCL refuses that)"), std::string::npos)
        << error.what();
  }
}

}  // namespace
}  // namespace spk
