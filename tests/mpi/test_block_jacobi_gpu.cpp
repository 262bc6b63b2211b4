// Block Jacobi on the GPU path under mpirun (spk_tests_mpi; every test skips without a GPU, or
// fails under SPK_REQUIRE_GPU=1). Transports as test_distributed_gpu.cpp chooses them: NCCL
// with one process (or SPK_TEST_TRANSPORT=nccl), the mpi transport with 2-4 processes sharing
// the GPU. Checked: each local kind against the CPU path's block Jacobi over the same
// processes (the same blocks: the count within 2 or 5%), the true residual met; on one process
// the one-GPU count of the local kind; CUDA graphs on and off the same iterations and bits (with
// NCCL the local block's product runs on its own stream, forked from the solver's stream and
// joined back inside the graph); update_values the same count as a fresh GPU solver.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

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

Options block_jacobi(Method method, Preconditioner local, Device device) {
  Options options = test::cpu_options(method, Preconditioner::block_jacobi);
  options.solver.preconditioner_options.local = local;
  options.device = device;
  options.spmv.format = Format::csr;
  return options;
}

struct LocalCase {
  const char* label;
  Preconditioner local;
  Method method;
  CsrMatrix<double> (*matrix)();
};

const LocalCase local_cases[] = {
    {"ic0_cg_poisson3d", Preconditioner::ic0, Method::cg,
     [] { return generated_case("poisson3d", 16); }},
    {"amg_cg_poisson3d", Preconditioner::amg, Method::cg,
     [] { return generated_case("poisson3d", 16); }},
    {"chebyshev_cg_poisson3d", Preconditioner::chebyshev, Method::cg,
     [] { return generated_case("poisson3d", 16); }},
    {"ilu0_bicgstab_convdiff3d_upwind_10", Preconditioner::ilu0, Method::bicgstab,
     [] { return generated_case("convdiff3d", 16, 7, 10.0, "upwind"); }},
    {"ilu0_gmres_convdiff3d_upwind_1", Preconditioner::ilu0, Method::gmres,
     [] { return generated_case("convdiff3d", 16, 7, 1.0, "upwind"); }},
};

class BlockJacobiGpu : public ::testing::TestWithParam<LocalCase> {};

TEST_P(BlockJacobiGpu, MatchesTheCpuPathOverTheSameProcesses) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const LocalCase& c = GetParam();
  const CsrMatrix<double> whole = c.matrix();
  DistributedOptions distributed;
  distributed.transport = transport_here();
  const Comparison gpu = solve_both(whole, block_jacobi(c.method, c.local, Device::gpu),
                                    RowBalance::nonzeros, distributed);
  const Comparison cpu =
      solve_both(whole, block_jacobi(c.method, c.local, Device::cpu), RowBalance::nonzeros);
  ASSERT_EQ(cpu.distributed.status, SolveStatus::converged) << cpu.distributed.message;
  EXPECT_EQ(gpu.distributed.status, SolveStatus::converged) << gpu.distributed.message;
  EXPECT_LE(gpu.distributed.true_residual, gpu.distributed.threshold);
  expect_every_process_agrees(gpu.distributed);
  EXPECT_LE(std::abs(gpu.distributed.iterations - cpu.distributed.iterations),
            std::max(2.0, 0.05 * cpu.distributed.iterations));
  if (world_size() == 1) {  // one process: the block is the matrix, the one-GPU local kind
    EXPECT_NEAR(gpu.distributed.iterations, gpu.single.iterations, 1);
  }
  EXPECT_EQ(gpu.transport, transport_here() == Transport::nccl ? "nccl" : "mpi (host-staged)");
  if (world_rank() == 0)
    std::printf("  block_jacobi %s, %d processes over %s: %d iterations (CPU path %d)\n", c.label,
                world_size(), gpu.transport.c_str(), gpu.distributed.iterations,
                cpu.distributed.iterations);
}

INSTANTIATE_TEST_SUITE_P(Locals, BlockJacobiGpu, ::testing::ValuesIn(local_cases),
                         [](const auto& test) { return std::string(test.param.label); });

// The local kinds that apply the block's product (Chebyshev, AMG's finest level): graphs on
// and off take the same iterations to the same bits.
TEST(BlockJacobiGpuPaths, GraphsChangeNothingButTime) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const CsrMatrix<double> whole = generated_case("poisson3d", 16);
  DistributedOptions distributed;
  distributed.transport = transport_here();
  for (const Preconditioner local : {Preconditioner::chebyshev, Preconditioner::amg}) {
    SCOPED_TRACE(to_string(local));
    for (const Method method : {Method::cg, Method::pipecg}) {
      Options options = block_jacobi(method, local, Device::gpu);
      options.solver.cuda_graph = false;
      const Comparison plain = solve_both(whole, options, RowBalance::nonzeros, distributed);
      options.solver.cuda_graph = true;
      const Comparison graph = solve_both(whole, options, RowBalance::nonzeros, distributed);
      EXPECT_EQ(plain.distributed.status, SolveStatus::converged) << plain.distributed.message;
      EXPECT_EQ(graph.distributed.iterations, plain.distributed.iterations);
      EXPECT_EQ(graph.distributed.true_residual, plain.distributed.true_residual);
      EXPECT_LE(graph.distributed.true_residual, graph.distributed.threshold);
    }
  }
}

TEST(BlockJacobiGpuPaths, UpdateValuesMatchesAFreshSolver) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const CsrMatrix<double> whole = generated_case("poisson3d", 12);
  const CsrMatrix<double> shifted = test::with_random_diagonal_shift(whole, 2.0, 9);
  const RowPartition partition = test::partition_of(whole, RowBalance::nonzeros);
  const RowBlock<double> rows = my_rows(whole, partition);
  const RowBlock<double> new_rows = my_rows(shifted, partition);
  const std::vector<double> b =
      my_part(test::random_vector(static_cast<std::size_t>(whole.rows), 4), partition);
  DistributedOptions distributed;
  distributed.transport = transport_here();
  for (const Preconditioner local : {Preconditioner::ic0, Preconditioner::ilu0, Preconditioner::amg,
                                     Preconditioner::chebyshev}) {
    SCOPED_TRACE(to_string(local));
    const Options options = block_jacobi(Method::cg, local, Device::gpu);
    DistributedSolver<double> updated(MPI_COMM_WORLD, arrays_of(rows), options, distributed);
    std::vector<double> x_first(b.size(), 0.0);
    EXPECT_EQ(updated.solve(b, x_first).status, SolveStatus::converged);
    updated.update_values(new_rows.values);
    DistributedSolver<double> fresh(MPI_COMM_WORLD, arrays_of(new_rows), options, distributed);
    std::vector<double> x_updated(b.size(), 0.0), x_fresh(b.size(), 0.0);
    const SolveResult after = updated.solve(b, x_updated);
    const SolveResult expected = fresh.solve(b, x_fresh);
    ASSERT_EQ(expected.status, SolveStatus::converged) << expected.message;
    EXPECT_EQ(after.status, SolveStatus::converged);
    EXPECT_NEAR(after.iterations, expected.iterations, 1);
    EXPECT_LT(test::distributed_relative_error(x_updated, x_fresh), 1e-8);
    EXPECT_LE(after.true_residual, after.threshold);
  }
}

}  // namespace
}  // namespace spk
