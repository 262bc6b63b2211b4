// The Chebyshev preconditioner (solver/chebyshev.hpp) and its eigenvalue bounds
// (solver/eigen_estimate.hpp) on the CPU path: the polynomial against the closed form of the
// Chebyshev residual polynomial, Lanczos and Gershgorin against known spectra, and PCG.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "solver/chebyshev.hpp"
#include "solver/host_space.hpp"
#include "spkrylov/errors.hpp"
#include "spmv/host/reference_spmv.hpp"
#include "tests/solver_test_support.hpp"

namespace spk {
namespace {

using Dense = std::vector<std::vector<double>>;

Dense dense_of(const CsrMatrix<double>& a) {
  Dense dense(a.rows, std::vector<double>(a.cols, 0.0));
  for (index_t row = 0; row < a.rows; ++row)
    for (index_t k = a.row_offsets[row]; k < a.row_offsets[row + 1]; ++k)
      dense[row][a.columns[k]] += a.values[k];
  return dense;
}

Dense multiply(const Dense& a, const Dense& b) {
  Dense c(a.size(), std::vector<double>(b[0].size(), 0.0));
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t k = 0; k < b.size(); ++k)
      for (std::size_t j = 0; j < b[0].size(); ++j) c[i][j] += a[i][k] * b[k][j];
  return c;
}

Dense identity(std::size_t n) {
  Dense eye(n, std::vector<double>(n, 0.0));
  for (std::size_t i = 0; i < n; ++i) eye[i][i] = 1.0;
  return eye;
}

// A small SPD matrix with an irregular diagonal: 2-D Poisson plus random diagonal shifts.
CsrMatrix<double> shifted_poisson(int n, unsigned seed) {
  CsrMatrix<double> a = test::generated("poisson2d", n);
  const auto shifts = test::random_vector(static_cast<std::size_t>(a.rows), seed);
  for (index_t row = 0; row < a.rows; ++row)
    for (index_t k = a.row_offsets[row]; k < a.row_offsets[row + 1]; ++k)
      if (a.columns[k] == row) a.values[k] += 1.5 * (shifts[row] + 1.0);
  return a;
}

TEST(ChebyshevCpu, PolynomialIsTheScaledChebyshevResidualPolynomial) {
  // I - M A must equal T_k(Y) / T_k(sigma), Y = (theta I - D^-1 A) / delta: the three-term
  // recurrence of the Chebyshev polynomials, independent of the solver's update formulas.
  const CsrMatrix<double> a = shifted_poisson(4, 3);
  const std::size_t n = static_cast<std::size_t>(a.rows);
  const Dense dense = dense_of(a);
  std::vector<double> inverse_diagonal(n);
  for (std::size_t i = 0; i < n; ++i) inverse_diagonal[i] = 1.0 / dense[i][i];
  const double lambda_min = 0.05, lambda_max = 2.3;
  const double theta = 0.5 * (lambda_max + lambda_min), delta = 0.5 * (lambda_max - lambda_min);
  Dense y(n, std::vector<double>(n, 0.0));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      y[i][j] = ((i == j ? theta : 0.0) - inverse_diagonal[i] * dense[i][j]) / delta;

  HostSpace<double> space;
  const HostCsrOperator<double> op(a);
  for (int degree = 1; degree <= 6; ++degree) {
    SCOPED_TRACE(degree);
    ChebyshevPolynomial<HostSpace<double>> polynomial(space, op, inverse_diagonal.data(), degree);
    polynomial.set_bounds(lambda_min, lambda_max);
    // M column by column: M e_j, outputs poisoned first.
    Dense m(n, std::vector<double>(n, 0.0));
    for (std::size_t j = 0; j < n; ++j) {
      std::vector<double> e(n, 0.0), z(n, std::nan(""));
      e[j] = 1.0;
      polynomial.apply(e.data(), z.data(), true);
      for (std::size_t i = 0; i < n; ++i) m[i][j] = z[i];
    }
    // T_k(Y) by T_{j+1} = 2 Y T_j - T_{j-1}; T_k(sigma) likewise on the scalar.
    Dense previous = identity(n), current = y;
    double t_previous = 1.0, t_current = theta / delta;
    for (int k = 1; k < degree; ++k) {
      Dense next = multiply(y, current);
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) next[i][j] = 2.0 * next[i][j] - previous[i][j];
      previous.swap(current);
      current.swap(next);
      const double t_next = 2.0 * (theta / delta) * t_current - t_previous;
      t_previous = t_current;
      t_current = t_next;
    }
    const Dense ma = multiply(m, dense);
    double worst = 0.0;
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j)
        worst = std::max(worst,
                         std::abs(((i == j ? 1.0 : 0.0) - ma[i][j]) - current[i][j] / t_current));
    EXPECT_LT(worst, 1e-12);

