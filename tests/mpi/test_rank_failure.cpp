// One process fails inside DistributedSolver::solve on the CPU path (under mpirun -np 2..4,
// spk_tests_mpi_faults): its progress callback throws at a check, or the test-only fault hook
// throws at a product's halo exchange or an inner product's sum. The other processes must end
// their solve with RankFailed naming it (found in a halo wait, in a sum, or in the check's
// agreement), the solver must refuse every later call at once, and a new solver must work.
// The failing process is rank 0, rank 1 or the last; one case has a process without rows.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "tests/mpi/distributed_comparison.hpp"
#include "tests/mpi/mpi_test_support.hpp"
#include "tests/mpi/rank_failure_support.hpp"

namespace spk {
namespace {

using test::FailurePlan;
using test::Injection;
using test::Outcome;
using test::world_rank;
using test::world_size;

// Ranks 0, 1 and the last (fewer with 2 processes).
std::vector<int> failing_ranks() {
  const std::set<int> ranks{0, 1, world_size() - 1};
  return {ranks.begin(), ranks.end()};
}

// poisson3d 12^3 split by rows: every process holds whole planes, so its halo neighbours are
// the ranks beside it.
struct System {
  RowPartition partition;
  RowBlock<double> rows;
  std::vector<double> b;
};

System poisson_system(const std::vector<global_index_t>& counts = {}) {
  const CsrMatrix<double> whole = test::generated_case("poisson3d", 12);
  System system;
  system.partition =
      counts.empty() ? test::partition_of(whole, RowBalance::rows) : partition_from_counts(counts);
  system.rows = test::my_rows(whole, system.partition);
  system.b =
      test::my_part(test::random_vector(static_cast<std::size_t>(whole.rows), 3), system.partition);
  return system;
}

Options cg_options() {
  return test::cpu_options(Method::cg, Preconditioner::jacobi);
}

// A new solver over the same processes solves: nothing of the dead one is left in the way.
void expect_new_solver_solves(const System& system, const Options& options,
                              const DistributedOptions& distributed = {}) {
  DistributedSolver<double> fresh(MPI_COMM_WORLD, arrays_of(system.rows), options, distributed);
  std::vector<double> x(system.b.size(), 0.0);
  const SolveResult result = fresh.solve(system.b, x);
  EXPECT_EQ(result.status, SolveStatus::converged) << result.message;
  test::expect_every_process_agrees(result);
}

// The whole case: fail, check what every process saw, check the dead solver, solve anew.
Outcome fail_and_recover(const System& system, const FailurePlan& plan,
                         const Options& options = cg_options()) {
  DistributedSolver<double> solver(MPI_COMM_WORLD, arrays_of(system.rows), options);
  const Outcome outcome = test::solve_with_failure(solver, system.b, plan);
  test::expect_failure_reported(outcome, plan);
  if (world_rank() == 0 && outcome.rank_failed)
    std::printf("  %d processes, rank 0 after %.3f s: %s\n", world_size(), outcome.seconds,
                outcome.message.c_str());
  test::expect_unusable(solver, system.b, plan.failing_rank, plan.second_failing_rank);
  expect_new_solver_solves(system, options);
  return outcome;
}

class RankFailure : public ::testing::Test {
 protected:
  void SetUp() override {
    if (world_size() < 2) GTEST_SKIP() << "needs two processes";
  }
};

TEST_F(RankFailure, ProgressCallbackThrowsAtTheFirstCheck) {
  const System system = poisson_system();
  for (const int failing : failing_ranks()) {
    SCOPED_TRACE("failing rank " + std::to_string(failing));
    FailurePlan plan;
    plan.failing_rank = failing;
    plan.at = 1;
    fail_and_recover(system, plan);
  }
}

TEST_F(RankFailure, ProgressCallbackThrowsAtALaterCheck) {
  const System system = poisson_system();
  for (const int failing : failing_ranks()) {
    SCOPED_TRACE("failing rank " + std::to_string(failing));
    FailurePlan plan;
    plan.failing_rank = failing;
    plan.at = 4;
    fail_and_recover(system, plan);
  }
}

// BiCGSTAB, whose iteration has four sums: the same at a later check.
TEST_F(RankFailure, ProgressCallbackThrowsDuringBicgstab) {
  const System system = poisson_system();
  FailurePlan plan;
  plan.failing_rank = world_size() - 1;
  plan.at = 2;
  fail_and_recover(system, plan, test::cpu_options(Method::bicgstab, Preconditioner::none));
}

// The failing process throws as its 5th (then 20th) product starts, after the others have
// gone as far as they can: its neighbours wait for its halo, the others have finished the
// product and wait in the next sum.
TEST_F(RankFailure, FailureBeforeAHaloExchangeFindsNeighboursInTheHaloWait) {
  const System system = poisson_system();
  for (const int at : {5, 20}) {
    for (const int failing : failing_ranks()) {
      SCOPED_TRACE("failing rank " + std::to_string(failing) + ", product " + std::to_string(at));
      FailurePlan plan;
      plan.injection = Injection::fault_hook;
      plan.point = FaultPoint::halo_exchange;
      plan.failing_rank = failing;
      plan.at = at;
      plan.delay_s = 0.3;
      const Outcome outcome = fail_and_recover(system, plan);
      if (world_rank() == failing) continue;
      const bool neighbour = std::abs(world_rank() - failing) == 1;
      EXPECT_EQ(outcome.last_point, static_cast<int>(neighbour ? FaultPoint::halo_exchange
                                                               : FaultPoint::sum_over_processes))
          << "rank " << world_rank();
    }
  }
}

// The distributed AMG: a process fails before a halo exchange deep in a V-cycle (each CG
// iteration makes the fine product and the cycle's products on every level, each with its own
// exchange): the others end in a halo wait or a sum of the cycle or of CG with RankFailed.
TEST_F(RankFailure, FailureInsideAVCycleEndsEveryProcess) {
  const System system = poisson_system();
  for (const int at : {7, 40}) {
    for (const int failing : failing_ranks()) {
      SCOPED_TRACE("failing rank " + std::to_string(failing) + ", product " + std::to_string(at));
      FailurePlan plan;
      plan.injection = Injection::fault_hook;
      plan.point = FaultPoint::halo_exchange;
      plan.failing_rank = failing;
      plan.at = at;
      plan.delay_s = 0.2;
      fail_and_recover(system, plan, test::cpu_options(Method::cg, Preconditioner::amg));
    }
  }
}

// The failing process throws as its 7th sum starts, after a pause: every other waits in that
// sum.
TEST_F(RankFailure, FailureBeforeASumFindsTheOthersInTheSum) {
  const System system = poisson_system();
  for (const int failing : failing_ranks()) {
    SCOPED_TRACE("failing rank " + std::to_string(failing));
    FailurePlan plan;
    plan.injection = Injection::fault_hook;
    plan.point = FaultPoint::sum_over_processes;
    plan.failing_rank = failing;
    plan.at = 7;
    plan.delay_s = 0.3;
    const Outcome outcome = fail_and_recover(system, plan);
    if (world_rank() != failing) {
      EXPECT_EQ(outcome.last_point, static_cast<int>(FaultPoint::sum_over_processes));
    }
  }
}

// Pipelined CG, whose sum runs over the product (MPI_Iallgather begun before it): the failing
// process throws as its 7th split sum starts or as its 20th product starts (its own sum then
// in flight); the others learn of it in a halo wait or in the wait of their split sum, whose
// buffers are kept, and a new solver solves.
TEST_F(RankFailure, FailureAroundAPipelinedSumEndsEveryProcess) {
  const System system = poisson_system();
  for (const auto& [point, at] :
       {std::pair{FaultPoint::sum_over_processes, 7}, std::pair{FaultPoint::halo_exchange, 20}})
    for (const int failing : failing_ranks()) {
      SCOPED_TRACE("failing rank " + std::to_string(failing) + " at " + test::point_name(point));
      FailurePlan plan;
      plan.injection = Injection::fault_hook;
      plan.point = point;
      plan.failing_rank = failing;
      plan.at = at;
      plan.delay_s = 0.3;
      fail_and_recover(system, plan, test::cpu_options(Method::pipecg, Preconditioner::jacobi));
    }
}

// Rank 1 holds no rows (it still takes part in every sum): it fails, or another fails while
// it waits.
TEST_F(RankFailure, ProcessWithoutRows) {
  std::vector<global_index_t> counts(static_cast<std::size_t>(world_size()), 0);
  const global_index_t whole = 12 * 12 * 12;
  const int busy = world_size() - 1;  // every process but rank 1
  for (int p = 0, k = 0; p < world_size(); ++p)
    if (p != 1) counts[static_cast<std::size_t>(p)] = whole / busy + (k++ < whole % busy ? 1 : 0);
  const System system = poisson_system(counts);
  if (world_rank() == 1) {
    EXPECT_EQ(system.rows.rows, 0);
  }
  FailurePlan empty_fails;
  empty_fails.failing_rank = 1;
  empty_fails.at = 2;
  fail_and_recover(system, empty_fails);
  FailurePlan other_fails;
  other_fails.injection = Injection::fault_hook;
  other_fails.point = FaultPoint::halo_exchange;
  other_fails.failing_rank = 0;
  other_fails.at = 6;
  other_fails.delay_s = 0.3;
  const Outcome outcome = fail_and_recover(system, other_fails);
  if (world_rank() == 1) {
    EXPECT_EQ(outcome.last_point, static_cast<int>(FaultPoint::sum_over_processes));
  }
}

// Two processes fail at the same check: each gets its own error, every other process one
// RankFailed naming either, and nothing is left in the way of a new solver.
TEST_F(RankFailure, TwoProcessesFailAtTheSameCheck) {
  const System system = poisson_system();
  FailurePlan plan;
  plan.failing_rank = 0;
  plan.second_failing_rank = world_size() - 1;
  plan.at = 2;
  fail_and_recover(system, plan);
}

// Without the watch nothing fails: the same solve as with it.
TEST_F(RankFailure, WatchOffSolvesTheSame) {
  const System system = poisson_system();
  DistributedOptions unwatched;
  unwatched.watch_faults = false;
  DistributedSolver<double> watched(MPI_COMM_WORLD, arrays_of(system.rows), cg_options());
  DistributedSolver<double> plain(MPI_COMM_WORLD, arrays_of(system.rows), cg_options(), unwatched);
  std::vector<double> x_watched(system.b.size(), 0.0), x_plain(system.b.size(), 0.0);
  const SolveResult with_watch = watched.solve(system.b, x_watched);
  const SolveResult without = plain.solve(system.b, x_plain);
  EXPECT_EQ(with_watch.status, SolveStatus::converged) << with_watch.message;
  EXPECT_EQ(with_watch.iterations, without.iterations);
  EXPECT_EQ(x_watched, x_plain);
}

// Blocking and nonblocking collectives do not match: the setting must be the same everywhere.
TEST_F(RankFailure, WatchSettingThatDiffersFromRankZerosIsAnAgreedError) {
  const System system = poisson_system();
  DistributedOptions distributed;
  distributed.watch_faults = world_rank() != 1;
  std::string message;
  try {
    DistributedSolver<double> solver(MPI_COMM_WORLD, arrays_of(system.rows), cg_options(),
                                     distributed);
    ADD_FAILURE() << "no error";
  } catch (const BadInput& error) {
    message = error.what();
  }
  EXPECT_EQ(message,
            "rank 1: mismatch between processes in the distributed options: 'watch_faults false, "
            "nccl_channels 8' here, 'watch_faults true, nccl_channels 8' on rank 0");
}

// NCCL's channel cap enters its communicator's init: it must be the same everywhere, and in
// range (checked on every process alike, before any NCCL call).
TEST_F(RankFailure, NcclChannelsThatDifferOrAreOutOfRangeAreAgreedErrors) {
  const System system = poisson_system();
  const auto message_for = [&](const DistributedOptions& distributed) {
    try {
      DistributedSolver<double> solver(MPI_COMM_WORLD, arrays_of(system.rows), cg_options(),
                                       distributed);
    } catch (const BadInput& error) {
      return std::string(error.what());
    }
    return std::string("no error");
  };
  DistributedOptions differing;
  differing.nccl_channels = world_rank() == 1 ? 2 : 8;
  EXPECT_EQ(message_for(differing),
            "rank 1: mismatch between processes in the distributed options: 'watch_faults true, "
            "nccl_channels 2' here, 'watch_faults true, nccl_channels 8' on rank 0");
  DistributedOptions negative;
  negative.nccl_channels = -1;
  EXPECT_EQ(message_for(negative),
            "distributed nccl_channels -1 is out of range 0..64 (0: NCCL's own choice)");
}

}  // namespace
}  // namespace spk
