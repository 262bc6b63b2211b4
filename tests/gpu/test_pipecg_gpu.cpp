// Pipelined CG (solver.method: pipecg) on the GPU: the CPU reference path's counts within a
// couple of iterations with CUDA graphs on and off and any check interval, with every
// preconditioner that runs on one GPU and in two formats; the true residual of every answer;
// a graph replay gives the bits of plain launches; the edge cases of the CPU tests (one row,
// b = 0, an indefinite matrix, the iteration limit) and single precision.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "spkrylov/errors.hpp"
#include "spkrylov/options.hpp"
#include "tests/solver_test_support.hpp"

namespace spk {
namespace {

using test::generated;
using test::solve_on;
using test::true_relative_residual;

SolverOptions pipecg_options(Preconditioner preconditioner = Preconditioner::none) {
  SolverOptions options;
  options.method = Method::pipecg;
  options.preconditioner = preconditioner;
  options.tolerance = 1e-8;
  options.max_iterations = 20000;
  return options;
}

TEST(PipecgGpu, CountsMatchTheCpuWithGraphsOnAndOffAndAnyCheckInterval) {
  SPK_REQUIRE_GPU_OR_SKIP();
  struct Case {
    std::string label;
    CsrMatrix<double> a;
  };
  const Case cases[] = {{"poisson2d 48", generated("poisson2d", 48)},
                        {"poisson3d 24", generated("poisson3d", 24)},
                        {"elasticity3d 8", generated("elasticity3d", 8)}};
  for (const Case& c : cases)
    for (const Preconditioner preconditioner : {Preconditioner::none, Preconditioner::jacobi,
                                                Preconditioner::chebyshev, Preconditioner::amg}) {
      const auto b = test::random_vector(static_cast<std::size_t>(c.a.rows), 5);
      std::vector<double> x_cpu;
      const SolveResult cpu = solve_on(Device::cpu, c.a, b, x_cpu, pipecg_options(preconditioner));
      ASSERT_TRUE(cpu.converged()) << c.label << ": " << cpu.message;
      for (const bool graph : {true, false})
        for (const int every : {1, 16}) {
          SolverOptions options = pipecg_options(preconditioner);
          options.cuda_graph = graph;
          options.check_every = every;
          std::vector<double> x;
          const SolveResult gpu = solve_on(Device::gpu, c.a, b, x, options);
          const std::string label = c.label + " " + to_string(preconditioner) +
                                    (graph ? " graph" : " no graph") + " check_every " +
                                    std::to_string(every);
          ASSERT_TRUE(gpu.converged()) << label << ": " << gpu.message;
          test::expect_counts_close(cpu, gpu, label);
          EXPECT_LE(true_relative_residual(c.a, b, x), 1e-8) << label;
          EXPECT_LE(test::relative_error(x, x_cpu), 1e-5) << label;
        }
    }
}

// The same counts as the GPU's own CG (the iterates of one Krylov space), in two formats.
TEST(PipecgGpu, CountsMatchGpuCgInTwoFormats) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const auto a = generated("poisson3d", 32);
  const std::vector<double> b(a.rows, 1.0);
  for (const char* format : {"csr", "ellpack-r"})
    for (const Preconditioner preconditioner : {Preconditioner::none, Preconditioner::jacobi}) {
      SpmvOptions spmv;
      spmv.format = parse_format(format);
      spmv.tune_cache = "off";
      SolverOptions cg_options = pipecg_options(preconditioner);
      cg_options.method = Method::cg;
      cg_options.vector_ops = VectorOps::fused;
      std::vector<double> x_cg, x_pipe;
      const SolveResult cg = solve_on(Device::gpu, a, b, x_cg, cg_options, spmv);
      const SolveResult pipe =
          solve_on(Device::gpu, a, b, x_pipe, pipecg_options(preconditioner), spmv);
      const std::string label = std::string(format) + " " + to_string(preconditioner);
      ASSERT_TRUE(cg.converged()) << label << ": " << cg.message;
      ASSERT_TRUE(pipe.converged()) << label << ": " << pipe.message;
      EXPECT_LE(std::abs(cg.iterations - pipe.iterations),
                std::max(1, static_cast<int>(std::ceil(0.02 * cg.iterations))))
          << label << ": cg " << cg.iterations << ", pipecg " << pipe.iterations;
      EXPECT_LE(true_relative_residual(a, b, x_pipe), 1e-8) << label;
      std::printf("  poisson3d 32 %s: fused cg %d, pipecg %d\n", label.c_str(), cg.iterations,
                  pipe.iterations);
    }
}

// A replayed graph runs the kernels plain launches run: the same bits.
TEST(PipecgGpu, GraphReplayGivesTheBitsOfPlainLaunches) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const auto a = generated("poisson2d", 40);
  const auto b = test::random_vector(a.rows, 9);
  SolverOptions graph = pipecg_options(Preconditioner::jacobi);
  graph.check_every = 8;
  SolverOptions plain = graph;
  plain.cuda_graph = false;
  std::vector<double> x_graph, x_plain;
  const SolveResult with_graph = solve_on(Device::gpu, a, b, x_graph, graph);
  const SolveResult without = solve_on(Device::gpu, a, b, x_plain, plain);
  ASSERT_TRUE(with_graph.converged()) << with_graph.message;
  EXPECT_EQ(with_graph.iterations, without.iterations);
  EXPECT_EQ(x_graph, x_plain);
}