    // With an initial guess: x + p(D^-1 A) D^-1 (b - A x) = x + M (b - A x).
    const auto b = test::random_vector(n, 11), x0 = test::random_vector(n, 12);
    std::vector<double> x = x0, ax(n);
    reference_spmv(a, x0.data(), ax.data());
    polynomial.apply(b.data(), x.data(), false);
    for (std::size_t i = 0; i < n; ++i) {
      double expected = x0[i];
      for (std::size_t j = 0; j < n; ++j) expected += m[i][j] * (b[j] - ax[j]);
      EXPECT_NEAR(x[i], expected, 1e-12 * (1.0 + std::abs(expected)));
    }
  }
}

TEST(ChebyshevCpu, TridiagonalLambdaMaxIsExact) {
  // tridiag(-1, 2, -1) of order m: 2 + 2 cos(pi / (m + 1)).
  for (int m : {1, 2, 5, 40}) {
    const std::vector<double> diagonal(m, 2.0), off(m > 0 ? m - 1 : 0, -1.0);
    EXPECT_NEAR(tridiagonal_lambda_max(diagonal, off), 2.0 + 2.0 * std::cos(M_PI / (m + 1)), 1e-12)
        << m;
  }
}

TEST(ChebyshevCpu, LanczosApproachesLambdaMaxFromBelowAndGershgorinBoundsIt) {
  // 2-D Dirichlet Poisson, n x n: lambda_max(D^-1 A) = 1 + cos(pi / (n + 1)).
  const int n = 30;
  const CsrMatrix<double> a = test::generated("poisson2d", n);
  const double exact = 1.0 + std::cos(M_PI / (n + 1));
  HostSpace<double> space;
  const HostCsrOperator<double> op(a);
  const std::vector<double> inverse_diagonal(static_cast<std::size_t>(a.rows), 0.25);
  int steps = 0;
  const double ten = lanczos_lambda_max(space, op, inverse_diagonal.data(), 10, &steps);
  EXPECT_EQ(steps, 10);
  EXPECT_LE(ten, exact + 1e-12);
  EXPECT_GE(ten, 0.95 * exact);
  const double thirty = lanczos_lambda_max(space, op, inverse_diagonal.data(), 30, &steps);
  EXPECT_GE(thirty, ten - 1e-12);
  EXPECT_LE(thirty, exact + 1e-12);
  EXPECT_NEAR(gershgorin_lambda_max(a), 2.0, 1e-15);
  std::vector<index_t> positions(static_cast<std::size_t>(a.rows));
  space.find_diagonal_positions(a.rows, a.row_offsets.data(), a.columns.data(), positions.data());
  EXPECT_NEAR(space.gershgorin_bound(static_cast<std::size_t>(a.rows), a.row_offsets.data(),
                                     a.values.data(), positions.data()),
              2.0, 1e-15);
}

SolveResult solve_with(const CsrMatrix<double>& a, const std::vector<double>& b,
                       std::vector<double>& x, Method method, Preconditioner preconditioner,
                       const ChebyshevOptions& chebyshev = {}) {
  Options options;
  options.device = Device::cpu;
  options.solver.method = method;
  options.solver.preconditioner = preconditioner;
  options.solver.preconditioner_options.chebyshev = chebyshev;
  Solver<double> solver(arrays_of(a), options);
  return solver.solve(b, x);
}

