// The Chebyshev preconditioner on the GPU: the same bounds and iteration counts as the CPU
// path, through every SpMV format (the polynomial applies the configured backend k times),
// with CUDA graphs, update_values from device values, and a zero pivot.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "core/device_buffer.hpp"
#include "spkrylov/errors.hpp"
#include "spkrylov/options.hpp"
#include "tests/solver_test_support.hpp"

namespace spk {
namespace {

Options chebyshev_options(Device device, Format format, EigenEstimate estimate) {
  Options options;
  options.device = device;
  options.spmv.format = format;
  options.spmv.tune_cache = "off";
  options.solver.preconditioner = Preconditioner::chebyshev;
  options.solver.preconditioner_options.chebyshev.eigen_estimate = estimate;
  return options;
}

double detail_number(const PreconditionerInfo& info, const std::string& key) {
  for (const auto& [name, value] : info.details)
    if (name == key) return std::stod(value);
  ADD_FAILURE() << "no detail " << key;
  return 0.0;
}

TEST(ChebyshevGpu, EveryFormatMatchesTheCpuPath) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const auto a = test::generated("poisson3d", 24);
  const auto b = test::random_vector(a.rows, 21);
  for (const auto estimate : {EigenEstimate::lanczos, EigenEstimate::gershgorin}) {
    Solver<double> cpu(arrays_of(a), chebyshev_options(Device::cpu, Format::csr, estimate));
    std::vector<double> x_cpu(a.rows, 0.0);
    const SolveResult on_cpu = cpu.solve(b, x_cpu);
    ASSERT_TRUE(on_cpu.converged()) << on_cpu.message;
    const double cpu_bound = detail_number(cpu.setup_info().preconditioner, "lambda_max_estimate");
    for (const Format format : all_formats()) {
      SCOPED_TRACE(std::string(to_string(format)) + " " + to_string(estimate));
      Solver<double> gpu(arrays_of(a), chebyshev_options(Device::gpu, format, estimate));
      std::vector<double> x_gpu(a.rows, 0.0);
      const SolveResult on_gpu = gpu.solve(b, x_gpu);
      ASSERT_TRUE(on_gpu.converged()) << on_gpu.message;
      EXPECT_LE(std::abs(on_gpu.iterations - on_cpu.iterations), 1);
      EXPECT_LE(test::true_relative_residual(a, b, x_gpu), 1e-8);
      EXPECT_NEAR(detail_number(gpu.setup_info().preconditioner, "lambda_max_estimate"), cpu_bound,
                  1e-6 * cpu_bound);
    }
  }
}

TEST(ChebyshevGpu, BicgstabOnConvectionDiffusion) {
  SPK_REQUIRE_GPU_OR_SKIP();
  GeneratorSpec spec;
  spec.kind = "convdiff3d";
  spec.n = 20;
  const auto a = generate_matrix(spec);
  const auto b = test::random_vector(a.rows, 22);
  Options options = chebyshev_options(Device::gpu, Format::ellpack_r, EigenEstimate::gershgorin);
  options.solver.method = Method::bicgstab;
  Solver<double> solver(arrays_of(a), options);
  std::vector<double> x(a.rows, 0.0);
  const SolveResult result = solver.solve(b, x);
  ASSERT_TRUE(result.converged()) << result.message;
  EXPECT_LE(test::true_relative_residual(a, b, x), 1e-8);
}

TEST(ChebyshevGpu, UpdateValuesFromDeviceMatchesAFreshSolver) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const auto a = test::generated("poisson3d", 16);
  CsrMatrix<double> scaled = test::with_scaled_diagonal(a, 1.5);
  const auto b = test::random_vector(a.rows, 23);
  const Options options = chebyshev_options(Device::gpu, Format::hyb, EigenEstimate::lanczos);
  Solver<double> updated(arrays_of(a), options);
  const DeviceBuffer<double> device_values(scaled.values, "test values");
  updated.update_values(device_values.data());
  Solver<double> fresh(arrays_of(scaled), options);
  std::vector<double> x_updated(a.rows, 0.0), x_fresh(a.rows, 0.0);
  const SolveResult after = updated.solve(b, x_updated);
  const SolveResult reference = fresh.solve(b, x_fresh);
  ASSERT_TRUE(after.converged()) << after.message;
  EXPECT_EQ(after.iterations, reference.iterations);
  EXPECT_LE(test::true_relative_residual(scaled, b, x_updated), 1e-8);
}

TEST(ChebyshevGpu, ZeroPivotAfterUpdateIsReportedAtTheNextSolve) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const auto a = test::generated("poisson2d", 8);
  CsrMatrix<double> broken = a;
  for (index_t k = broken.row_offsets[9]; k < broken.row_offsets[10]; ++k)
    if (broken.columns[k] == 9) broken.values[k] = 0.0;
  Solver<double> solver(arrays_of(a),
                        chebyshev_options(Device::gpu, Format::csr, EigenEstimate::lanczos));
  const DeviceBuffer<double> device_values(broken.values, "test values");
  solver.update_values(device_values.data());
  const auto b = test::random_vector(a.rows, 24);
  std::vector<double> x(a.rows, 0.0);
  try {
    (void)solver.solve(b, x);
    FAIL() << "expected BadDiagonal";
  } catch (const BadDiagonal& error) {
    EXPECT_EQ(error.row(), 9);
  }
  solver.update_values(a.values.data());  // good values again: solves run
  const SolveResult result = solver.solve(b, x);
  EXPECT_TRUE(result.converged()) << result.message;
}

}  // namespace
}  // namespace spk
