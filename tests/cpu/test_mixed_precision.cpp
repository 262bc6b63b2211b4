// Precision mixed (spmv.matrix_values single) on the CPU path: fp32 matrix values under an
// fp64 solver. The products are fp64, the final true residual meets the fp64 tolerance
// through refinement (residual replacement with the fp64 operator), values that do not fit
// fp32 are refused by name, and a system fp32 cannot represent ends `stagnated`, never
// `converged`.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "spkrylov/errors.hpp"
#include "spmv/host/fp32_values.hpp"
#include "spmv/host/matrix_market.hpp"
#include "spmv/host/reference_spmv.hpp"
#include "tests/solver_test_support.hpp"

namespace spk {
namespace {

using test::generated;
using test::true_relative_residual;

CsrMatrix<double> one_row(std::vector<double> values) {
  CsrMatrix<double> a;
  a.rows = 1;
  a.cols = static_cast<index_t>(values.size());
  a.row_offsets = {0, a.cols};
  for (index_t c = 0; c < a.cols; ++c) a.columns.push_back(c);
  a.values = std::move(values);
  return a;
}

SolveResult solve_cpu(const CsrMatrix<double>& a, const std::vector<double>& b,
                      std::vector<double>& x, SolverOptions options, MatrixValues values) {
  SpmvOptions spmv;
  spmv.matrix_values = values;
  Solver<double> solver(arrays_of(a), Options{options, spmv, Device::cpu});
  return solver.solve(b, x);
}

TEST(MixedPrecisionCpu, ProductsOfFp32ValuesAreSummedInFp64) {
  // [1, 2^-24] x [1, 1]: both values are exact in fp32, their fp32 sum rounds to 1; in fp64
  // it is 1 + 2^-24.
  const CsrMatrix<double> a = one_row({1.0, std::ldexp(1.0, -24)});
  const HostFp32ValuesOperator op(a);
  const std::vector<double> x = {1.0, 1.0};
  std::vector<double> y = {std::nan("")};
  op.apply(x.data(), y.data());
  EXPECT_EQ(y[0], 1.0 + std::ldexp(1.0, -24));
  EXPECT_EQ(op.name(), "cpu-csr/fp32-values");
}

TEST(MixedPrecisionCpu, ValuesAreRoundedToFp32) {
  const CsrMatrix<double> a = one_row({0.1, -1.0 / 3.0, 0.0});
  const std::vector<float> rounded = fp32_values(a);
  ASSERT_EQ(rounded.size(), 3u);
  EXPECT_EQ(rounded[0], 0.1f);
  EXPECT_EQ(rounded[1], static_cast<float>(-1.0 / 3.0));
  EXPECT_EQ(rounded[2], 0.0f);
}

TEST(MixedPrecisionCpu, ValuesOutsideFp32AreRefusedByRowAndColumn) {
  EXPECT_TRUE(fits_fp32(0.0));
  EXPECT_TRUE(fits_fp32(3.0e38));
  EXPECT_TRUE(fits_fp32(-1.2e-38));
  EXPECT_TRUE(fits_fp32(std::nan("")));
  EXPECT_FALSE(fits_fp32(3.5e38));
  EXPECT_FALSE(fits_fp32(-1e-39));
  try {
    (void)fp32_values(one_row({1.0, 2.0, 1e39}));
    FAIL() << "1e39 accepted";
  } catch (const BadInput& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("1e+39 at row 1, column 3 overflows fp32"), std::string::npos)
        << message;
    EXPECT_NE(message.find("precision: double"), std::string::npos) << message;
  }
  try {
    (void)fp32_values(one_row({1e-40}));
    FAIL() << "1e-40 accepted";
  } catch (const BadInput& error) {
    EXPECT_NE(std::string(error.what()).find("below fp32's normal range"), std::string::npos)
        << error.what();
  }
  // Through the solver: refused at setup, nothing solved.
  CsrMatrix<double> a = generated("poisson2d", 4);
  a.values[1] = -1e40;
  SpmvOptions spmv;
  spmv.matrix_values = MatrixValues::single;
  EXPECT_THROW(Solver<double>(arrays_of(a), Options{SolverOptions{}, spmv, Device::cpu}), BadInput);
}

TEST(MixedPrecisionCpu, SingleSolverRefusesFp32Values) {
  const auto a = convert_values<float>(generated("poisson2d", 4));
  SpmvOptions spmv;
  spmv.matrix_values = MatrixValues::single;
  try {
    Solver<float> solver(arrays_of(a), Options{SolverOptions{}, spmv, Device::cpu});
    FAIL() << "accepted";
  } catch (const BadInput& error) {
    EXPECT_NE(std::string(error.what()).find("already fp32"), std::string::npos) << error.what();
  }
}

// Systems whose values are not exact in fp32: the true residual (fp64 matrix) meets the
// tolerance, and x agrees with the fp64 solve.
void expect_mixed_meets_double(const CsrMatrix<double>& a, Method method,
                               Preconditioner preconditioner, double tolerance) {
  const auto b = test::random_vector(a.rows, 11);
  SolverOptions options;
  options.method = method;
  options.preconditioner = preconditioner;
  options.tolerance = tolerance;
  options.max_iterations = 50000;
  std::vector<double> x_double(a.rows, 0.0), x_mixed(a.rows, 0.0);
  const SolveResult fp64 = solve_cpu(a, b, x_double, options, MatrixValues::solver);
  const SolveResult mixed = solve_cpu(a, b, x_mixed, options, MatrixValues::single);
  ASSERT_EQ(fp64.status, SolveStatus::converged) << fp64.message;
  ASSERT_EQ(mixed.status, SolveStatus::converged) << mixed.message;
  EXPECT_LE(true_relative_residual(a, b, x_mixed), tolerance);
  EXPECT_NEAR(mixed.relative_true_residual, true_relative_residual(a, b, x_mixed),
              1e-3 * tolerance);
  // Both answers are within the tolerance of the same x; the iteration counts are close.
  EXPECT_LE(mixed.iterations, 2 * fp64.iterations + 20);
}

TEST(MixedPrecisionCpu, PoissonWithARandomDiagonalShiftMeetsTheFp64Tolerance) {
  expect_mixed_meets_double(test::with_random_diagonal_shift(generated("poisson3d", 16), 0.5, 3),
                            Method::cg, Preconditioner::none, 1e-10);
}

TEST(MixedPrecisionCpu, ElasticityMeetsTheFp64Tolerance) {
  expect_mixed_meets_double(generated("elasticity3d", 6), Method::cg, Preconditioner::jacobi, 1e-8);
}

TEST(MixedPrecisionCpu, Bcsstk13NeedsRefinementAndMeetsTheFp64Tolerance) {
  // cond ~ 1e10: the fp32 values alone cannot give 1e-8; refinement with the fp64 residual
  // does (or the solve says it cannot: never a false `converged`).
  const auto a = read_matrix_market(test::data_path("bcsstk13.mtx"));
  const std::vector<double> b(a.rows, 1.0);
  SolverOptions options;
  options.preconditioner = Preconditioner::jacobi;
  options.max_iterations = 20000;
  std::vector<double> x(a.rows, 0.0);
  const SolveResult mixed = solve_cpu(a, b, x, options, MatrixValues::single);
  if (mixed.status == SolveStatus::converged) {
    EXPECT_LE(true_relative_residual(a, b, x), 1e-8);
    EXPECT_GE(mixed.residual_replacements, 1);
  } else {
    EXPECT_EQ(mixed.status, SolveStatus::stagnated) << mixed.message;
    EXPECT_NE(mixed.message.find("fp32"), std::string::npos) << mixed.message;
  }
}

TEST(MixedPrecisionCpu, BicgstabMeetsTheFp64Tolerance) {
  GeneratorSpec spec;
  spec.kind = "convdiff3d";
  spec.n = 12;
  spec.peclet = 0.5;
  expect_mixed_meets_double(test::with_random_diagonal_shift(generate_matrix(spec), 0.3, 5),
                            Method::bicgstab, Preconditioner::jacobi, 1e-10);
}

TEST(MixedPrecisionCpu, AMatrixFp32CannotHoldIsNeverConverged) {
  // [[1, 1 - 1e-9], [1 - 1e-9, 1]] is SPD in fp64 (cond 2e9) and singular in fp32 (the
  // off-diagonal rounds to 1).
  CsrMatrix<double> a;
  a.rows = a.cols = 2;
  a.row_offsets = {0, 2, 4};
  a.columns = {0, 1, 0, 1};
  a.values = {1.0, 1.0 - 1e-9, 1.0 - 1e-9, 1.0};
  const std::vector<double> b = {1.0, -1.0};
  std::vector<double> x(2, 0.0);
  SolverOptions options;
  options.tolerance = 1e-12;
  const SolveResult mixed = solve_cpu(a, b, x, options, MatrixValues::single);
  if (mixed.status == SolveStatus::converged)
    EXPECT_LE(true_relative_residual(a, b, x), 1e-12);
  else
    EXPECT_NE(mixed.status, SolveStatus::running);
  EXPECT_TRUE(std::isfinite(mixed.relative_true_residual) ||
              mixed.status == SolveStatus::non_finite);
}

TEST(MixedPrecisionCpu, UpdateValuesRoundsTheNewValues) {
  auto a = test::with_random_diagonal_shift(generated("poisson2d", 12), 0.5, 9);
  const auto b = test::random_vector(a.rows, 4);
  SpmvOptions spmv;
  spmv.matrix_values = MatrixValues::single;
  SolverOptions options;
  options.tolerance = 1e-10;
  Solver<double> solver(arrays_of(a), Options{options, spmv, Device::cpu});
  for (double& value : a.values) value *= 1.7;
  solver.update_values(a.values);
  std::vector<double> x(a.rows, 0.0);
  const SolveResult result = solver.solve(b, x);
  ASSERT_EQ(result.status, SolveStatus::converged) << result.message;
  EXPECT_LE(true_relative_residual(a, b, x), 1e-10);
  // A value past fp32's range is refused and the solver keeps the previous values.
  std::vector<double> bad = a.values;
  bad[0] = 1e39;
  EXPECT_THROW(solver.update_values(bad), BadInput);
  std::fill(x.begin(), x.end(), 0.0);
  EXPECT_EQ(solver.solve(b, x).status, SolveStatus::converged);
  EXPECT_LE(true_relative_residual(a, b, x), 1e-10);
}

}  // namespace
}  // namespace spk
