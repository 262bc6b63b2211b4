// AMG-preconditioned solves on the GPU: the hierarchy is the CPU path's (built on the host),
// so the iteration counts agree with the CPU path's (within one), for every level format,
// including rectangular P and R in every format.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "spkrylov/options.hpp"
#include "tests/solver_test_support.hpp"

namespace spk {
namespace {

using test::generated;
using test::solve_on;
using test::true_relative_residual;

SolverOptions amg_options() {
  SolverOptions options;
  options.preconditioner = Preconditioner::amg;
  return options;
}

TEST(AmgGpu, SameIterationsAsTheCpuPathOnPoisson3d) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const auto a = generated("poisson3d", 32);
  const std::vector<double> b(a.rows, 1.0);
  std::vector<double> x_cpu, x_gpu;
  const SolveResult cpu = solve_on(Device::cpu, a, b, x_cpu, amg_options());
  SetupInfo setup;
  const SolveResult gpu = solve_on(Device::gpu, a, b, x_gpu, amg_options(), SpmvOptions{}, &setup);
  ASSERT_TRUE(cpu.converged()) << cpu.message;
  ASSERT_TRUE(gpu.converged()) << gpu.message;
  EXPECT_LE(std::abs(cpu.iterations - gpu.iterations), 1)
      << "cpu " << cpu.iterations << ", gpu " << gpu.iterations;
  EXPECT_LE(true_relative_residual(a, b, x_gpu), 1e-8);
  ASSERT_GE(setup.preconditioner.levels.size(), 2u);
  EXPECT_EQ(setup.preconditioner.levels[0].format, setup.operator_name);  // the solver's own
}

// Levels that level_formats does not name: the finest takes spmv.format, the coarser ones
// csr-vector (not a one-thread-per-row format on their long rows).
TEST(AmgGpu, CoarseLevelsDefaultToCsrVector) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const auto a = generated("poisson3d", 24);
  const std::vector<double> b(a.rows, 1.0);
  SpmvOptions spmv;
  spmv.format = Format::ellpack_r;
  std::vector<double> x;
  SetupInfo setup;
  ASSERT_TRUE(solve_on(Device::gpu, a, b, x, amg_options(), spmv, &setup).converged());
  ASSERT_GE(setup.preconditioner.levels.size(), 2u);
  EXPECT_EQ(setup.preconditioner.levels[0].format, setup.operator_name);
  EXPECT_EQ(setup.preconditioner.levels[0].format.rfind("ellpack-r", 0), 0u);
  for (std::size_t l = 1; l < setup.preconditioner.levels.size(); ++l)
    EXPECT_EQ(setup.preconditioner.levels[l].format.rfind("csr-vector", 0), 0u)
        << "level " << l << ": " << setup.preconditioner.levels[l].format;
}

TEST(AmgGpu, EveryLevelFormatGivesTheSameIterations) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const auto a = generated("poisson3d", 24);
  const auto b = test::random_vector(a.rows, 21);
  SolverOptions options = amg_options();
  options.preconditioner_options.amg.max_coarse_rows = 60;  // more levels, small ones too
  std::vector<double> x;
  const SolveResult cpu = solve_on(Device::cpu, a, b, x, options);
  ASSERT_TRUE(cpu.converged()) << cpu.message;
  for (const Format format : all_formats()) {
    SolverOptions per_level = options;
    per_level.preconditioner_options.amg.level_formats.assign(6, format);
    SetupInfo setup;
    const SolveResult gpu = solve_on(Device::gpu, a, b, x, per_level, SpmvOptions{}, &setup);
    ASSERT_TRUE(gpu.converged()) << to_string(format) << ": " << gpu.message;
    EXPECT_LE(std::abs(cpu.iterations - gpu.iterations), 1)
        << to_string(format) << ": cpu " << cpu.iterations << ", gpu " << gpu.iterations;
    EXPECT_LE(true_relative_residual(a, b, x), 1e-8) << to_string(format);
    ASSERT_GE(setup.preconditioner.levels.size(), 3u);
    for (const PreconditionerLevel& level : setup.preconditioner.levels)
      EXPECT_FALSE(level.format.empty());
  }
}

TEST(AmgGpu, JacobiSmootherAndSinglePrecision) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const auto a = generated("poisson3d", 24);
  const std::vector<double> b(a.rows, 1.0);
  SolverOptions options = amg_options();
  options.preconditioner_options.amg.smoother = AmgSmoother::jacobi;
  std::vector<double> x_cpu, x_gpu;
  const SolveResult cpu = solve_on(Device::cpu, a, b, x_cpu, options);
  const SolveResult gpu = solve_on(Device::gpu, a, b, x_gpu, options);
  ASSERT_TRUE(gpu.converged()) << gpu.message;
  EXPECT_LE(std::abs(cpu.iterations - gpu.iterations), 1);

  const auto af = convert_values<float>(a);
  const std::vector<float> bf(a.rows, 1.0f);
  std::vector<float> xf(a.rows, 0.0f);
  SolverOptions single = amg_options();
  single.tolerance = 1e-5;
  Solver<float> solver(arrays_of(af), Options{single, SpmvOptions{}, Device::gpu});
  const SolveResult result = solver.solve(bf, xf);
  ASSERT_TRUE(result.converged()) << result.message;
  EXPECT_LE(true_relative_residual(a, bf, xf), 2e-5);
}

