// The driver's block lengths (solver/check_schedule.hpp), and what they do to a solve.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "solver/check_schedule.hpp"
#include "tests/solver_test_support.hpp"

namespace spk {
namespace {

TEST(CheckSchedule, FirstBlockIsAQuarterOfCheckEvery) {
  EXPECT_EQ(CheckSchedule(16).next_block(0, 1.0, 1e-8, 10000), 4);
  EXPECT_EQ(CheckSchedule(5).next_block(0, 1.0, 1e-8, 10000), 2);
  EXPECT_EQ(CheckSchedule(16).next_block(0, 1.0, 1e-8, 3), 3);  // max_iterations near
}

TEST(CheckSchedule, RunsHalfTheIterationsLeftAtTheLastRate) {
  CheckSchedule schedule(64);
  ASSERT_EQ(schedule.next_block(0, 1.0, 1e-8, 10000), 16);
  // 16 iterations took the residual from 1 to 1e-6 (rate 10^-3/8 per iteration): 1e-8
  // needs log(1e-2) / log(10^-0.375) = 5.33 more; half of it, rounded up: 3.
  EXPECT_EQ(schedule.next_block(16, 1e-6, 1e-8, 10000), 3);
  // Slower than predicted: again at the new rate (1e-6 -> 2e-7 in 3: 5.6 more, so 3).
  EXPECT_EQ(schedule.next_block(19, 2e-7, 1e-8, 10000), 3);
  // Close: at least one iteration.
  EXPECT_EQ(schedule.next_block(22, 1.1e-8, 1e-8, 10000), 1);
}

TEST(CheckSchedule, DoublesUpToCheckEveryAndStopsAtTheIterationsLeft) {
  CheckSchedule schedule(16);
  (void)schedule.next_block(0, 1.0, 1e-8, 10000);
  // far from the target: at most the iterations run so far, then check_every
  EXPECT_EQ(schedule.next_block(4, 0.5, 1e-8, 10000), 4);
  EXPECT_EQ(schedule.next_block(8, 0.25, 1e-8, 10000), 8);
  EXPECT_EQ(schedule.next_block(16, 0.125, 1e-8, 10000), 16);
  EXPECT_EQ(schedule.next_block(32, 0.0625, 1e-8, 10000), 16);
  EXPECT_EQ(schedule.next_block(48, 0.03, 1e-8, 5), 5);  // max_iterations near
}

TEST(CheckSchedule, NoProgressNaNOrAMetTargetKeepCheckEvery) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  CheckSchedule schedule(8);
  EXPECT_EQ(schedule.next_block(0, 1.0, 1e-8, 10000), 2);
  EXPECT_EQ(schedule.next_block(8, 2.0, 1e-8, 10000), 8);  // growing residual
  EXPECT_EQ(schedule.next_block(16, nan, 1e-8, 10000), 8);
  EXPECT_EQ(schedule.next_block(24, 1.0, 0.0, 10000), 8);  // absolute target 0
  schedule.restart();
  EXPECT_EQ(schedule.next_block(30, 1e-3, 1e-8, 10000), 2);  // no rate after a restart
}

TEST(CheckSchedule, AtLeastOneIteration) {
  CheckSchedule schedule(0);  // check_every < 1 acts as 1
  EXPECT_EQ(schedule.check_every(), 1);
  EXPECT_EQ(schedule.next_block(0, 1.0, 1e-8, 10000), 1);
  EXPECT_EQ(schedule.next_block(1, 0.1, 1e-8, 0), 1);
}

// With blocks of up to 16, a solve runs only a few iterations past convergence, where fixed
// blocks ran up to 15 more (an AMG V-cycle each), and reports the same iterations and x as
// looking after every iteration.
TEST(CheckSchedule, SolvesEndFewIterationsPastConvergence) {
  const auto a = test::generated("poisson3d", 12);
  const auto b = test::random_vector(a.rows, 3);
  for (const Preconditioner preconditioner : {Preconditioner::none, Preconditioner::amg}) {
    SolverOptions options;
    options.tolerance = 1e-10;
    options.preconditioner = preconditioner;
    options.check_every = 1;
    std::vector<double> x1(a.rows, 0.0), x16(a.rows, 0.0);
    Solver<double> every_one(arrays_of(a), Options{options, SpmvOptions{}, Device::cpu});
    const SolveResult r1 = every_one.solve(b, x1);
    options.check_every = 16;
    Solver<double> blocks(arrays_of(a), Options{options, SpmvOptions{}, Device::cpu});
    const SolveResult r16 = blocks.solve(b, x16);
    ASSERT_TRUE(r1.converged() && r16.converged()) << r1.message << " / " << r16.message;
    EXPECT_EQ(r16.iterations, r1.iterations);
    EXPECT_EQ(x16, x1);
    EXPECT_LE(r16.iterations_executed, r16.iterations + 2)
        << to_string(preconditioner) << ": " << r16.iterations << " iterations";
  }
}

}  // namespace
}  // namespace spk
