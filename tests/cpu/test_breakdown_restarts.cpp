// BiCGSTAB restarts after a breakdown (solver.breakdown_restarts, solver/krylov_driver.hpp):
// a system where the shadow residual r_hat = r0 becomes orthogonal to r (rho ~ 0) stops with
// status breakdown without restarts, and converges, judged by its true residual, when the
// iteration restarts from r_hat = r = b - A x; the count, the iterations and the history go
// on across the restart.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "tests/solver_test_support.hpp"

namespace spk {
namespace {

// Central differences at cell Peclet 20 on a 16 x 16 grid: nonsymmetric and not diagonally
// dominant. BiCGSTAB (b = ones, tolerance 1e-8) breaks down on rho at iteration 191.
CsrMatrix<double> central_convection_diffusion(double peclet, int n) {
  GeneratorSpec spec;
  spec.kind = "convdiff2d";
  spec.n = n;
  spec.peclet = peclet;
  spec.convection = "central";
  return generate_matrix(spec);
}

SolveResult solve_bicgstab(const CsrMatrix<double>& a, const std::vector<double>& b,
                           std::vector<double>& x, int restarts, VectorOps ops) {
  Options options;
  options.device = Device::cpu;
  options.solver.method = Method::bicgstab;
  options.solver.max_iterations = 20000;
  options.solver.breakdown_restarts = restarts;
  options.solver.vector_ops = ops;
  Solver<double> solver(arrays_of(a), options);
  x.assign(b.size(), 0.0);
  return solver.solve(b, x);
}

TEST(BreakdownRestartsCpu, RestartsTurnABreakdownIntoConvergence) {
  const CsrMatrix<double> a = central_convection_diffusion(20.0, 16);
  const std::vector<double> b(static_cast<std::size_t>(a.rows), 1.0);
  for (const VectorOps ops : {VectorOps::cublas, VectorOps::fused}) {
    SCOPED_TRACE(to_string(ops));
    std::vector<double> x;
    const SolveResult stopped = solve_bicgstab(a, b, x, 0, ops);
    ASSERT_EQ(stopped.status, SolveStatus::breakdown) << stopped.message;
    EXPECT_EQ(stopped.breakdown, BreakdownQuantity::rho);
    EXPECT_EQ(stopped.breakdown_restarts, 0);
    EXPECT_GT(test::true_relative_residual(a, b, x), 1e-8);

    const SolveResult restarted = solve_bicgstab(a, b, x, 3, ops);
    ASSERT_EQ(restarted.status, SolveStatus::converged) << restarted.message;
    EXPECT_LE(test::true_relative_residual(a, b, x), 1e-8);
    EXPECT_GE(restarted.breakdown_restarts, 1);
    EXPECT_LE(restarted.breakdown_restarts, 3);
    EXPECT_EQ(restarted.breakdown, BreakdownQuantity::none);
    // The iteration count goes on past the first breakdown, and the history has an entry for
    // every iteration, all finite.
    EXPECT_GT(restarted.iterations, stopped.iterations);
    ASSERT_EQ(restarted.history.residual.size(),
              static_cast<std::size_t>(restarted.iterations) + 1);
    for (const double residual : restarted.history.residual) EXPECT_TRUE(std::isfinite(residual));
    // The same iterates up to the first breakdown; the restart records ||b - A x|| at that
    // iteration in place of the recursive residual (as a residual replacement does).
    const auto at = [](const SolveResult& r, int k) {
      return r.history.residual[static_cast<std::size_t>(k)];
    };
    for (int k = 0; k < stopped.iterations; ++k) EXPECT_EQ(at(restarted, k), at(stopped, k));
    EXPECT_NEAR(at(restarted, stopped.iterations), at(stopped, stopped.iterations),
                1e-6 * at(stopped, stopped.iterations));
    std::printf(
        "convdiff2d central Pe 20 n 16 (%s): breakdown at %d without restarts; converged "
        "in %d iterations with %d restart(s)\n",
        to_string(ops), stopped.iterations, restarted.iterations, restarted.breakdown_restarts);
  }
}

// At Peclet 50 every restart breaks down again: after solver.breakdown_restarts of them the
// status is breakdown, and the message says how many restarts it took.
TEST(BreakdownRestartsCpu, ABreakdownAfterTheLastRestartIsReported) {
  const CsrMatrix<double> a = central_convection_diffusion(50.0, 16);
  const std::vector<double> b(static_cast<std::size_t>(a.rows), 1.0);
  std::vector<double> x;
  const SolveResult result = solve_bicgstab(a, b, x, 2, VectorOps::cublas);
  ASSERT_EQ(result.status, SolveStatus::breakdown) << result.message;
  EXPECT_EQ(result.breakdown_restarts, 2);
  EXPECT_NE(result.message.find("after 2 restart(s)"), std::string::npos) << result.message;
  EXPECT_GT(test::true_relative_residual(a, b, x), 1e-8);
  EXPECT_NEAR(result.relative_true_residual, test::true_relative_residual(a, b, x), 1e-12);
}

// CG does not restart: its breakdown ((p, Ap) <= 0, a matrix that is not SPD) is final.
TEST(BreakdownRestartsCpu, CgBreakdownIsNotRestarted) {
  CsrMatrix<double> a = test::generated("poisson2d", 8);
  for (index_t row = 0; row < a.rows; ++row)
    for (index_t k = a.row_offsets[row]; k < a.row_offsets[row + 1]; ++k)
      if (a.columns[k] == row) a.values[k] = -a.values[k];  // indefinite
  const std::vector<double> b(static_cast<std::size_t>(a.rows), 1.0);
  Options options;
  options.device = Device::cpu;
  options.solver.breakdown_restarts = 3;
  Solver<double> solver(arrays_of(a), options);
  std::vector<double> x(b.size(), 0.0);
  const SolveResult result = solver.solve(b, x);
  EXPECT_NE(result.status, SolveStatus::converged) << result.message;
  EXPECT_EQ(result.breakdown_restarts, 0);
}

}  // namespace
}  // namespace spk