TEST(AmgGpu, UpdateValuesMatchesAFreshSetup) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const auto a = generated("poisson3d", 24);
  auto changed = test::with_scaled_diagonal(a, 1.3);
  for (double& value : changed.values) value *= 2.0;
  const auto b = test::random_vector(a.rows, 22);
  SpmvOptions spmv;
  spmv.format = Format::ellpack_r;
  Solver<double> solver(arrays_of(a), Options{amg_options(), spmv, Device::gpu});
  std::vector<double> x(a.rows, 0.0);
  ASSERT_TRUE(solver.solve(b, x).converged());
  solver.update_values(changed.values);
  std::fill(x.begin(), x.end(), 0.0);
  const SolveResult updated = solver.solve(b, x);
  std::vector<double> x_fresh;
  const SolveResult fresh = solve_on(Device::gpu, changed, b, x_fresh, amg_options(), spmv);
  ASSERT_TRUE(updated.converged()) << updated.message;
  EXPECT_LE(std::abs(updated.iterations - fresh.iterations), 1);
  EXPECT_LE(true_relative_residual(changed, b, x), 1e-8);
}

// resetup: rebuild on one GPU (the solver's upload taken for A_0, every other level's arrays
// freed once the cycle has its operators): the default mode's count, then after new values a
// fresh setup's, with the captured graph dropped and captured again; the fp32 cycle too.
TEST(AmgGpu, RebuildResetupMatchesAFreshSetup) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const auto a = generated("poisson3d", 24);
  const auto b = test::random_vector(a.rows, 23);
  SpmvOptions spmv;
  spmv.format = Format::ellpack_r;
  for (const AmgPrecision precision : {AmgPrecision::solver, AmgPrecision::single}) {
    SolverOptions options = amg_options();
    options.preconditioner_options.amg.precision = precision;
    SolverOptions rebuild = options;
    rebuild.preconditioner_options.amg.resetup = AmgResetup::rebuild;
    std::vector<double> x_kept;
    const SolveResult kept = solve_on(Device::gpu, a, b, x_kept, options, spmv);
    Solver<double> solver(arrays_of(a), Options{rebuild, spmv, Device::gpu});
    std::vector<double> x(a.rows, 0.0);
    const SolveResult first = solver.solve(b, x);
    ASSERT_TRUE(first.converged()) << first.message;
    EXPECT_EQ(first.iterations, kept.iterations);
    for (const double factor : {1.3, 1.1}) {
      const auto changed = test::with_scaled_diagonal(a, factor);
      solver.update_values(changed.values);
      std::fill(x.begin(), x.end(), 0.0);
      const SolveResult updated = solver.solve(b, x);
      std::vector<double> x_fresh;
      const SolveResult fresh = solve_on(Device::gpu, changed, b, x_fresh, rebuild, spmv);
      ASSERT_TRUE(updated.converged()) << updated.message;
      EXPECT_LE(std::abs(updated.iterations - fresh.iterations), 1) << "diagonal x" << factor;
      EXPECT_LE(true_relative_residual(changed, b, x), 1e-8);
      std::fill(x.begin(), x.end(), 0.0);  // the graph captured after the rebuild, replayed
      const SolveResult again = solver.solve(b, x);
      EXPECT_EQ(again.iterations, updated.iterations);
      EXPECT_LE(true_relative_residual(changed, b, x), 1e-8);
    }
  }
}

// precision: single on the GPU: an fp32 V-cycle (its own fp32 finest operator) under fp64
// CG meets the fp64 tolerance by the true residual, in the iterations of the fp64 cycle and
// of the CPU path's fp32 cycle (within one), on values not exact in fp32; the second solve
// replays the CUDA graph with the conversions in it; update_values reaches the fp32 levels.
TEST(AmgGpu, SinglePrecisionCycleUnderDoubleCg) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const auto a = test::with_random_diagonal_shift(generated("poisson3d", 32), 0.5, 7);
  const auto b = test::random_vector(a.rows, 8);
  SolverOptions mixed = amg_options();
  mixed.tolerance = 1e-10;
  mixed.preconditioner_options.amg.precision = AmgPrecision::single;
  SolverOptions full = mixed;
  full.preconditioner_options.amg.precision = AmgPrecision::solver;
  SpmvOptions spmv;
  spmv.format = Format::ellpack_r;
  std::vector<double> x_cpu, x_full;
  const SolveResult cpu = solve_on(Device::cpu, a, b, x_cpu, mixed);
  const SolveResult fp64 = solve_on(Device::gpu, a, b, x_full, full, spmv);
  Solver<double> solver(arrays_of(a), Options{mixed, spmv, Device::gpu});
  std::vector<double> x(a.rows, std::nan(""));
  for (int run = 0; run < 2; ++run) {  // the second replays the graph
    std::fill(x.begin(), x.end(), 0.0);
    const SolveResult gpu = solver.solve(b, x);
    ASSERT_TRUE(gpu.converged()) << gpu.message;
    EXPECT_LE(true_relative_residual(a, b, x), 1e-10);
    EXPECT_LE(std::abs(gpu.iterations - fp64.iterations), 1)
        << "fp32 cycle " << gpu.iterations << ", fp64 cycle " << fp64.iterations;
    EXPECT_LE(std::abs(gpu.iterations - cpu.iterations), 1)
        << "gpu " << gpu.iterations << ", cpu " << cpu.iterations;
  }
  const auto changed = test::with_scaled_diagonal(a, 1.3);
  solver.update_values(changed.values);
  std::fill(x.begin(), x.end(), 0.0);
  const SolveResult updated = solver.solve(b, x);
  ASSERT_TRUE(updated.converged()) << updated.message;
  EXPECT_LE(true_relative_residual(changed, b, x), 1e-10);
}

}  // namespace
}  // namespace spk
