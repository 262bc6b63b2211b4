// Systems given by user operators (include/spkrylov/user_operator.hpp) on the CPU path: a
// matrix-free 7-point stencil takes the iterations of the CSR solve of the same matrix, with
// no preconditioner, Jacobi from a user diagonal, and a user M; an operator that throws or
// returns NaN; what a user system refuses.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>
#include <vector>

#include "spkrylov/errors.hpp"
#include "spkrylov/solver.hpp"
#include "tests/solver_test_support.hpp"

namespace spk {
namespace {

// y = A x for the 7-point Laplacian on an n^3 grid (6 on the diagonal, -1 to each face
// neighbour inside the grid), computed from the grid, no matrix stored: generate_poisson3d's.
class Stencil7 final : public UserOperator<double> {
 public:
  explicit Stencil7(int n) : n_(n) {}
  void apply(const double* x, double* y, cudaStream_t stream) override {
    EXPECT_EQ(stream, nullptr);  // the CPU path gives no stream
    ++applications;
    const long n = n_;
    for (long k = 0; k < n; ++k)
      for (long j = 0; j < n; ++j)
        for (long i = 0; i < n; ++i) {
          const long row = (k * n + j) * n + i;
          double sum = 6.0 * x[row];
          if (i > 0) sum -= x[row - 1];
          if (i + 1 < n) sum -= x[row + 1];
          if (j > 0) sum -= x[row - n];
          if (j + 1 < n) sum -= x[row + n];
          if (k > 0) sum -= x[row - n * n];
          if (k + 1 < n) sum -= x[row + n * n];
          y[row] = sum;
        }
  }
  int applications = 0;

 private:
  int n_;
};

// z = s r: a scaled identity (s = 1/6: Jacobi of the stencil), or whatever a test makes it do.
class Scaling final : public UserOperator<double> {
 public:
  explicit Scaling(double scale) : scale_(scale) {}
  void apply(const double* r, double* z, cudaStream_t) override {
    if (throw_now) throw std::runtime_error("the preconditioner's own failure");
    for (std::size_t i = 0; i < rows; ++i) z[i] = scale_ * r[i];
    if (nan_now) z[0] = std::numeric_limits<double>::quiet_NaN();
  }
  std::size_t rows = 0;
  bool throw_now = false, nan_now = false;