TEST(PipecgGpu, EdgeCases) {
  SPK_REQUIRE_GPU_OR_SKIP();
  CsrMatrix<double> one;
  one.rows = one.cols = 1;
  one.row_offsets = {0, 1};
  one.columns = {0};
  one.values = {4.0};
  std::vector<double> x;
  auto result = solve_on(Device::gpu, one, {2.0}, x, pipecg_options(Preconditioner::jacobi));
  ASSERT_EQ(result.status, SolveStatus::converged) << result.message;
  EXPECT_NEAR(x[0], 0.5, 1e-14);

  const auto a = generated("poisson2d", 8);
  result = solve_on(Device::gpu, a, std::vector<double>(a.rows, 0.0), x, pipecg_options());
  EXPECT_EQ(result.status, SolveStatus::converged) << result.message;
  EXPECT_EQ(result.iterations, 0);

  CsrMatrix<double> indefinite;
  indefinite.rows = indefinite.cols = 2;
  indefinite.row_offsets = {0, 1, 2};
  indefinite.columns = {0, 1};
  indefinite.values = {1.0, -1.0};
  result = solve_on(Device::gpu, indefinite, {1.0, 1.0}, x, pipecg_options());
  EXPECT_EQ(result.status, SolveStatus::breakdown) << result.message;
  EXPECT_EQ(result.breakdown, BreakdownQuantity::p_ap);
  EXPECT_TRUE(test::all_finite(x));

  SolverOptions limited = pipecg_options();
  limited.max_iterations = 5;
  const auto p3 = generated("poisson3d", 12);
  result = solve_on(Device::gpu, p3, std::vector<double>(p3.rows, 1.0), x, limited);
  EXPECT_EQ(result.status, SolveStatus::max_iterations) << result.message;
  EXPECT_EQ(result.iterations, 5);
}

TEST(PipecgGpu, SinglePrecisionConverges) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const auto a = generated("poisson3d", 16);
  const auto af = convert_values<float>(a);
  const std::vector<float> b(a.rows, 1.0f);
  std::vector<float> x(a.rows, 0.0f);
  SolverOptions options = pipecg_options(Preconditioner::jacobi);
  options.tolerance = 1e-5;
  Solver<float> solver(arrays_of(af), Options{options, SpmvOptions{}, Device::gpu});
  const auto result = solver.solve(b, x);
  ASSERT_TRUE(result.converged()) << result.message;
  EXPECT_LE(true_relative_residual(a, b, x), 2e-5);
}

}  // namespace
}  // namespace spk
