// The embeddable Solver API on the CPU path: construction from caller-owned CSR arrays,
// raw-pointer solves, update_values, options and device resolution, and its errors.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/device.hpp"
#include "spkrylov/errors.hpp"
#include "spkrylov/solver.hpp"
#include "tests/solver_test_support.hpp"

namespace spk {
namespace {

Options cpu_options(Method method = Method::cg,
                    Preconditioner preconditioner = Preconditioner::none) {
  Options options;
  options.device = Device::cpu;
  options.solver.method = method;
  options.solver.preconditioner = preconditioner;
  options.solver.tolerance = 1e-10;
  return options;
}

TEST(SolverApi, ArraysAndMatrixConstructionGiveTheSameSolve) {
  const auto a = test::generated("poisson3d", 10);
  const auto b = test::random_vector(a.rows, 3);
  Solver<double> from_arrays(arrays_of(a), cpu_options());
  Solver<double> from_matrix(arrays_of(a), cpu_options());
  std::vector<double> x1(b.size(), 0.0), x2(b.size(), 0.0);
  const auto r1 = from_arrays.solve(b, x1);
  const auto r2 = from_matrix.solve(b, x2);
  ASSERT_TRUE(r1.converged()) << r1.message;
  EXPECT_EQ(r1.iterations, r2.iterations);
  EXPECT_EQ(x1, x2);
  EXPECT_EQ(from_arrays.device(), Device::cpu);
  EXPECT_EQ(from_arrays.nnz(), a.values.size());
  EXPECT_LT(test::true_relative_residual(a, b, x1), 1e-10);
}

TEST(SolverApi, RawHostPointersSolveInPlaceOfTheVectors) {
  const auto a = test::generated("poisson2d", 20);
  const auto b = test::random_vector(a.rows, 4);
  Solver<double> solver(arrays_of(a), cpu_options());
  std::vector<double> x_vector(b.size(), 0.0), x_raw(b.size(), 0.0);
  (void)solver.solve(b, x_vector);
  const auto result = solver.solve(b.data(), x_raw.data());
  ASSERT_TRUE(result.converged()) << result.message;
  EXPECT_EQ(x_vector, x_raw);
}

TEST(SolverApi, UpdateValuesMatchesAFreshSolverWithTheNewValues) {
  for (const auto preconditioner : {Preconditioner::none, Preconditioner::jacobi}) {
    const auto a = test::generated("poisson3d", 9);
    const auto a_new = test::with_scaled_diagonal(a, 1.5);
    const auto b = test::random_vector(a.rows, 5);
    Solver<double> reused(arrays_of(a), cpu_options(Method::cg, preconditioner));
    std::vector<double> x_old(b.size(), 0.0);
    ASSERT_TRUE(reused.solve(b, x_old).converged());
    reused.update_values(a_new.values);
    Solver<double> fresh(arrays_of(a_new), cpu_options(Method::cg, preconditioner));
    std::vector<double> x_reused(b.size(), 0.0), x_fresh(b.size(), 0.0);
    const auto r_reused = reused.solve(b, x_reused);
    const auto r_fresh = fresh.solve(b, x_fresh);
    ASSERT_TRUE(r_reused.converged()) << r_reused.message;
    EXPECT_EQ(r_reused.iterations, r_fresh.iterations);
    EXPECT_EQ(x_reused, x_fresh);
    EXPECT_LT(test::true_relative_residual(a_new, b, x_reused), 1e-10);
    EXPECT_GT(test::true_relative_residual(a, b, x_reused), 1e-3);  // really the new system
  }
}

TEST(SolverApi, UpdateValuesThroughARawPointer) {
  const auto a = test::generated("convdiff2d", 16);
  const auto a_new = test::with_scaled_diagonal(a, 2.0);
  const auto b = test::random_vector(a.rows, 6);
  Solver<double> solver(arrays_of(a), cpu_options(Method::bicgstab));
  solver.update_values(a_new.values.data());
  std::vector<double> x(b.size(), 0.0);
  ASSERT_TRUE(solver.solve(b, x).converged());
  EXPECT_LT(test::true_relative_residual(a_new, b, x), 1e-9);
}

TEST(SolverApi, BadUpdatesAreRefusedAndLeaveTheSolverUsable) {
  const auto a = test::generated("poisson2d", 12);
  const auto b = test::random_vector(a.rows, 7);
  Solver<double> solver(arrays_of(a), cpu_options(Method::cg, Preconditioner::jacobi));
  std::vector<double> short_values(a.values.size() - 1, 1.0);
  EXPECT_THROW(solver.update_values(short_values), BadInput);
  auto nan_values = a.values;
  nan_values[5] = std::nan("");
  EXPECT_THROW(solver.update_values(nan_values), BadInput);
  const auto zero_diagonal = test::with_scaled_diagonal(a, 0.0);
  try {
    solver.update_values(zero_diagonal.values);
    ADD_FAILURE() << "no exception";
  } catch (const BadInput& error) {
    EXPECT_NE(std::string(error.what()).find("row 0 (0-based)"), std::string::npos) << error.what();
  }
  std::vector<double> x(b.size(), 0.0);
  const auto result = solver.solve(b, x);  // still the original system
  ASSERT_TRUE(result.converged()) << result.message;
  EXPECT_LT(test::true_relative_residual(a, b, x), 1e-9);
}

// Every spmv key is checked on every path: the CPU path, which ignores the format, once
// accepted any (format "hbb").
TEST(SolverApi, SpmvOptionsAreCheckedOnTheCpuPathToo) {
  const auto a = test::generated("poisson2d", 4);
  EXPECT_THROW((void)parse_format("hbb"), BadInput);
  Options options = cpu_options();
  options.spmv.format = static_cast<Format>(99);
  EXPECT_THROW(Solver<double>(arrays_of(a), options), BadInput);
  options = cpu_options();
  options.spmv.block_size = 7;
  EXPECT_THROW(Solver<double>(arrays_of(a), options), BadInput);
  options = cpu_options();
  options.spmv.threads_per_row = 3;
  EXPECT_THROW(Solver<double>(arrays_of(a), options), BadInput);
  options = cpu_options();
  options.spmv.cusparse_algorithm = "alg9";
  EXPECT_THROW(Solver<double>(arrays_of(a), options), BadInput);
  EXPECT_NO_THROW(Solver<double>(arrays_of(a), cpu_options()));
}

TEST(SolverApi, BadArraysGetOneLineErrors) {
  const auto a = test::generated("poisson2d", 4);
  auto offsets = a.row_offsets;
  auto columns = a.columns;
  CsrArrays<double> arrays{a.rows, a.cols, offsets.data(), columns.data(), a.values.data(), false};
  columns[3] = a.cols;  // out of range
  EXPECT_THROW(Solver<double>(arrays, cpu_options()), BadInput);
  columns = a.columns;
  std::swap(offsets[2], offsets[3]);  // decreasing
  EXPECT_THROW(Solver<double>(arrays, cpu_options()), BadInput);
  offsets = a.row_offsets;
  arrays.values = nullptr;
  EXPECT_THROW(Solver<double>(arrays, cpu_options()), BadInput);
  arrays.values = a.values.data();
  arrays.cols = a.cols + 1;  // not square
  EXPECT_THROW(Solver<double>(arrays, cpu_options()), BadInput);
}

TEST(SolverApi, DeviceChoiceResolution) {
  EXPECT_EQ(resolve_device(Device::cpu), Device::cpu);
  if (device_available()) {
    EXPECT_EQ(resolve_device(Device::gpu), Device::gpu);
    EXPECT_EQ(resolve_device(Device::automatic), Device::gpu);
  } else {
    EXPECT_THROW((void)resolve_device(Device::gpu), NoDevice);
    EXPECT_EQ(resolve_device(Device::automatic), Device::cpu);
  }
}

TEST(SolverApi, RepeatedSolvesWithNewRightHandSides) {
  const auto a = test::generated("poisson3d", 8);
  Solver<double> solver(arrays_of(a), cpu_options());
  for (unsigned seed = 10; seed < 15; ++seed) {
    const auto b = test::random_vector(a.rows, seed);
    std::vector<double> x(b.size(), 0.0);
    const auto result = solver.solve(b, x);
    ASSERT_TRUE(result.converged()) << result.message;
    EXPECT_LT(test::true_relative_residual(a, b, x), 1e-10);
  }
}

}  // namespace
}  // namespace spk
