// Stress tests of the last-block ticket protocol (core/grid_pair_sum.cuh: each block writes its
// partial sums, __threadfence, one atomicAdd on a ticket; the block that draws the last ticket
// adds the partials in block order and re-arms the ticket). compute-sanitizer's racecheck does
// not model that protocol (a fence plus an atomic across blocks), so these tests check what it
// promises directly: on inputs that spread over thousands of blocks, repeated runs give the
// same bits every time, and the sums are right.
//
//   fused CG and BiCGSTAB (solver/device_reductions.cuh: cg_update, bicgstab_update, dot_pair,
//   dot): 2 million unknowns, 40 iterations, six solves from the same start: the iterates and
//   the residual histories are bitwise equal, and match the cuBLAS path's within rounding
//   the SpMV's dot epilogue (spmv/formats/dot_output.cuh): ellpack-r on 4 million rows, the
//   sums of 50 back-to-back apply_dots are bitwise equal, y and the sums are right
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "spkrylov/solver.hpp"
#include "spmv/host/reference_spmv.hpp"
#include "spmv/registry.hpp"
#include "tests/gpu/spmv_test_support.hpp"
#include "tests/solver_test_support.hpp"
#include "tests/vector_ops_comparison.hpp"

namespace spk {
namespace {

struct FixedIterations {
  std::vector<double> x;
  SolveResult result;
};

FixedIterations solve_fixed_iterations(Solver<double>& solver, const std::vector<double>& b) {
  FixedIterations run;
  run.x.assign(b.size(), 0.0);
  run.result = solver.solve(b, run.x);
  return run;
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0);
}

void expect_bitwise_repeatable(const CsrMatrix<double>& a, Method method) {
  Options options;
  options.device = Device::gpu;
  options.solver.method = method;
  options.solver.preconditioner = Preconditioner::jacobi;
  options.solver.vector_ops = VectorOps::fused;
  options.solver.tolerance = 1e-30;  // never met: exactly max_iterations iterations
  options.solver.max_iterations = 40;
  Solver<double> solver(arrays_of(a), options);
  const std::vector<double> b = test::random_vector(static_cast<std::size_t>(a.rows), 11);
  const FixedIterations first = solve_fixed_iterations(solver, b);
  ASSERT_EQ(first.result.iterations, 40) << first.result.message;
  for (int repeat = 0; repeat < 5; ++repeat) {
    const FixedIterations again = solve_fixed_iterations(solver, b);
    EXPECT_TRUE(same_bits(again.x, first.x)) << "solve " << repeat + 2 << " differs";
    EXPECT_TRUE(same_bits(again.result.history.residual, first.result.history.residual))
        << "solve " << repeat + 2 << ": residual history differs";
  }
  // The cuBLAS path sums in another order: the same iterate within rounding.
  options.solver.vector_ops = VectorOps::cublas;
  Solver<double> reference(arrays_of(a), options);
  const FixedIterations cublas = solve_fixed_iterations(reference, b);
  EXPECT_LT(test::relative_error(first.x, cublas.x), 1e-8);
}

TEST(TicketReductions, FusedCgIsBitwiseRepeatableOverThousandsOfBlocks) {
  SPK_REQUIRE_GPU_OR_SKIP();
  expect_bitwise_repeatable(test::generated("poisson3d", 128), Method::cg);  // 2.1M rows
}

TEST(TicketReductions, FusedBicgstabIsBitwiseRepeatableOverThousandsOfBlocks) {
  SPK_REQUIRE_GPU_OR_SKIP();
  expect_bitwise_repeatable(test::convection_diffusion(100, 0.5, "upwind"), Method::bicgstab);
}

TEST(TicketReductions, SpmvDotEpilogueIsBitwiseRepeatableOverThousandsOfBlocks) {
  SPK_REQUIRE_GPU_OR_SKIP();
  test::FreshRandom random;
  std::mt19937_64& rng = random.engine();
  const test::TestStream stream;
  const CsrMatrix<double> a = test::generated("poisson3d", 160);  // 4.1M rows
  SpmvOptions spmv;
  spmv.format = Format::ellpack_r;
  const auto backend = make_spmv_backend(a, spmv, stream.get());
  const auto n = static_cast<std::size_t>(a.rows);
  const std::vector<double> x = test::random_values<double>(n, rng);
  const std::vector<double> w = test::random_values<double>(n, rng);
  DeviceBuffer<double> x_device(x, "stress x"), w_device(w, "stress w"), y_device(n, "stress y");
  const double nan = std::numeric_limits<double>::quiet_NaN();
  DeviceBuffer<double> sums_device(std::vector<double>{nan, nan}, "stress sums");
  std::vector<double> first;
  for (int repeat = 0; repeat < 50; ++repeat) {
    ASSERT_TRUE(backend->apply_dots(x_device.data(), y_device.data(), w_device.data(),
                                    sums_device.data(), 2));
    stream.synchronize();
    const std::vector<double> sums = sums_device.to_host();
    if (repeat == 0) {
      first = sums;
      continue;
    }
    ASSERT_TRUE(same_bits(sums, first)) << "apply_dots " << repeat + 1 << " differs";
  }
  const test::DotsReference reference = test::dots_reference(a, x, w);
  EXPECT_LT(test::relative_error(y_device.to_host(), reference.y), 1e-12);
  EXPECT_LE(std::abs(first[0] - reference.w_y), 1e-12 * reference.w_y_magnitude);
  EXPECT_LE(std::abs(first[1] - reference.y_y), 1e-12 * reference.y_y);
}

}  // namespace
}  // namespace spk
