// The embeddable Solver API on the GPU: device-pointer construction and solves, a caller's
// stream, update_values for every format against the CPU reference, CUDA graphs across
// solves with different vectors, and no device allocation per solve.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "core/cuda_check.hpp"
#include "core/device_buffer.hpp"
#include "spkrylov/solver.hpp"
#include "tests/solver_test_support.hpp"

namespace spk {
namespace {

Options gpu_options(Method method = Method::cg,
                    Preconditioner preconditioner = Preconditioner::none) {
  Options options;
  options.device = Device::gpu;
  options.solver.method = method;
  options.solver.preconditioner = preconditioner;
  options.solver.tolerance = 1e-10;
  return options;
}

std::size_t free_device_bytes() {
  std::size_t free_bytes = 0, total_bytes = 0;
  SPK_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  return free_bytes;
}

TEST(SolverApiGpu, DeviceArraysDeviceVectorsAndACallersStream) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const auto a = test::generated("poisson3d", 16);
  const auto b = test::random_vector(a.rows, 31);
  DeviceBuffer<index_t> offsets(a.row_offsets), columns(a.columns);
  DeviceBuffer<double> values(a.values), b_device(b), x_device(std::vector<double>(b.size(), 0.0));
  cudaStream_t stream = nullptr;
  SPK_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  {
    const CsrArrays<double> arrays{a.rows,         a.cols,        offsets.data(),
                                   columns.data(), values.data(), true};
    Solver<double> solver(arrays, gpu_options(), stream);
    EXPECT_EQ(solver.device(), Device::gpu);
    const auto result = solver.solve(b_device.data(), x_device.data());  // detected: device
    ASSERT_TRUE(result.converged()) << result.message;
    EXPECT_LT(test::true_relative_residual(a, b, x_device.to_host()), 1e-10);
    std::vector<double> x_host(b.size(), 0.0);
    EXPECT_THROW((void)solver.solve(b_device.data(), x_host.data()), BadInput);  // mixed
  }
  SPK_CUDA_CHECK(cudaStreamDestroy(stream));
}

// The updated GPU solver against a CPU solver built fresh from the new matrix: both converge
// within 2 iterations of each other, to the same x, with a small true residual.
void expect_same_solve_as_a_fresh_cpu_solver(Solver<double>& solver, const CsrMatrix<double>& a_new,
                                             const std::vector<double>& b, Options options,
                                             double residual_limit, double difference_limit) {
  options.device = Device::cpu;
  Solver<double> reference(arrays_of(a_new), options);
  std::vector<double> x_gpu(b.size(), 0.0), x_cpu(b.size(), 0.0);
  const auto r_gpu = solver.solve(b, x_gpu);
  const auto r_cpu = reference.solve(b, x_cpu);
  ASSERT_TRUE(r_gpu.converged()) << r_gpu.message;
  ASSERT_TRUE(r_cpu.converged()) << r_cpu.message;
  EXPECT_LE(std::abs(r_gpu.iterations - r_cpu.iterations), 2);
  EXPECT_LT(test::true_relative_residual(a_new, b, x_gpu), residual_limit);
  EXPECT_LT(test::relative_error(x_gpu, x_cpu), difference_limit);
}

TEST(SolverApiGpu, UpdateValuesMatchesTheCpuReferenceForEveryFormat) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const auto a = test::generated("poisson3d", 14);
  const auto b = test::random_vector(a.rows, 32);
  for (const char* format : {"csr-scalar", "csr-vector", "aligned-csr", "ellpack", "ellpack-r",
                             "hyb", "csr-merge", "sell", "cusparse"}) {
    SCOPED_TRACE(format);
    Options options = gpu_options(Method::cg, Preconditioner::jacobi);
    options.spmv.format = parse_format(format);
    Solver<double> solver(arrays_of(a), options);
    std::vector<double> x(b.size(), 0.0);
    ASSERT_TRUE(solver.solve(b, x).converged());
    for (const double factor : {1.25, 3.0}) {
      const auto a_new = test::with_scaled_diagonal(a, factor);
      solver.update_values(a_new.values);
      expect_same_solve_as_a_fresh_cpu_solver(solver, a_new, b, options, 1e-10, 1e-8);
    }
  }
}

