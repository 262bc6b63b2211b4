// One process fails inside DistributedSolver::solve on the GPU path (spk_tests_mpi_faults under
// mpirun -np 2..4; every test skips without a GPU). Over NCCL (a GPU per process, or
// SPK_TEST_TRANSPORT=nccl) nothing in an iteration block waits on the host: the others run on
// until the block's read-back, whose polled stream wait finds the notice, aborts NCCL (its
// kernels waiting for the failed process return) and throws RankFailed. Over the mpi transport
// (processes sharing a GPU) the waits are the CPU path's. Either way: the failing process gets
// its own error, the others RankFailed within 30 s, the solver refuses every later call, and a
// new solver works.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include "tests/mpi/distributed_comparison.hpp"
#include "tests/mpi/mpi_test_support.hpp"
#include "tests/mpi/rank_failure_support.hpp"
#include "tests/test_support.hpp"

namespace spk {
namespace {

using test::FailurePlan;
using test::Injection;
using test::world_rank;
using test::world_size;

// NCCL where every process has a GPU of its own (or SPK_TEST_TRANSPORT=nccl), else mpi.
Transport transport_here() {
  const char* chosen = std::getenv("SPK_TEST_TRANSPORT");
  if (chosen != nullptr && std::string(chosen) == "nccl") return Transport::nccl;
  if (chosen != nullptr && std::string(chosen) == "mpi") return Transport::mpi;
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess) devices = 0;
  return world_size() <= devices ? Transport::nccl : Transport::mpi;
}

Options gpu_options(bool cuda_graph) {
  Options options = test::cpu_options(Method::cg, Preconditioner::jacobi);
  options.device = Device::gpu;
  options.spmv.format = Format::csr;
  options.solver.cuda_graph = cuda_graph;
  return options;
}

class RankFailureGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    SPK_REQUIRE_GPU_OR_SKIP();
    if (world_size() < 2) GTEST_SKIP() << "needs two processes";
    distributed_.transport = transport_here();
    const CsrMatrix<double> whole = test::generated_case("poisson3d", 16);
    partition_ = test::partition_of(whole, RowBalance::rows);
    rows_ = test::my_rows(whole, partition_);
    b_ = test::my_part(test::random_vector(static_cast<std::size_t>(whole.rows), 5), partition_);
  }

  // Fail as planned; check what every process saw, the dead solver, and a new one.
  void fail_and_recover(const FailurePlan& plan, const Options& options) {
    DistributedSolver<double> solver(MPI_COMM_WORLD, arrays_of(rows_), options, distributed_);
    EXPECT_EQ(std::string(solver.transport()),
              distributed_.transport == Transport::nccl ? "nccl" : "mpi (host-staged)");
    const test::Outcome outcome = test::solve_with_failure(solver, b_, plan);
    test::expect_failure_reported(outcome, plan);
    test::expect_unusable(solver, b_, plan.failing_rank, plan.second_failing_rank);

    DistributedSolver<double> fresh(MPI_COMM_WORLD, arrays_of(rows_), options, distributed_);
    std::vector<double> x(b_.size(), 0.0);
    const SolveResult result = fresh.solve(b_, x);
    EXPECT_EQ(result.status, SolveStatus::converged) << result.message;
    test::expect_every_process_agrees(result);
  }

  std::vector<int> failing_ranks() const {
    const std::set<int> ranks{0, 1, world_size() - 1};
    return {ranks.begin(), ranks.end()};
  }

  DistributedOptions distributed_;
  RowPartition partition_;
  RowBlock<double> rows_;
  std::vector<double> b_;
};

TEST_F(RankFailureGpu, ProgressCallbackThrows) {
  for (const int failing : failing_ranks()) {
    for (const int at : {1, 3}) {
      SCOPED_TRACE("failing rank " + std::to_string(failing) + ", check " + std::to_string(at));
      FailurePlan plan;
      plan.failing_rank = failing;
      plan.at = at;
      fail_and_recover(plan, gpu_options(false));
    }
  }
}

// The blocks after the first replay a CUDA graph (NCCL's kernels in it): the same.
TEST_F(RankFailureGpu, ProgressCallbackThrowsWhileGraphsReplay) {
  FailurePlan plan;
  plan.failing_rank = world_size() - 1;
  plan.at = 3;
  fail_and_recover(plan, gpu_options(true));
}

// The failing process throws mid-block, as a product or a sum starts: over NCCL the others'
// streams then wait in a collective kernel for it until NCCL is aborted.
TEST_F(RankFailureGpu, FailureMidBlock) {
  for (const FaultPoint point : {FaultPoint::halo_exchange, FaultPoint::sum_over_processes}) {
    for (const int failing : failing_ranks()) {
      SCOPED_TRACE(std::string(test::point_name(point)) + ", failing rank " +
                   std::to_string(failing));
      FailurePlan plan;
      plan.injection = Injection::fault_hook;
      plan.point = point;
      plan.failing_rank = failing;
      plan.at = 6;
      fail_and_recover(plan, gpu_options(false));
    }
  }
}

TEST_F(RankFailureGpu, TwoProcessesFailAtTheSameCheck) {
  FailurePlan plan;
  plan.failing_rank = 0;
  plan.second_failing_rank = world_size() - 1;
  plan.at = 2;
  fail_and_recover(plan, gpu_options(false));
}

}  // namespace
}  // namespace spk
