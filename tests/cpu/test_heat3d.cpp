// The heat3d example's model: the matrix is SPD-like (symmetric, diagonally dominant) with
// a fixed pattern and time-dependent values, and a reused Solver (update_values) gives the
// same steps as a fresh Solver per step.
#include <gtest/gtest.h>

#include <cmath>

#include "heat_problem.hpp"
#include "heat_simulation.hpp"

namespace heat3d {
namespace {

TEST(Heat3d, MatrixIsSymmetricDiagonallyDominantAndChangesOnlyItsValues) {
  const HeatProblem problem(6, 1e-3, 2e-2);
  const auto& offsets = problem.row_offsets();
  const auto& columns = problem.columns();
  const auto v1 = problem.values_at(0.005), v2 = problem.values_at(0.010);
  ASSERT_EQ(v1.size(), columns.size());
  bool changed = false;
  for (int row = 0; row < problem.rows(); ++row) {
    double diagonal = 0.0, off = 0.0;
    for (int k = offsets[row]; k < offsets[row + 1]; ++k) {
      if (columns[k] == row)
        diagonal = v1[k];
      else
        off += std::abs(v1[k]);
      changed |= v1[k] != v2[k];
      // symmetric: a_ij == a_ji
      const int col = columns[k];
      bool found = false;
      for (int m = offsets[col]; m < offsets[col + 1]; ++m)
        if (columns[m] == row) {
          EXPECT_DOUBLE_EQ(v1[m], v1[k]);
          found = true;
        }
      EXPECT_TRUE(found);
    }
    EXPECT_GT(diagonal, off) << "row " << row;  // 1 + dt A: strictly dominant
  }
  EXPECT_TRUE(changed);
}

TEST(Heat3d, ReusedSolverMatchesAFreshSolverEveryStep) {
  spk::Options options;
  options.device = spk::Device::cpu;
  options.solver.tolerance = 1e-12;
  options.solver.preconditioner = spk::Preconditioner::jacobi;
  const double dt = 1e-3;
  HeatSimulation reused(HeatProblem(10, dt, 20 * dt), dt, options);
  const HeatProblem problem(10, dt, 20 * dt);
  std::vector<double> u(static_cast<std::size_t>(problem.rows()), 0.0);
  for (int step = 1; step <= 4; ++step) {
    const StepReport report = reused.step();
    ASSERT_EQ(report.status, "converged");
    const auto values = problem.values_at(step * dt);
    const spk::CsrArrays<double> matrix{problem.rows(), problem.rows(),
                                        problem.row_offsets().data(), problem.columns().data(),
                                        values.data()};
    spk::Solver<double> fresh(matrix, options);
    const auto b = problem.right_hand_side(u);
    ASSERT_TRUE(fresh.solve(b, u).converged());
    EXPECT_EQ(reused.temperature(), u) << "step " << step;
  }
  double peak = 0.0;
  for (double value : u) peak = std::max(peak, value);
  EXPECT_GT(peak, 0.0);  // the source heats the cube
}

}  // namespace
}  // namespace heat3d
