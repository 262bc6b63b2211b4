#pragma once
// What the rank-failure tests (test_rank_failure.cpp on the CPU path, test_rank_failure_gpu.cpp
// on GPUs) share: one process made to fail inside DistributedSolver::solve, what each process
// then saw, and the checks every case makes:
//   - the failing process gets its own exception back, unchanged;
//   - every other process gets RankFailed naming the failing rank and its message, on one
//     line, within 30 s (not a hang: CTest's timeout would end the run);
//   - the solver then refuses every collective call at once, naming the failed rank;
//   - a new solver over the same processes solves (and MPI_Finalize ends the run normally).
// The failure is either the public ProgressCallback throwing at a chosen check, or the
// test-only fault hook (distributed/fault_injection.hpp) throwing at a chosen product or sum.
// Every process records the last fault point it passed: where the failure found it waiting
// (where it must have been when the failing process waits a little before it throws).
#include <gtest/gtest.h>

#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "distributed/fault_injection.hpp"
#include "spkrylov/distributed.hpp"
#include "tests/mpi/mpi_test_support.hpp"

namespace spk::test {

// The exception the failing process throws.
class InjectedFailure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class Injection { progress_callback, fault_hook };

// Who fails, where, and when.
struct FailurePlan {
  Injection injection = Injection::progress_callback;
  int failing_rank = 0;
  int second_failing_rank = -1;  // another process failing at the same place, or -1
  int at = 1;  // the at-th check (progress_callback), product or sum (fault_hook) of the solve
  FaultPoint point = FaultPoint::halo_exchange;  // fault_hook
  // fault_hook: the failing process waits this long before it throws, so that the others have
  // gone as far as they can without it (into the wait that needs it) when its notice comes.
  double delay_s = 0.0;
};

inline bool fails_here(const FailurePlan& plan) {
  return world_rank() == plan.failing_rank || world_rank() == plan.second_failing_rank;
}

inline const char* point_name(FaultPoint point) {
  return point == FaultPoint::halo_exchange ? "halo exchange" : "sum over processes";
}

// What one process saw of the solve.
struct Outcome {
  bool own_failure = false;  // its InjectedFailure came back
  bool rank_failed = false;  // RankFailed
  int named_rank = -1;
  std::string message;
  std::string other_error;  // no error, or another exception
  double seconds = 0.0;
  int last_point = -1;  // the last FaultPoint it passed, -1: none
};

// The hook's state: the plan of the current solve, and this process's count and last point.
struct HookState {
  FailurePlan plan;
  int passed = 0;
  int last_point = -1;
};
inline HookState hook_state;

inline void failing_hook(FaultPoint point) {
  hook_state.last_point = static_cast<int>(point);
  const FailurePlan& plan = hook_state.plan;
  if (plan.injection != Injection::fault_hook || point != plan.point || !fails_here(plan)) return;
  if (++hook_state.passed != plan.at) return;
  std::this_thread::sleep_for(std::chrono::duration<double>(plan.delay_s));
  throw InjectedFailure("injected failure at the " + std::string(point_name(point)) + " number " +
                        std::to_string(plan.at));
}

// Sets the hook for one solve, on every process (the others record where they are).
class ArmedHook {
 public:
  explicit ArmedHook(const FailurePlan& plan) {
    hook_state = HookState{plan, 0, -1};
    fault_hook_for_testing = failing_hook;
  }
  ~ArmedHook() { fault_hook_for_testing = nullptr; }
  ArmedHook(const ArmedHook&) = delete;
  ArmedHook& operator=(const ArmedHook&) = delete;
};

template <class T>
Outcome solve_with_failure(DistributedSolver<T>& solver, const std::vector<T>& b,
                           const FailurePlan& plan) {
  std::vector<T> x(b.size(), T(0));
  int checks = 0;
  const ProgressCallback progress = [&](const Progress&) {
    ++checks;
    if (plan.injection == Injection::progress_callback && checks == plan.at && fails_here(plan))
      throw InjectedFailure("progress callback failed on purpose at check " +
                            std::to_string(checks));
  };
  Outcome outcome;
  const ArmedHook hook(plan);
  const auto start = std::chrono::steady_clock::now();
  try {
    (void)solver.solve(b, x, progress);
    outcome.other_error = "no error";
  } catch (const InjectedFailure& error) {
    outcome.own_failure = true;
    outcome.message = error.what();
  } catch (const RankFailed& error) {
    outcome.rank_failed = true;
    outcome.named_rank = error.failed_rank();
    outcome.message = error.what();
  } catch (const std::exception& error) {
    outcome.other_error = error.what();
  }
  outcome.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  outcome.last_point = hook_state.last_point;
  return outcome;
}

// The failing process got its own error; every other one RankFailed naming it, in time.
inline void expect_failure_reported(const Outcome& outcome, const FailurePlan& plan) {
  if (fails_here(plan)) {
    EXPECT_TRUE(outcome.own_failure)
        << "rank " << world_rank() << ": " << outcome.other_error << outcome.message;
    return;
  }
  ASSERT_TRUE(outcome.rank_failed) << "rank " << world_rank() << ": " << outcome.other_error;
  if (plan.second_failing_rank < 0) {
    EXPECT_EQ(outcome.named_rank, plan.failing_rank);
  } else {
    EXPECT_TRUE(outcome.named_rank == plan.failing_rank ||
                outcome.named_rank == plan.second_failing_rank)
        << outcome.named_rank;
  }
  const std::string expected_cause =
      plan.injection == Injection::progress_callback
          ? "progress callback failed on purpose at check " + std::to_string(plan.at)
          : "injected failure at the " + std::string(point_name(plan.point));
  EXPECT_EQ(
      outcome.message.rfind(
          "rank " + std::to_string(outcome.named_rank) + " failed in solve: " + expected_cause, 0),
      0u)
      << outcome.message;
  EXPECT_NE(outcome.message.find("unusable"), std::string::npos) << outcome.message;
  EXPECT_EQ(outcome.message.find('\n'), std::string::npos) << outcome.message;
  EXPECT_LT(outcome.seconds, 30.0);
}

// Every collective call of the dead solver throws RankFailed at once, naming a failed rank.
template <class T>
void expect_unusable(DistributedSolver<T>& solver, const std::vector<T>& b, int failed_rank,
                     int second_failed_rank = -1) {
  std::vector<T> x(b.size(), T(0)), y(b.size(), T(0));
  std::vector<T> values(static_cast<std::size_t>(solver.process_info().nnz), T(1));
  const auto expect_refused = [&](const char* call, auto&& run) {
    SCOPED_TRACE(call);
    const auto start = std::chrono::steady_clock::now();
    try {
      run();
      ADD_FAILURE() << "no error";
    } catch (const RankFailed& error) {
      const int named = error.failed_rank();
      EXPECT_TRUE(named == failed_rank || named == second_failed_rank) << named;
      const std::string message = error.what();
      EXPECT_EQ(message.rfind("this DistributedSolver is unusable since rank " +
                                  std::to_string(named) + " failed in solve (",
                              0),
                0u)
          << message;
      EXPECT_NE(message.find("); make a new solver"), std::string::npos) << message;
      EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    }
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 1.0);
  };
  expect_refused("solve", [&] { (void)solver.solve(b, x); });
  expect_refused("solve again", [&] { (void)solver.solve(b, x); });
  expect_refused("multiply", [&] { solver.multiply(x.data(), y.data()); });
  expect_refused("update_values", [&] { solver.update_values(values); });
  expect_refused("time_phases", [&] { (void)solver.time_phases(1); });
}

}  // namespace spk::test
