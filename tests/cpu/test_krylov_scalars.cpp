// The stopping and breakdown logic of the scalar steps, on the host (the same functors run
// as one-thread kernels on the GPU).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "solver/bicgstab.hpp"
#include "solver/cg.hpp"
#include "solver/krylov_scalars.hpp"

namespace spk {
namespace {

KrylovScalars<double> running_scalars() {
  KrylovScalars<double> s;
  s.tolerance = 1e-8;
  s.tolerance_mode = ToleranceMode::rhs;
  s.divergence_factor = 100.0;
  s.max_iterations = 10;
  s.b_norm = 2.0;
  s.set_stopping_targets(4.0);
  return s;
}

TEST(KrylovScalars, StoppingTargetsFollowToleranceMode) {
  KrylovScalars<double> s = running_scalars();
  EXPECT_DOUBLE_EQ(s.threshold, 2e-8);  // rhs: tol * ||b||
  EXPECT_DOUBLE_EQ(s.divergence_limit, 400.0);
  s.tolerance_mode = ToleranceMode::initial;
  s.set_stopping_targets(4.0);
  EXPECT_DOUBLE_EQ(s.threshold, 4e-8);  // initial: tol * ||r0||
  s.tolerance_mode = ToleranceMode::absolute;
  s.set_stopping_targets(4.0);
  EXPECT_DOUBLE_EQ(s.threshold, 1e-8);  // absolute
  s.divergence_factor = 0.0;
  s.set_stopping_targets(4.0);
  EXPECT_DOUBLE_EQ(s.divergence_limit, 0.0);
}

TEST(KrylovScalars, CheckResidualOrderAndStopIteration) {
  KrylovScalars<double> s = running_scalars();
  s.iteration = 3;
  s.check_residual(1.0);
  EXPECT_TRUE(s.running());
  s.check_residual(std::numeric_limits<double>::quiet_NaN());
  EXPECT_EQ(s.status, SolveStatus::non_finite);
  EXPECT_EQ(s.stop_iteration, 3);

  s = running_scalars();
  s.check_residual(1e-9);
  EXPECT_EQ(s.status, SolveStatus::converged);
  s.check_residual(1e9);  // a later test never overrides the first stop
  EXPECT_EQ(s.status, SolveStatus::converged);

  s = running_scalars();
  s.check_residual(401.0);
  EXPECT_EQ(s.status, SolveStatus::diverged);

  s = running_scalars();
  s.iteration = 10;
  s.check_residual(1.0);
  EXPECT_EQ(s.status, SolveStatus::max_iterations);

  s = running_scalars();
  s.iteration = 10;
  s.check_residual(1e-10);  // converging on the last allowed iteration counts as converged
  EXPECT_EQ(s.status, SolveStatus::converged);
}

TEST(KrylovScalars, HistoryIsRecordedPerIteration) {
  double residuals[4] = {-1, -1, -1, -1};
  std::uint64_t times[4] = {0, 0, 0, 0};
  KrylovScalars<double> s = running_scalars();
  s.history_residual = residuals;
  s.history_time_ns = times;
  s.history_capacity = 4;
  for (int k = 0; k < 6; ++k) {  // past the capacity: no write out of bounds
    s.iteration = k;
    s.check_residual(10.0 - k);
  }
  EXPECT_EQ(residuals[0], 10.0);
  EXPECT_EQ(residuals[3], 7.0);
  EXPECT_LE(times[0], times[3]);
}

TEST(CgSteps, NonPositiveCurvatureIsBreakdownAndFreezes) {
  KrylovScalars<double> s = running_scalars();
  s.rho = 1.0;
  s.p_ap = -0.5;
  cg_steps::Alpha<double>{}(s);
  EXPECT_EQ(s.status, SolveStatus::breakdown);
  EXPECT_EQ(s.breakdown, BreakdownQuantity::p_ap);
  EXPECT_EQ(s.alpha, 0.0);
  EXPECT_EQ(s.minus_alpha, 0.0);

  s = running_scalars();
  s.rho = 1.0;
  s.p_ap = std::numeric_limits<double>::infinity();
  cg_steps::Alpha<double>{}(s);
  EXPECT_EQ(s.status, SolveStatus::non_finite);
}

TEST(CgSteps, AlphaAndBetaFormulas) {
  KrylovScalars<double> s = running_scalars();
  s.rho = 3.0;
  s.p_ap = 2.0;
  cg_steps::Alpha<double>{}(s);
  EXPECT_DOUBLE_EQ(s.alpha, 1.5);
  EXPECT_DOUBLE_EQ(s.minus_alpha, -1.5);
  s.rho = 0.75;  // new (r, r) -> ||r|| = sqrt(0.75)
  cg_steps::Beta<double>{false}(s);
  EXPECT_EQ(s.iteration, 1);
  EXPECT_DOUBLE_EQ(s.beta, 0.25);
  EXPECT_DOUBLE_EQ(s.residual_norm, std::sqrt(0.75));
}

TEST(CgSteps, NanRhoIsNotMistakenForConvergence) {
  KrylovScalars<double> s = running_scalars();
  s.rho_old = 1.0;
  s.rho = std::numeric_limits<double>::quiet_NaN();
  cg_steps::Beta<double>{false}(s);
  EXPECT_EQ(s.status, SolveStatus::non_finite);
}

TEST(BicgstabSteps, RhoBreakdownIsScaled) {
  KrylovScalars<double> s = running_scalars();
  s.residual_norm = 1.0;
  s.restart_residual = 1.0;
  s.rho = 1e-33;  // below eps^2 * ||r|| * ||r_hat||
  bicgstab_steps::Beta<double>{}(s);
  EXPECT_EQ(s.status, SolveStatus::breakdown);
  EXPECT_EQ(s.breakdown, BreakdownQuantity::rho);

  s = running_scalars();  // small but not negligible: nonnormal systems recover from this
  s.residual_norm = 1.0;
  s.restart_residual = 1.0;
  s.rho = 1e-20;
  s.rho_old = s.alpha = s.omega = 1.0;
  bicgstab_steps::Beta<double>{}(s);
  EXPECT_TRUE(s.running());

  s = running_scalars();
  s.residual_norm = 1e-30;  // tiny vectors: the same rho is a healthy value
  s.restart_residual = 1e-30;
  s.rho = 1e-70;
  s.rho_old = s.alpha = s.omega = 1.0;
  bicgstab_steps::Beta<double>{}(s);
  EXPECT_TRUE(s.running());
}

TEST(BicgstabSteps, RhatVAndOmegaBreakdowns) {
  KrylovScalars<double> s = running_scalars();
  s.rho = 1.0;
  s.rhat_v = 0.0;
  bicgstab_steps::Alpha<double>{}(s);
  EXPECT_EQ(s.breakdown, BreakdownQuantity::rhat_v);

  s = running_scalars();
  s.s_norm = 1.0;
  s.t_t = 4.0;
  s.t_s = 0.0;
  bicgstab_steps::Omega<double>{}(s);
  EXPECT_EQ(s.breakdown, BreakdownQuantity::omega);
  EXPECT_EQ(s.omega, 0.0);  // frozen: x and r stay put

  s = running_scalars();
  s.s_norm = 1.0;
  s.t_t = 4.0;
  s.t_s = 2.0;
  bicgstab_steps::Omega<double>{}(s);
  EXPECT_DOUBLE_EQ(s.omega, 0.5);
  EXPECT_DOUBLE_EQ(s.minus_omega, -0.5);
}

TEST(BicgstabSteps, HalfStepConvergenceStopsBeforeOmega) {
  KrylovScalars<double> s = running_scalars();
  s.iteration = 4;
  s.s_norm = 1e-12;
  bicgstab_steps::HalfStep<double>{}(s);
  EXPECT_EQ(s.status, SolveStatus::converged);
  EXPECT_EQ(s.stop_iteration, 5);
  EXPECT_EQ(s.omega, 0.0);
}

}  // namespace
}  // namespace spk
