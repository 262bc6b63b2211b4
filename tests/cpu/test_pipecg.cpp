// Pipelined CG (solver.method: pipecg, solver/pipecg.hpp) on the CPU reference path: the
// iteration counts of CG within 2% on Poisson 2-D/3-D and elasticity with every preconditioner
// that runs there, the true residual of every converged answer (pipelined CG's recursive
// residual drifts more than CG's), and the edge cases: one row, b = 0, an indefinite matrix,
// the iteration limit, any check interval, a breakdown restart on an ill-conditioned matrix.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "spkrylov/errors.hpp"
#include "tests/solver_test_support.hpp"

namespace spk {
namespace {

using test::generated;
using test::solve_on;
using test::true_relative_residual;

SolverOptions options_for(Method method, Preconditioner preconditioner = Preconditioner::none) {
  SolverOptions options;
  options.method = method;
  options.preconditioner = preconditioner;
  options.tolerance = 1e-8;
  options.max_iterations = 20000;
  return options;
}

// Within 2% of CG's count (at least 1 iteration either way).
void expect_within_two_percent(int pipelined, int cg, const std::string& label) {
  const int slack = std::max(1, static_cast<int>(std::ceil(0.02 * cg)));
  EXPECT_LE(std::abs(pipelined - cg), slack) << label << ": pipecg " << pipelined << ", cg " << cg;
}

struct Case {
  const char* label;
  CsrMatrix<double> a;
};

std::vector<Case> cases() {
  std::vector<Case> all;
  all.push_back({"poisson2d 48", generated("poisson2d", 48)});
  all.push_back({"poisson3d 16", generated("poisson3d", 16)});
  all.push_back({"poisson3d-27pt 12", generated("poisson3d", 12, 27)});
  all.push_back({"elasticity3d 6", generated("elasticity3d", 6)});
  return all;
}

TEST(PipecgCpu, CountsMatchCgWithEveryPreconditioner) {
  for (const Case& c : cases()) {
    const std::vector<double> b = test::random_vector(static_cast<std::size_t>(c.a.rows), 3);
    for (const Preconditioner preconditioner : {Preconditioner::none, Preconditioner::jacobi,
                                                Preconditioner::chebyshev, Preconditioner::amg}) {
      const std::string label = std::string(c.label) + " " + to_string(preconditioner);
      std::vector<double> x_cg, x_pipe;
      const SolveResult cg =
          solve_on(Device::cpu, c.a, b, x_cg, options_for(Method::cg, preconditioner));
      const SolveResult pipe =
          solve_on(Device::cpu, c.a, b, x_pipe, options_for(Method::pipecg, preconditioner));
      ASSERT_EQ(cg.status, SolveStatus::converged) << label << ": " << cg.message;
      ASSERT_EQ(pipe.status, SolveStatus::converged) << label << ": " << pipe.message;
      EXPECT_LE(true_relative_residual(c.a, b, x_pipe), 1e-8) << label;
      EXPECT_NEAR(pipe.relative_true_residual, true_relative_residual(c.a, b, x_pipe), 1e-12)
          << label;
      expect_within_two_percent(pipe.iterations, cg.iterations, label);
      std::printf("  %-24s %-9s cg %4d  pipecg %4d (replacements %d, true %.2e)\n", c.label,
                  to_string(preconditioner), cg.iterations, pipe.iterations,
                  pipe.residual_replacements, pipe.relative_true_residual);
    }
  }
}

// The history has one entry per iteration, from ||r0|| to the converged residual: the lagged
// test of ||r_i|| records each once.
TEST(PipecgCpu, HistoryHasOneEntryPerIteration) {
  const auto a = generated("poisson3d", 16);
  const auto b = test::random_vector(a.rows, 1);
  std::vector<double> x;
  const SolveResult result = solve_on(Device::cpu, a, b, x, options_for(Method::pipecg));
  ASSERT_EQ(result.status, SolveStatus::converged) << result.message;
  ASSERT_EQ(result.history.residual.size(), static_cast<std::size_t>(result.iterations + 1));
  EXPECT_NEAR(result.history.residual.front(), result.initial_residual, 1e-12);
  EXPECT_LE(result.history.residual.back(), result.threshold);
  EXPECT_GT(result.history.residual[result.history.residual.size() - 2], result.threshold);
  // one product more than CG to see the convergence
  EXPECT_GE(result.iterations_executed, result.iterations + 1);
}

TEST(PipecgCpu, OneRow) {
  CsrMatrix<double> a;
  a.rows = a.cols = 1;
  a.row_offsets = {0, 1};
  a.columns = {0};
  a.values = {4.0};
  for (const Preconditioner preconditioner : {Preconditioner::none, Preconditioner::jacobi}) {
    std::vector<double> x;
    const auto result =
        solve_on(Device::cpu, a, {2.0}, x, options_for(Method::pipecg, preconditioner));
    ASSERT_EQ(result.status, SolveStatus::converged) << result.message;
    EXPECT_LE(result.iterations, 1);
    EXPECT_NEAR(x[0], 0.5, 1e-14);
  }
}

TEST(PipecgCpu, ZeroRightHandSideConvergesAtIterationZero) {
  const auto a = generated("poisson2d", 8);
  const std::vector<double> b(a.rows, 0.0);
  for (const Preconditioner preconditioner : {Preconditioner::none, Preconditioner::jacobi}) {
    std::vector<double> x;
    const auto result = solve_on(Device::cpu, a, b, x, options_for(Method::pipecg, preconditioner));
    EXPECT_EQ(result.status, SolveStatus::converged) << result.message;
    EXPECT_EQ(result.iterations, 0);
    EXPECT_TRUE(std::all_of(x.begin(), x.end(), [](double v) { return v == 0.0; }));
  }
}

TEST(PipecgCpu, IndefiniteMatrixIsABreakdownNotANan) {
  CsrMatrix<double> a;
  a.rows = a.cols = 2;
  a.row_offsets = {0, 1, 2};
  a.columns = {0, 1};
  a.values = {1.0, -1.0};
  std::vector<double> x;
  const auto result =
      solve_on(Device::cpu, a, {1.0, 1.0}, x, options_for(Method::pipecg));  // (p, Ap) = 0
  EXPECT_EQ(result.status, SolveStatus::breakdown) << result.message;
  EXPECT_EQ(result.breakdown, BreakdownQuantity::p_ap);
  EXPECT_EQ(result.iterations, 0);
  EXPECT_EQ(result.breakdown_restarts, 3);  // every restart breaks down again
  EXPECT_NE(result.message.find("from r = b - Ax"), std::string::npos) << result.message;
  EXPECT_TRUE(test::all_finite(x));
}

TEST(PipecgCpu, MaxIterationsIsReportedWithTheExactCount) {
  const auto a = generated("poisson3d", 12);
  const std::vector<double> b(a.rows, 1.0);
  SolverOptions options = options_for(Method::pipecg);
  options.max_iterations = 5;
  std::vector<double> x_pipe, x_cg;
  const auto result = solve_on(Device::cpu, a, b, x_pipe, options);
  EXPECT_EQ(result.status, SolveStatus::max_iterations) << result.message;
  EXPECT_EQ(result.iterations, 5);
  EXPECT_EQ(result.history.residual.size(), 6u);
  // x_5, as CG's fifth iterate (the same Krylov space, rounding apart)
  options.method = Method::cg;
  solve_on(Device::cpu, a, b, x_cg, options);
  double difference = 0.0, norm = 0.0;
  for (std::size_t i = 0; i < x_cg.size(); ++i) {
    difference = std::max(difference, std::abs(x_pipe[i] - x_cg[i]));
    norm = std::max(norm, std::abs(x_cg[i]));
  }
  EXPECT_LT(difference, 1e-10 * norm);
}

// The stopped step freezes the pass, so the extra products of a check block leave x alone.
TEST(PipecgCpu, CheckEveryDoesNotChangeTheAnswer) {
  const auto a = generated("poisson2d", 24);
  const auto b = test::random_vector(a.rows, 2);
  SolverOptions every_one = options_for(Method::pipecg, Preconditioner::jacobi);
  every_one.check_every = 1;
  SolverOptions every_seven = every_one;
  every_seven.check_every = 7;
  std::vector<double> x1, x7;
  const auto r1 = solve_on(Device::cpu, a, b, x1, every_one);
  const auto r7 = solve_on(Device::cpu, a, b, x7, every_seven);
  ASSERT_TRUE(r1.converged()) << r1.message;
  EXPECT_EQ(r1.iterations, r7.iterations);
  EXPECT_EQ(x1, x7);
}

// bcsstk13 with Jacobi (condition ~1e10): pipelined CG's recurrences lose (p, Ap) to rounding
// at a relative residual of 7e-3 (a NumPy transcription of the algorithm too, at iteration
// 1854); the breakdown restart from r = b - A x (solver.breakdown_restarts) recovers and the
// answer meets the tolerance by its true residual, in about twice CG's iterations.
TEST(PipecgCpu, BreakdownRestartRecoversOnAnIllConditionedMatrix) {
  const auto a = read_matrix_market(test::data_path("bcsstk13.mtx"));
  const std::vector<double> b(a.rows, 1.0);
  std::vector<double> x_cg, x_pipe;
  const auto cg =
      solve_on(Device::cpu, a, b, x_cg, options_for(Method::cg, Preconditioner::jacobi));
  const auto pipe =
      solve_on(Device::cpu, a, b, x_pipe, options_for(Method::pipecg, Preconditioner::jacobi));
  ASSERT_EQ(pipe.status, SolveStatus::converged) << pipe.message;
  EXPECT_GE(pipe.breakdown_restarts, 1);
  EXPECT_LE(true_relative_residual(a, b, x_pipe), 1e-8);
  std::printf("  bcsstk13 jacobi: cg %d, pipecg %d (%d breakdown restarts, %d replacements)\n",
              cg.iterations, pipe.iterations, pipe.breakdown_restarts, pipe.residual_replacements);
  SolverOptions no_restart = options_for(Method::pipecg, Preconditioner::jacobi);
  no_restart.breakdown_restarts = 0;
  const auto stopped = solve_on(Device::cpu, a, b, x_pipe, no_restart);
  EXPECT_EQ(stopped.status, SolveStatus::breakdown) << stopped.message;
  EXPECT_EQ(stopped.breakdown, BreakdownQuantity::p_ap);
}

TEST(PipecgCpu, SinglePrecisionConverges) {
  const auto a = generated("poisson3d", 12);
  const auto af = convert_values<float>(a);
  const std::vector<float> b(a.rows, 1.0f);
  std::vector<float> x(a.rows, 0.0f);
  SolverOptions options = options_for(Method::pipecg, Preconditioner::jacobi);
  options.tolerance = 1e-5;
  Solver<float> solver(arrays_of(af), Options{options, SpmvOptions{}, Device::cpu});
  const auto result = solver.solve(b, x);
  ASSERT_EQ(result.status, SolveStatus::converged) << result.message;
  EXPECT_LE(true_relative_residual(a, b, x), 2e-5);
}

}  // namespace
}  // namespace spk