TEST(SolverApiGpu, UpdateValuesFromDeviceValuesMatchesTheCpuReference) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const auto a = test::generated("convdiff2d", 40);
  const auto b = test::random_vector(a.rows, 33);
  for (const Format format :
       {Format::csr_scalar, Format::csr_vector, Format::aligned_csr, Format::ellpack,
        Format::ellpack_r, Format::hyb, Format::csr_merge, Format::sell, Format::cusparse}) {
    SCOPED_TRACE(to_string(format));
    Options options = gpu_options(Method::bicgstab, Preconditioner::jacobi);
    options.spmv.format = format;
    Solver<double> solver(arrays_of(a), options);
    auto a_new = a;  // same pattern, fresh random values, a dominant diagonal
    const auto noise = test::random_vector(a.values.size(), 34);
    for (std::size_t k = 0; k < a_new.values.size(); ++k) a_new.values[k] *= 1.0 + 0.5 * noise[k];
    a_new = test::with_scaled_diagonal(a_new, 4.0);
    const DeviceBuffer<double> new_values(a_new.values);
    solver.update_values(new_values.data());
    expect_same_solve_as_a_fresh_cpu_solver(solver, a_new, b, options, 1e-8, 1e-6);
  }
}

// On the GPU update_values is asynchronous: a bad update is reported by the next solve,
// which refuses to run until usable values arrive.
TEST(SolverApiGpu, BadDeviceUpdatesAreReportedByTheNextSolve) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const auto a = test::generated("poisson2d", 12);
  const auto b = test::random_vector(a.rows, 35);
  Solver<double> solver(arrays_of(a), gpu_options(Method::cg, Preconditioner::jacobi));
  std::vector<double> x(b.size(), 0.0);
  auto nan_values = a.values;
  nan_values[7] = std::nan("");
  const DeviceBuffer<double> nan_device(nan_values);
  solver.update_values(nan_device.data());
  try {
    solver.solve(b, x);
    ADD_FAILURE() << "no exception";
  } catch (const BadInput& error) {
    EXPECT_NE(std::string(error.what()).find("non-finite value at entry 7 (0-based)"),
              std::string::npos)
        << error.what();
  }
  EXPECT_THROW(solver.solve(b, x), BadInput);  // still refused
  const auto zero_diagonal = test::with_scaled_diagonal(a, 0.0);
  solver.update_values(zero_diagonal.values);
  try {
    solver.solve(b, x);
    ADD_FAILURE() << "no exception";
  } catch (const BadDiagonal& error) {
    EXPECT_EQ(error.row(), 0);
  }
  solver.update_values(a.values);  // usable again
  std::fill(x.begin(), x.end(), 0.0);
  const auto result = solver.solve(b, x);
  ASSERT_TRUE(result.converged()) << result.message;
  EXPECT_LT(test::true_relative_residual(a, b, x), 1e-9);
}

TEST(SolverApiGpu, GraphReplayFollowsNewVectorsAcrossSolves) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const auto a = test::generated("poisson3d", 12);
  Options options = gpu_options();
  options.solver.cuda_graph = true;
  options.solver.check_every = 4;
  Solver<double> solver(arrays_of(a), options);
  for (unsigned seed = 40; seed < 44; ++seed) {
    const auto b = test::random_vector(a.rows, seed);
    DeviceBuffer<double> b_device(b), x_device(std::vector<double>(b.size(), 0.0));
    const auto result = solver.solve(b_device.data(), x_device.data());
    ASSERT_TRUE(result.converged()) << result.message;
    EXPECT_LT(test::true_relative_residual(a, b, x_device.to_host()), 1e-10) << "seed " << seed;
  }
}

TEST(SolverApiGpu, RepeatedSolvesAllocateNoDeviceMemory) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const auto a = test::generated("poisson3d", 24);
  Solver<double> solver(arrays_of(a), gpu_options(Method::bicgstab, Preconditioner::jacobi));
  std::vector<double> x(a.rows, 0.0);
  const auto b = test::random_vector(a.rows, 50);
  ASSERT_TRUE(solver.solve(b, x).converged());
  solver.update_values(a.values);  // the first host-values update allocates its upload buffer
  const std::size_t before = free_device_bytes();
  for (int step = 0; step < 5; ++step) {
    std::fill(x.begin(), x.end(), 0.0);
    solver.update_values(test::with_scaled_diagonal(a, 1.0 + 0.1 * step).values);
    ASSERT_TRUE(solver.solve(b, x).converged());
  }
  EXPECT_EQ(free_device_bytes(), before);
}

}  // namespace
}  // namespace spk
