// BiCGSTAB restarts after a breakdown on the GPU (solver.breakdown_restarts): the restart runs
// between check blocks, so a captured CUDA graph and the fused vector ops see it as a residual
// replacement. Rounding decides where a breakdown falls, so the GPU's are not the CPU's
// (tests/cpu/test_breakdown_restarts.cpp): on an H100 these systems break down far earlier
// (convdiff2d central Pe 10 n 40: at iteration 87, the CPU at 1469) and more often, needing 5
// to 11 restarts to converge where the CPU needs 1 or 2. The test allows 30 and asks that
// every solve that broke down without restarts converges with them, by its true residual, and
// that a breakdown is reported after the last restart.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "tests/solver_test_support.hpp"

namespace spk {
namespace {

CsrMatrix<double> central_convection_diffusion(double peclet, int n) {
  GeneratorSpec spec;
  spec.kind = "convdiff2d";
  spec.n = n;
  spec.peclet = peclet;
  spec.convection = "central";
  return generate_matrix(spec);
}

SolveResult solve_bicgstab(const CsrMatrix<double>& a, const std::vector<double>& b,
                           std::vector<double>& x, int restarts, VectorOps ops, bool graph) {
  Options options;
  options.device = Device::gpu;
  options.solver.method = Method::bicgstab;
  options.solver.max_iterations = 20000;
  options.solver.breakdown_restarts = restarts;
  options.solver.vector_ops = ops;
  options.solver.cuda_graph = graph;
  options.spmv.tune_cache = "off";
  Solver<double> solver(arrays_of(a), options);
  x.assign(b.size(), 0.0);
  return solver.solve(b, x);
}

TEST(BreakdownRestartsGpu, RestartsRecoverFromBreakdowns) {
  SPK_REQUIRE_GPU_OR_SKIP();
  int broke_down = 0;
  for (const auto& [peclet, n] : {std::pair{20.0, 16}, std::pair{20.0, 24}, std::pair{10.0, 40}}) {
    const CsrMatrix<double> a = central_convection_diffusion(peclet, n);
    const std::vector<double> b(static_cast<std::size_t>(a.rows), 1.0);
    for (const VectorOps ops : {VectorOps::cublas, VectorOps::fused})
      for (const bool graph : {false, true}) {
        SCOPED_TRACE("Pe " + std::to_string(peclet) + " n " + std::to_string(n) + " " +
                     to_string(ops) + (graph ? " graph" : ""));
        std::vector<double> x;
        const SolveResult stopped = solve_bicgstab(a, b, x, 0, ops, graph);
        EXPECT_EQ(stopped.breakdown_restarts, 0);
        if (stopped.status != SolveStatus::breakdown) continue;
        ++broke_down;
        const SolveResult restarted = solve_bicgstab(a, b, x, 30, ops, graph);
        ASSERT_EQ(restarted.status, SolveStatus::converged) << restarted.message;
        EXPECT_GE(restarted.breakdown_restarts, 1);
        EXPECT_LE(test::true_relative_residual(a, b, x), 1e-8);
        EXPECT_GT(restarted.iterations, stopped.iterations);
      }
  }
  EXPECT_GT(broke_down, 0) << "no case broke down without restarts: pick others";
}

TEST(BreakdownRestartsGpu, ABreakdownAfterTheLastRestartIsReported) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const CsrMatrix<double> a = central_convection_diffusion(50.0, 16);
  const std::vector<double> b(static_cast<std::size_t>(a.rows), 1.0);
  std::vector<double> x;
  const SolveResult result = solve_bicgstab(a, b, x, 1, VectorOps::cublas, true);
  if (result.status == SolveStatus::converged) {
    EXPECT_LE(test::true_relative_residual(a, b, x), 1e-8);
    return;
  }
  EXPECT_EQ(result.status, SolveStatus::breakdown) << result.message;
  EXPECT_EQ(result.breakdown_restarts, 1);
  EXPECT_GT(test::true_relative_residual(a, b, x), 1e-8);
}

}  // namespace
}  // namespace spk