TEST(ChebyshevCpu, PcgNeedsFewerIterationsThanJacobiAndMeetsTheTrueResidual) {
  const CsrMatrix<double> a = test::generated("poisson3d", 20);
  const auto b = test::random_vector(static_cast<std::size_t>(a.rows), 5);
  std::vector<double> x_jacobi(b.size(), 0.0);
  const SolveResult jacobi = solve_with(a, b, x_jacobi, Method::cg, Preconditioner::jacobi);
  ASSERT_TRUE(jacobi.converged()) << jacobi.message;
  for (const auto estimate : {EigenEstimate::lanczos, EigenEstimate::gershgorin}) {
    for (int degree : {2, 3, 5}) {
      SCOPED_TRACE(std::string(to_string(estimate)) + " degree " + std::to_string(degree));
      ChebyshevOptions chebyshev;
      chebyshev.degree = degree;
      chebyshev.eigen_estimate = estimate;
      std::vector<double> x(b.size(), 0.0);
      const SolveResult result =
          solve_with(a, b, x, Method::cg, Preconditioner::chebyshev, chebyshev);
      ASSERT_EQ(result.status, SolveStatus::converged) << result.message;
      EXPECT_LE(test::true_relative_residual(a, b, x), 1e-8);
      // A degree-k polynomial cuts the count by about sqrt(k)..k; at least by 1.3x here.
      EXPECT_LT(1.3 * result.iterations, jacobi.iterations);
    }
  }
}

TEST(ChebyshevCpu, BicgstabOnConvectionDiffusionWithGershgorinBounds) {
  GeneratorSpec spec;
  spec.kind = "convdiff2d";
  spec.n = 32;
  spec.peclet = 1.0;
  const CsrMatrix<double> a = generate_matrix(spec);
  const auto b = test::random_vector(static_cast<std::size_t>(a.rows), 6);
  ChebyshevOptions chebyshev;
  chebyshev.eigen_estimate = EigenEstimate::gershgorin;
  std::vector<double> x(b.size(), 0.0);
  const SolveResult result =
      solve_with(a, b, x, Method::bicgstab, Preconditioner::chebyshev, chebyshev);
  ASSERT_EQ(result.status, SolveStatus::converged) << result.message;
  EXPECT_LE(test::true_relative_residual(a, b, x), 1e-8);
}

TEST(ChebyshevCpu, SetupInfoReportsTheBounds) {
  const CsrMatrix<double> a = test::generated("poisson2d", 12);
  Options options;
  options.device = Device::cpu;
  options.solver.preconditioner = Preconditioner::chebyshev;
  const Solver<double> solver(arrays_of(a), options);
  const PreconditionerInfo& info = solver.setup_info().preconditioner;
  EXPECT_EQ(info.name, "chebyshev");
  ASSERT_FALSE(info.details.empty());
  bool has_estimate = false;
  for (const auto& [key, value] : info.details)
    if (key == "estimate") has_estimate = value.rfind("lanczos", 0) == 0;
  EXPECT_TRUE(has_estimate);
  EXPECT_GE(info.setup_s, 0.0);
}

TEST(ChebyshevCpu, UpdateValuesReestimatesTheBounds) {
  // Values 3 A: the same iterations as a fresh solver built on 3 A.
  const CsrMatrix<double> a = test::generated("poisson3d", 12);
  CsrMatrix<double> scaled = a;
  for (double& value : scaled.values) value *= 3.0;
  const auto b = test::random_vector(static_cast<std::size_t>(a.rows), 7);
  Options options;
  options.device = Device::cpu;
  options.solver.preconditioner = Preconditioner::chebyshev;
  Solver<double> updated(arrays_of(a), options);
  updated.update_values(scaled.values.data());
  std::vector<double> x_updated(b.size(), 0.0), x_fresh(b.size(), 0.0);
  const SolveResult after_update = updated.solve(b, x_updated);
  Solver<double> fresh(arrays_of(scaled), options);
  const SolveResult from_scratch = fresh.solve(b, x_fresh);
  ASSERT_TRUE(after_update.converged()) << after_update.message;
  EXPECT_EQ(after_update.iterations, from_scratch.iterations);
  EXPECT_LE(test::true_relative_residual(scaled, b, x_updated), 1e-8);
}

TEST(ChebyshevCpu, ZeroDiagonalIsBadDiagonalNamingTheRow) {
  CsrMatrix<double> a = test::generated("poisson2d", 4);
  for (index_t k = a.row_offsets[5]; k < a.row_offsets[6]; ++k)
    if (a.columns[k] == 5) a.values[k] = 0.0;
  Options options;
  options.device = Device::cpu;
  options.solver.preconditioner = Preconditioner::chebyshev;
  try {
    Solver<double> solver(arrays_of(a), options);
    FAIL() << "expected BadDiagonal";
  } catch (const BadDiagonal& error) {
    EXPECT_EQ(error.row(), 5);
  }
}

}  // namespace
}  // namespace spk
