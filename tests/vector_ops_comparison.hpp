#pragma once
// solver.vector_ops: fused against cublas on one system, on the CPU or the GPU: both solve the
// same b from x0 = 0; the caller checks the counts, the true residuals and the solutions.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "tests/solver_test_support.hpp"

namespace spk::test {

struct VectorOpsCase {
  const char* label;
  CsrMatrix<double> (*matrix)();
  Preconditioner preconditioner;
  int allowed_difference;  // iterations: 1 on well-conditioned problems, 2% on shared ones
  Method method = Method::cg;
};

struct VectorOpsComparison {
  SolveResult cublas, fused;
  double true_residual_cublas = 0.0, true_residual_fused = 0.0;  // ||b - A x|| / ||b||, fp64
  double solution_difference = 0.0;                              // ||x_f - x_c|| / ||x_c||
  std::vector<double> x_fused;
};

inline VectorOpsComparison compare_vector_ops(const CsrMatrix<double>& a,
                                              Preconditioner preconditioner, Device device,
                                              Method method = Method::cg) {
  const std::vector<double> b = random_vector(static_cast<std::size_t>(a.rows), 17);
  VectorOpsComparison comparison;
  std::vector<double> x_cublas;
  for (const VectorOps ops : {VectorOps::cublas, VectorOps::fused}) {
    Options options;
    options.solver.method = method;
    options.solver.tolerance = 1e-8;
    options.solver.max_iterations = 20000;
    options.solver.preconditioner = preconditioner;
    options.solver.vector_ops = ops;
    options.device = device;
    Solver<double> solver(arrays_of(a), options);
    std::vector<double> x(b.size(), 0.0);
    const SolveResult result = solver.solve(b, x);
    if (ops == VectorOps::cublas) {
      comparison.cublas = result;
      comparison.true_residual_cublas = true_relative_residual(a, b, x);
      x_cublas = x;
    } else {
      comparison.fused = result;
      comparison.true_residual_fused = true_relative_residual(a, b, x);
      comparison.x_fused = x;
    }
  }
  double difference = 0.0, norm = 0.0;
  for (std::size_t i = 0; i < x_cublas.size(); ++i) {
    difference += (comparison.x_fused[i] - x_cublas[i]) * (comparison.x_fused[i] - x_cublas[i]);
    norm += x_cublas[i] * x_cublas[i];
  }
  comparison.solution_difference = std::sqrt(difference / norm);
  return comparison;
}

inline void expect_fused_matches_cublas(const VectorOpsCase& c, Device device) {
  const VectorOpsComparison result =
      compare_vector_ops(c.matrix(), c.preconditioner, device, c.method);
  ASSERT_EQ(result.cublas.status, SolveStatus::converged) << result.cublas.message;
  EXPECT_EQ(result.fused.status, SolveStatus::converged) << result.fused.message;
  EXPECT_NEAR(result.fused.iterations, result.cublas.iterations, c.allowed_difference) << c.label;
  EXPECT_LE(result.true_residual_fused, 1e-8) << c.label;
  EXPECT_LE(result.fused.true_residual, result.fused.threshold) << c.label;
  if (c.allowed_difference <= 1) {
    EXPECT_LT(result.solution_difference, 1e-6) << c.label;
  }
  std::printf("  %s: fused %d iterations, cublas %d\n", c.label, result.fused.iterations,
              result.cublas.iterations);
}

// Two fused solves of the same system give the same bits (fixed-order sums, no atomics).
inline void expect_fused_reproducible(const CsrMatrix<double>& a, Device device,
                                      Method method = Method::cg) {
  const VectorOpsComparison first = compare_vector_ops(a, Preconditioner::jacobi, device, method);
  const VectorOpsComparison second = compare_vector_ops(a, Preconditioner::jacobi, device, method);
  EXPECT_EQ(first.x_fused, second.x_fused);
  EXPECT_EQ(first.fused.iterations, second.fused.iterations);
}

inline CsrMatrix<double> convection_diffusion(int n, double peclet, const char* convection) {
  GeneratorSpec spec;
  spec.kind = "convdiff3d";
  spec.n = n;
  spec.peclet = peclet;
  spec.convection = convection;
  return generate_matrix(spec);
}

inline const std::vector<VectorOpsCase>& vector_ops_cases() {
  static const std::vector<VectorOpsCase> cases = {
      {"poisson3d_16_none", [] { return generated("poisson3d", 16); }, Preconditioner::none, 1},
      {"poisson3d27_10_jacobi", [] { return generated("poisson3d", 10, 27); },
       Preconditioner::jacobi, 1},
      {"elasticity3d_6_jacobi", [] { return generated("elasticity3d", 6); }, Preconditioner::jacobi,
       1},
      {"poisson2d_40_chebyshev", [] { return generated("poisson2d", 40); },
       Preconditioner::chebyshev, 1},
      {"bcsstk13_jacobi", [] { return read_matrix_market(data_path("bcsstk13.mtx")); },
       Preconditioner::jacobi, 31},  // 2% of its ~1500
      // BiCGSTAB (nonsymmetric): none, Jacobi folded, and a preconditioner applied apart
      {"convdiff3d_upwind_12_none", [] { return convection_diffusion(12, 0.5, "upwind"); },
       Preconditioner::none, 1, Method::bicgstab},
      {"convdiff3d_upwind_12_jacobi", [] { return convection_diffusion(12, 0.5, "upwind"); },
       Preconditioner::jacobi, 1, Method::bicgstab},
      {"convdiff3d_central_12_jacobi", [] { return convection_diffusion(12, 0.3, "central"); },
       Preconditioner::jacobi, 1, Method::bicgstab},
      {"convdiff3d_upwind_12_ilu0", [] { return convection_diffusion(12, 0.5, "upwind"); },
       Preconditioner::ilu0, 1, Method::bicgstab},
  };
  return cases;
}

}  // namespace spk::test
