// AMG-preconditioned CG and BiCGSTAB on the CPU reference path, through the Solver API:
// convergence in few, nearly grid-independent iterations (checked by the true residual),
// update_values against a fresh setup, the edge cases (n = 1, one level) and the errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>

#include "spkrylov/errors.hpp"
#include "tests/cli_test_support.hpp"
#include "tests/solver_test_support.hpp"

namespace spk {
namespace {

using test::detail;
using test::generated;
using test::solve_cpu;
using test::true_relative_residual;

SolverOptions amg_options(Method method = Method::cg) {
  SolverOptions options;
  options.method = method;
  options.tolerance = 1e-8;
  options.preconditioner = Preconditioner::amg;
  return options;
}

TEST(AmgCpu, PcgOnPoisson3dIsNearlyGridIndependent) {
  int iterations[2] = {0, 0};
  const int sizes[2] = {16, 32};
  for (int i = 0; i < 2; ++i) {
    const auto a = generated("poisson3d", sizes[i]);
    const std::vector<double> b(a.rows, 1.0);
    const test::CpuRun run = solve_cpu(a, b, amg_options());
    ASSERT_TRUE(run.result.converged()) << run.result.message;
    EXPECT_LE(true_relative_residual(a, b, run.x), 1e-8);
    iterations[i] = run.result.iterations;
    const PreconditionerInfo& info = run.setup.preconditioner;
    EXPECT_EQ(info.name, "amg");
    EXPECT_GE(info.levels.size(), 2u);
    EXPECT_EQ(info.levels[0].rows, a.rows);
    EXPECT_EQ(info.levels[0].nnz, a.nnz());
    EXPECT_EQ(info.levels[0].format, "cpu-csr");
  }
  EXPECT_LE(iterations[1], 20) << "32^3: " << iterations[1];  // PyAMG, Chebyshev(3): 11
  EXPECT_LE(iterations[1], iterations[0] * 3 / 2) << iterations[0] << " -> " << iterations[1];
}

TEST(AmgCpu, PcgOnPoisson2dIsNearlyGridIndependent) {
  int iterations[2] = {0, 0};
  const int sizes[2] = {32, 128};
  for (int i = 0; i < 2; ++i) {
    const auto a = generated("poisson2d", sizes[i]);
    const auto b = test::random_vector(a.rows, 5);
    const test::CpuRun run = solve_cpu(a, b, amg_options());
    ASSERT_TRUE(run.result.converged()) << run.result.message;
    EXPECT_LE(true_relative_residual(a, b, run.x), 1e-8);
    iterations[i] = run.result.iterations;
  }
  EXPECT_LE(iterations[1], 20) << "128^2: " << iterations[1];  // PyAMG, Chebyshev(3): 12 at 256^2
  EXPECT_LE(iterations[1], iterations[0] * 3 / 2) << iterations[0] << " -> " << iterations[1];
}

TEST(AmgCpu, PcgOnElasticityConverges) {
  const auto a = generated("elasticity3d", 10);
  const auto b = test::random_vector(a.rows, 5);
  const test::CpuRun run = solve_cpu(a, b, amg_options());
  ASSERT_TRUE(run.result.converged()) << run.result.message;
  EXPECT_LE(true_relative_residual(a, b, run.x), 1e-8);
  EXPECT_LE(run.result.iterations, 20);
}

TEST(AmgCpu, JacobiSmootherAndMoreSweepsConverge) {
  const auto a = generated("poisson3d", 24);
  const std::vector<double> b(a.rows, 1.0);
  SolverOptions options = amg_options();
  options.preconditioner_options.amg.smoother = AmgSmoother::jacobi;
  const test::CpuRun one = solve_cpu(a, b, options);
  ASSERT_TRUE(one.result.converged()) << one.result.message;
  EXPECT_LE(true_relative_residual(a, b, one.x), 1e-8);
  EXPECT_LE(one.result.iterations, 30);
  options.preconditioner_options.amg.sweeps = 2;
  const test::CpuRun two = solve_cpu(a, b, options);
  ASSERT_TRUE(two.result.converged()) << two.result.message;
  EXPECT_LT(two.result.iterations, one.result.iterations);
  EXPECT_NE(detail(two.setup.preconditioner, "cycle").find("V(2,2)"), std::string::npos);
}

TEST(AmgCpu, UnsmoothedAggregationConvergesSlower) {
  const auto a = generated("poisson3d", 20);
  const std::vector<double> b(a.rows, 1.0);
  SolverOptions options = amg_options();
  const test::CpuRun smoothed = solve_cpu(a, b, options);
  options.preconditioner_options.amg.prolongator_weight = 0.0;
  const test::CpuRun plain = solve_cpu(a, b, options);
  ASSERT_TRUE(plain.result.converged()) << plain.result.message;
  EXPECT_GT(plain.result.iterations, smoothed.result.iterations);
}

TEST(AmgCpu, BicgstabOnConvectionDiffusionConverges) {
  GeneratorSpec spec;
  spec.kind = "convdiff2d";
  spec.n = 64;
  spec.peclet = 1.0;
  const auto a = generate_matrix(spec);
  const auto b = test::random_vector(a.rows, 7);
  const test::CpuRun amg = solve_cpu(a, b, amg_options(Method::bicgstab));
  ASSERT_TRUE(amg.result.converged()) << amg.result.message;
  EXPECT_LE(true_relative_residual(a, b, amg.x), 1e-8);
  SolverOptions jacobi = amg_options(Method::bicgstab);
  jacobi.preconditioner = Preconditioner::jacobi;
  const test::CpuRun plain = solve_cpu(a, b, jacobi);
  EXPECT_LT(amg.result.iterations * 3, plain.result.iterations)
      << "amg " << amg.result.iterations << ", jacobi " << plain.result.iterations;
}

TEST(AmgCpu, UpdateValuesGivesTheIterationsOfAFreshSetup) {
  const auto a = generated("poisson3d", 20);
  auto changed = test::with_scaled_diagonal(a, 1.3);
  for (double& value : changed.values) value *= 2.0;
  const auto b = test::random_vector(a.rows, 9);
  Solver<double> solver(arrays_of(a), Options{amg_options(), SpmvOptions{}, Device::cpu});
  std::vector<double> x(a.rows, 0.0);
  const SolveResult before = solver.solve(b, x);
  ASSERT_TRUE(before.converged());
  solver.update_values(changed.values);
  std::fill(x.begin(), x.end(), 0.0);
  const SolveResult updated = solver.solve(b, x);
  const test::CpuRun fresh = solve_cpu(changed, b, amg_options());
  ASSERT_TRUE(updated.converged()) << updated.message;
  EXPECT_EQ(updated.iterations, fresh.result.iterations);
  EXPECT_LE(true_relative_residual(changed, b, x), 1e-8);
  const PreconditionerInfo& info = solver.setup_info().preconditioner;
  EXPECT_NE(detail(info, "resetup_ms"), "not run");
  EXPECT_EQ(detail(fresh.setup.preconditioner, "resetup_ms"), "not run");
  const bool has_resetup_phase =
      std::any_of(info.setup_phases_s.begin(), info.setup_phases_s.end(),
                  [](const auto& phase) { return phase.first == "resetup_galerkin_product"; });
  EXPECT_TRUE(has_resetup_phase);
}

// resetup: galerkin keeps P and R from the setup. Scaling every value keeps D^-1 A, hence P: the
// count and the answer are a full re-setup's. A changed diagonal changes P: the kept one still
// converges (the true residual met), and no re-setup phase recomputes P.
TEST(AmgCpu, GalerkinResetupKeepsTheProlongator) {
  const auto a = generated("poisson3d", 20);
  const auto b = test::random_vector(a.rows, 4);
  SolverOptions keep = amg_options();
  keep.preconditioner_options.amg.resetup = AmgResetup::galerkin;
  const auto resolve = [&](const SolverOptions& options, const CsrMatrix<double>& changed,
                           std::vector<double>& x, PreconditionerInfo* info) {
    Solver<double> solver(arrays_of(a), Options{options, SpmvOptions{}, Device::cpu});
    x.assign(a.rows, 0.0);
    EXPECT_TRUE(solver.solve(b, x).converged());
    solver.update_values(changed.values);
    std::fill(x.begin(), x.end(), 0.0);
    const SolveResult result = solver.solve(b, x);
    if (info != nullptr) *info = solver.setup_info().preconditioner;
    return result;
  };
  CsrMatrix<double> scaled = a;
  for (double& value : scaled.values) value *= 3.0;
  std::vector<double> x_full, x_kept;
  const SolveResult full = resolve(amg_options(), scaled, x_full, nullptr);
  PreconditionerInfo info;
  const SolveResult kept = resolve(keep, scaled, x_kept, &info);
  ASSERT_TRUE(kept.converged()) << kept.message;
  EXPECT_EQ(kept.iterations, full.iterations);
  EXPECT_LE(true_relative_residual(scaled, b, x_kept), 1e-8);
  for (std::size_t i = 0; i < x_kept.size(); ++i)
    ASSERT_NEAR(x_kept[i], x_full[i], 1e-9 * (1.0 + std::abs(x_full[i]))) << i;
  const auto has_phase = [&](const std::string& name) {
    return std::any_of(info.setup_phases_s.begin(), info.setup_phases_s.end(),
                       [&](const auto& phase) { return phase.first == name; });
  };
  EXPECT_TRUE(has_phase("resetup_galerkin_product"));
  EXPECT_FALSE(has_phase("resetup_prolongator"));

  const auto shifted = test::with_scaled_diagonal(a, 1.5);  // D^-1 A changes: so would P
  const SolveResult changed_full = resolve(amg_options(), shifted, x_full, nullptr);
  const SolveResult changed_kept = resolve(keep, shifted, x_kept, nullptr);
  ASSERT_TRUE(changed_kept.converged()) << changed_kept.message;
  EXPECT_LE(true_relative_residual(shifted, b, x_kept), 1e-8);
  std::printf(
      "  poisson3d 20^3, diagonal x1.5 after the setup: %d iterations with P kept, %d "
      "with a full re-setup\n",
      changed_kept.iterations, changed_full.iterations);
}

// resetup: rebuild keeps nothing for a re-setup (each level's arrays freed once the cycle has
// its operators) and builds the hierarchy again: the setup's count and answer are the default
// mode's, and after new values (a changed diagonal: other strengths, other P) a fresh
// solver's, exactly; twice in a row; the report says so.
TEST(AmgCpu, RebuildResetupBuildsTheHierarchyAgainLikeAFreshSetup) {
  const auto a = generated("poisson3d", 20);
  const auto b = test::random_vector(a.rows, 4);
  SolverOptions rebuild = amg_options();
  rebuild.preconditioner_options.amg.resetup = AmgResetup::rebuild;
  const test::CpuRun kept = solve_cpu(a, b, amg_options());
  Solver<double> solver(arrays_of(a), Options{rebuild, SpmvOptions{}, Device::cpu});
  std::vector<double> x(a.rows, 0.0);
  const SolveResult first = solver.solve(b, x);
  ASSERT_TRUE(first.converged()) << first.message;
  EXPECT_EQ(first.iterations, kept.result.iterations);
  for (std::size_t i = 0; i < x.size(); ++i)
    ASSERT_NEAR(x[i], kept.x[i], 1e-12 * (1.0 + std::abs(kept.x[i]))) << i;
  EXPECT_EQ(detail(solver.setup_info().preconditioner, "resetup"), "rebuild");
  EXPECT_EQ(detail(solver.setup_info().preconditioner, "lambda_max"),
            detail(kept.setup.preconditioner, "lambda_max"));

  for (const double factor : {1.5, 1.1}) {
    const auto changed = test::with_scaled_diagonal(a, factor);
    solver.update_values(changed.values);
    std::fill(x.begin(), x.end(), 0.0);
    const SolveResult updated = solver.solve(b, x);
    const test::CpuRun fresh = solve_cpu(changed, b, rebuild);
    ASSERT_TRUE(updated.converged()) << updated.message;
    EXPECT_EQ(updated.iterations, fresh.result.iterations) << "diagonal x" << factor;
    EXPECT_LE(true_relative_residual(changed, b, x), 1e-8);
    for (std::size_t i = 0; i < x.size(); ++i)
      ASSERT_NEAR(x[i], fresh.x[i], 1e-12 * (1.0 + std::abs(fresh.x[i]))) << i;
    const PreconditionerInfo& info = solver.setup_info().preconditioner;
    EXPECT_NE(detail(info, "resetup_ms"), "not run");
    EXPECT_EQ(detail(info, "operator_complexity"),
              detail(fresh.setup.preconditioner, "operator_complexity"));
    const bool rebuilt_strength =
        std::any_of(info.setup_phases_s.begin(), info.setup_phases_s.end(),
                    [](const auto& phase) { return phase.first == "resetup_strength"; });
    EXPECT_TRUE(rebuilt_strength) << "a rebuild finds the strength graph again";
  }
}

TEST(AmgCpu, RebuildResetupWithAZeroDiagonalIsRefusedAndTheSolverKeepsWorking) {
  const auto a = generated("poisson2d", 40);
  auto bad = a;
  for (index_t k = bad.row_offsets[77]; k < bad.row_offsets[78]; ++k)
    if (bad.columns[k] == 77) bad.values[k] = 0.0;
  SolverOptions rebuild = amg_options();
  rebuild.preconditioner_options.amg.resetup = AmgResetup::rebuild;
  Solver<double> solver(arrays_of(a), Options{rebuild, SpmvOptions{}, Device::cpu});
  EXPECT_THROW(solver.update_values(bad.values), BadDiagonal);
  const std::vector<double> b(a.rows, 1.0);
  std::vector<double> x(a.rows, 0.0);
  const SolveResult result = solver.solve(b, x);  // the old values, still
  ASSERT_TRUE(result.converged()) << result.message;
  EXPECT_LE(true_relative_residual(a, b, x), 1e-8);
}

TEST(AmgCpu, UpdateValuesWithAZeroDiagonalIsRefusedAndTheSolverKeepsWorking) {
  const auto a = generated("poisson2d", 40);
  auto bad = a;
  for (index_t k = bad.row_offsets[77]; k < bad.row_offsets[78]; ++k)
    if (bad.columns[k] == 77) bad.values[k] = 0.0;
  Solver<double> solver(arrays_of(a), Options{amg_options(), SpmvOptions{}, Device::cpu});
  try {
    solver.update_values(bad.values);
    FAIL() << "a zero diagonal entry was accepted";
  } catch (const BadDiagonal& error) {
    EXPECT_EQ(error.row(), 77);
  }
  const std::vector<double> b(a.rows, 1.0);
  std::vector<double> x(a.rows, 0.0);
  const SolveResult result = solver.solve(b, x);  // the old values, still
  ASSERT_TRUE(result.converged()) << result.message;
  EXPECT_LE(true_relative_residual(a, b, x), 1e-8);
}

TEST(AmgCpu, OneRowMatrix) {
  CsrMatrix<double> a;
  a.rows = a.cols = 1;
  a.row_offsets = {0, 1};
  a.columns = {0};
  a.values = {4.0};
  const test::CpuRun run = solve_cpu(a, {2.0}, amg_options());
  ASSERT_TRUE(run.result.converged()) << run.result.message;
  EXPECT_EQ(run.result.iterations, 1);
  EXPECT_DOUBLE_EQ(run.x[0], 0.5);
  EXPECT_EQ(run.setup.preconditioner.levels.size(), 1u);
}

TEST(AmgCpu, MatrixSmallerThanMaxCoarseRowsIsOneDenseSolve) {
  const auto a = generated("poisson2d", 20);  // 400 rows <= 500: the dense solve alone
  const auto b = test::random_vector(a.rows, 4);
  const test::CpuRun run = solve_cpu(a, b, amg_options());
  ASSERT_TRUE(run.result.converged()) << run.result.message;
  EXPECT_EQ(run.result.iterations, 1);  // M = A^-1
  EXPECT_LE(true_relative_residual(a, b, run.x), 1e-10);
  ASSERT_EQ(run.setup.preconditioner.levels.size(), 1u);
  EXPECT_EQ(run.setup.preconditioner.levels[0].format, "cpu-csr (dense inverse)");
}

TEST(AmgCpu, ZeroDiagonalIsBadDiagonalNamingTheRow) {
  auto a = generated("poisson3d", 12);
  for (index_t k = a.row_offsets[1000]; k < a.row_offsets[1001]; ++k)
    if (a.columns[k] == 1000) a.values[k] = 0.0;
  try {
    Solver<double> solver(arrays_of(a), Options{amg_options(), SpmvOptions{}, Device::cpu});
    FAIL() << "a zero diagonal entry was accepted";
  } catch (const BadDiagonal& error) {
    EXPECT_EQ(error.row(), 1000);
    EXPECT_NE(std::string(error.what()).find("amg: row 1000"), std::string::npos) << error.what();
  }
}

TEST(AmgCpu, SinglePrecisionConverges) {
  const auto a = generated("poisson3d", 16);
  const auto af = convert_values<float>(a);
  const std::vector<float> b(a.rows, 1.0f);
  std::vector<float> x(a.rows, 0.0f);
  SolverOptions options = amg_options();
  options.tolerance = 1e-5;
  Solver<float> solver(arrays_of(af), Options{options, SpmvOptions{}, Device::cpu});
  const SolveResult result = solver.solve(b, x);
  ASSERT_TRUE(result.converged()) << result.message;
  EXPECT_LE(true_relative_residual(a, b, x), 2e-5);
  EXPECT_LE(result.iterations, 15);
}

// precision: single runs the V-cycle in fp32 under fp64 CG: the fp64 tolerance is met by
// the true residual, on a matrix whose values are not exact in fp32 (a random diagonal
// shift), in about the fp64 cycle's iterations; the cycle really ran in fp32 (x differs);
// update_values reaches the fp32 hierarchy.
TEST(AmgCpu, SinglePrecisionCycleUnderDoubleCgMeetsTheDoubleTolerance) {
  const auto a = test::with_random_diagonal_shift(generated("poisson3d", 20), 0.5, 3);
  const auto b = test::random_vector(a.rows, 4);
  SolverOptions mixed = amg_options();
  mixed.tolerance = 1e-10;
  mixed.preconditioner_options.amg.precision = AmgPrecision::single;
  SolverOptions full = mixed;
  full.preconditioner_options.amg.precision = AmgPrecision::solver;
  const test::CpuRun single = solve_cpu(a, b, mixed);
  const test::CpuRun fp64 = solve_cpu(a, b, full);
  ASSERT_TRUE(single.result.converged()) << single.result.message;
  ASSERT_TRUE(fp64.result.converged()) << fp64.result.message;
  EXPECT_LE(true_relative_residual(a, b, single.x), 1e-10);
  EXPECT_LE(std::abs(single.result.iterations - fp64.result.iterations), 1);
  EXPECT_NE(single.x, fp64.x);
  EXPECT_NE(detail(single.setup.preconditioner, "precision").find("single"), std::string::npos);

  auto changed = test::with_scaled_diagonal(a, 1.3);
  Solver<double> solver(arrays_of(a), Options{mixed, SpmvOptions{}, Device::cpu});
  solver.update_values(changed.values);
  std::vector<double> x(a.rows, 0.0);
  const SolveResult updated = solver.solve(b, x);
  ASSERT_TRUE(updated.converged()) << updated.message;
  EXPECT_LE(true_relative_residual(changed, b, x), 1e-10);
  EXPECT_EQ(updated.iterations, solve_cpu(changed, b, mixed).result.iterations);
}

TEST(AmgCpu, InfoNamesLevelsComplexitiesAndPhases) {
  const auto a = generated("poisson3d", 16);
  Solver<double> solver(arrays_of(a), Options{amg_options(), SpmvOptions{}, Device::cpu});
  const PreconditionerInfo& info = solver.setup_info().preconditioner;
  EXPECT_GE(info.levels.size(), 2u);
  const double complexity = std::stod(detail(info, "operator_complexity"));
  double total = 0.0;
  for (const auto& level : info.levels) total += static_cast<double>(level.nnz);
  EXPECT_NEAR(complexity, total / static_cast<double>(a.nnz()), 1e-3);
  EXPECT_NE(detail(info, "lambda_max").find("lanczos"), std::string::npos);
  std::vector<std::string> phases;
  for (const auto& [phase, seconds] : info.setup_phases_s) {
    phases.push_back(phase);
    EXPECT_GE(seconds, 0.0);
  }
  for (const char* phase : {"strength", "aggregation", "eigen_estimate", "prolongator",
                            "galerkin_product", "coarse_factorization", "level_operators"})
    EXPECT_NE(std::find(phases.begin(), phases.end(), phase), phases.end()) << phase;
  EXPECT_GT(info.setup_s, 0.0);
}

// A single solve keeps nothing for a re-setup whatever resetup says (none follows: the same
// hierarchy and count); a time loop keeps what the config asks. The resolved config keeps the
// key as written.
TEST(AmgCli, SingleSolveRebuildsAndATimeLoopKeepsTheConfiguredResetup) {
  const std::string base =
      "solve --set matrix.generate.n=16 --set device=cpu --set solver.preconditioner=amg "
      "--set solver.preconditioner_options.max_coarse_rows=100 --print-config";
  const test::CliRun printed = test::run_cli(base);
  ASSERT_EQ(printed.exit_code, 0) << printed.err;
  EXPECT_NE(printed.out.find("resetup: full"), std::string::npos) << printed.out;
  const std::string solve =
      "solve --set matrix.generate.n=16 --set device=cpu --set solver.preconditioner=amg "
      "--set solver.preconditioner_options.max_coarse_rows=100";
  const test::CliRun single = test::run_cli(solve);
  ASSERT_EQ(single.exit_code, 0) << single.err;
  EXPECT_NE(single.out.find("resetup=rebuild"), std::string::npos) << single.out;
  const test::CliRun loop = test::run_cli(solve + " --set steps=3");
  ASSERT_EQ(loop.exit_code, 0) << loop.err;
  EXPECT_NE(loop.out.find("resetup=full"), std::string::npos) << loop.out;
  const test::CliRun kept =
      test::run_cli(solve + " --set steps=3 --set solver.preconditioner_options.resetup=galerkin");
  ASSERT_EQ(kept.exit_code, 0) << kept.err;
  EXPECT_NE(kept.out.find("resetup=galerkin"), std::string::npos) << kept.out;
  // the same count either way
  const auto iterations = [](const std::string& out) {
    const auto at = out.find("\niterations   ");
    return at == std::string::npos ? std::string() : out.substr(at, out.find('\n', at + 1) - at);
  };
  EXPECT_FALSE(iterations(single.out).empty()) << single.out;
  EXPECT_EQ(iterations(single.out), iterations(loop.out));
}

TEST(AmgCli, ReportNamesTheSetupAndEveryLevel) {
  const test::CliRun run = test::run_cli(
      "solve --set matrix.generate.n=12 --set device=cpu --set solver.preconditioner=amg "
      "--set solver.preconditioner_options.max_coarse_rows=100");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("\n             amg: operator_complexity="), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("galerkin_product"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find(", setup "), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("\n             level 0: 1728 rows, 11232 nonzeros, cpu-csr\n"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("(dense inverse)\n"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("\nstatus       converged\n"), std::string::npos) << run.out;
}

TEST(AmgCli, ZeroDiagonalNamesTheOneBasedRow) {
  const std::string path = ::testing::TempDir() + "amg_zero_diagonal.mtx";
  {
    std::ofstream file(path);
    file << "%%MatrixMarket matrix coordinate real general\n3 3 5\n1 1 2\n1 2 -1\n2 1 -1\n"
            "2 3 -1\n3 3 2\n";
  }
  const test::CliRun run = test::run_cli("solve --set matrix.file=" + test::shell_quoted(path) +
                                         " --set device=cpu --set solver.preconditioner=amg");
  std::remove(path.c_str());
  EXPECT_EQ(run.exit_code, 1) << run.out;
  EXPECT_NE(run.err.find("amg: row 2"), std::string::npos) << run.err;
}

}  // namespace
}  // namespace spk
