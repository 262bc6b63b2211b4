// The heat3d example's model: the matrix is SPD-like (symmetric, diagonally dominant) with
// a fixed pattern and time-dependent values, and a reused Solver (update_values) gives the
// same steps as a fresh Solver per step.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "heat_problem.hpp"
#include "heat_simulation.hpp"
#include "tests/cli_test_support.hpp"

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

// The example's output: the device line comes before the table (not between the header
// and the first row).
TEST(Heat3d, PrintsTheDeviceBeforeTheTable) {
  const std::string output = ::testing::TempDir() + "heat3d_" + std::to_string(getpid()) + ".out";
  const std::string command = "'" + spk::test::program_path("heat3d", SPK_HEAT3D_PATH) +
                              "' --n 6 --steps 2 --device cpu > '" + output + "' 2>&1";
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
  std::ifstream file(output);
  std::vector<std::string> lines;
  for (std::string line; std::getline(file, line);) lines.push_back(line);
  std::remove(output.c_str());
  ASSERT_GE(lines.size(), 5u);
  EXPECT_EQ(lines[0].rfind("heat3d n=6 (216 unknowns)", 0), 0u) << lines[0];
  EXPECT_EQ(lines[1].rfind("on CPU (", 0), 0u) << lines[1];
  EXPECT_EQ(lines[2].rfind(" step        t  iters status", 0), 0u) << lines[2];
  EXPECT_EQ(lines[3].rfind("    1 ", 0), 0u) << lines[3];
  EXPECT_EQ(lines[4].rfind("    2 ", 0), 0u) << lines[4];
}

}  // namespace
}  // namespace heat3d