 private:
  double scale_;
};

Options cpu_options(Method method, Preconditioner preconditioner = Preconditioner::none) {
  Options options;
  options.device = Device::cpu;
  options.solver.method = method;
  options.solver.preconditioner = preconditioner;
  options.solver.tolerance = 1e-9;
  return options;
}

UserSystem<double> stencil_system(int n) {
  UserSystem<double> system;
  system.rows = n * n * n;
  system.matrix = std::make_shared<Stencil7>(n);
  return system;
}

TEST(UserOperator, MatrixFreeStencilTakesTheCsrSolvesIterations) {
  const int n = 11;
  const auto a = test::generated("poisson3d", n);
  const auto b = test::random_vector(a.rows, 21);
  for (const Method method : {Method::cg, Method::bicgstab, Method::gmres}) {
    for (const Preconditioner kind : {Preconditioner::none, Preconditioner::jacobi}) {
      UserSystem<double> system = stencil_system(n);
      if (kind == Preconditioner::jacobi) system.diagonal.assign(a.rows, 6.0);
      Solver<double> matrix_free(system, cpu_options(method, kind));
      Solver<double> stored(arrays_of(a), cpu_options(method, kind));
      std::vector<double> x_free(b.size(), 0.0), x_stored(b.size(), 0.0);
      const SolveResult free_result = matrix_free.solve(b, x_free);
      const SolveResult stored_result = stored.solve(b, x_stored);
      ASSERT_TRUE(free_result.converged()) << free_result.message;
      EXPECT_EQ(free_result.iterations, stored_result.iterations)
          << to_string(method) << " " << to_string(kind);
      EXPECT_LT(test::true_relative_residual(a, b, x_free), 1e-9);
      EXPECT_EQ(matrix_free.setup_info().operator_name, "user operator");
      EXPECT_EQ(matrix_free.stream(), nullptr);
    }
  }
}

TEST(UserOperator, UserPreconditionerEqualsTheBuiltInJacobi) {
  const int n = 10;
  const auto a = test::generated("poisson3d", n);
  const auto b = test::random_vector(a.rows, 22);
  UserSystem<double> system = stencil_system(n);
  auto jacobi = std::make_shared<Scaling>(1.0 / 6.0);
  jacobi->rows = static_cast<std::size_t>(a.rows);
  system.preconditioner = jacobi;
  Solver<double> user_m(system, cpu_options(Method::cg));
  Solver<double> built_in(arrays_of(a), cpu_options(Method::cg, Preconditioner::jacobi));
  std::vector<double> x_user(b.size(), 0.0), x_built_in(b.size(), 0.0);
  const SolveResult user_result = user_m.solve(b, x_user);
  ASSERT_TRUE(user_result.converged()) << user_result.message;
  EXPECT_EQ(user_result.iterations, built_in.solve(b, x_built_in).iterations);
  EXPECT_LT(test::true_relative_residual(a, b, x_user), 1e-9);
  EXPECT_EQ(user_m.setup_info().preconditioner.name, "user");
}

TEST(UserOperator, AThrowingOperatorIsOneErrorNamingItAndTheSolverStaysUsable) {
  const int n = 8;
  const auto a = test::generated("poisson3d", n);
  const auto b = test::random_vector(a.rows, 23);
  UserSystem<double> system = stencil_system(n);
  auto m = std::make_shared<Scaling>(1.0 / 6.0);
  m->rows = static_cast<std::size_t>(a.rows);
  system.preconditioner = m;
  Solver<double> solver(system, cpu_options(Method::cg));
  std::vector<double> x(b.size(), 0.0);
  m->throw_now = true;
  try {
    (void)solver.solve(b, x);
    FAIL() << "no error";
  } catch (const BadInput& error) {
    EXPECT_STREQ(error.what(), "user operator M: the preconditioner's own failure");
  }
  m->throw_now = false;
  std::fill(x.begin(), x.end(), 0.0);
  const SolveResult again = solver.solve(b, x);
  ASSERT_TRUE(again.converged()) << again.message;
  EXPECT_LT(test::true_relative_residual(a, b, x), 1e-9);
}

TEST(UserOperator, ANonFiniteResultIsNeverConverged) {
  const int n = 8;
  const auto b = test::random_vector(static_cast<std::size_t>(n * n * n), 24);
  UserSystem<double> system = stencil_system(n);
  auto m = std::make_shared<Scaling>(1.0 / 6.0);
  m->rows = b.size();
  m->nan_now = true;
  system.preconditioner = m;
  for (const Method method : {Method::cg, Method::bicgstab, Method::gmres}) {
    Solver<double> solver(system, cpu_options(method));
    std::vector<double> x(b.size(), 0.0);
    const SolveResult result = solver.solve(b, x);
    EXPECT_FALSE(result.converged()) << to_string(method) << ": " << result.message;
    EXPECT_TRUE(result.status == SolveStatus::non_finite || result.status == SolveStatus::breakdown)
        << to_string(method) << ": " << result.message;
  }
}

TEST(UserOperator, WhatAUserSystemCannotTakeIsRefusedByName) {
  const auto expect_refused = [](const UserSystem<double>& system, const Options& options,
                                 const char* words) {
    try {
      Solver<double> solver(system, options);
      ADD_FAILURE() << "accepted; expected: " << words;
    } catch (const Error& error) {
      EXPECT_NE(std::string(error.what()).find(words), std::string::npos) << error.what();
    }
  };
  const UserSystem<double> system = stencil_system(4);
  Options ellpack = cpu_options(Method::cg);
  ellpack.spmv.format = Format::ellpack_r;
  expect_refused(system, ellpack, "spmv.format ellpack-r");
  expect_refused(system, cpu_options(Method::cg, Preconditioner::amg), "solver.preconditioner amg");
  expect_refused(system, cpu_options(Method::cg, Preconditioner::jacobi), "needs diag(A)");
  UserSystem<double> both = system;
  both.diagonal.assign(64, 6.0);
  both.preconditioner = std::make_shared<Scaling>(1.0);
  expect_refused(both, cpu_options(Method::cg, Preconditioner::jacobi), "both given");
  UserSystem<double> no_a;
  no_a.rows = 4;
  expect_refused(no_a, cpu_options(Method::cg), "no operator A");

  Solver<double> solver(system, cpu_options(Method::cg));
  const std::vector<double> values(10, 1.0);
  EXPECT_THROW(solver.update_values(values.data()), NotSupported);
  EXPECT_THROW((void)solver.time_spmv_ms(3), NotSupported);
}

}  // namespace
}  // namespace spk
