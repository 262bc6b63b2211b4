// rigid_body_modes and nodal_matrix (solver/amg/near_nullspace.hpp), and the setup pipeline of
// AMG for systems they feed on the CPU: nodal matrix -> strength -> MIS(2) aggregates of nodes
// -> fit_candidates with the 6 rigid-body modes, on the elasticity3d generator.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "solver/amg/aggregation.hpp"
#include "solver/amg/candidate_fit.hpp"
#include "solver/amg/near_nullspace.hpp"
#include "solver/amg/strength.hpp"
#include "spkrylov/errors.hpp"
#include "tests/solver_test_support.hpp"

namespace spk {
namespace {

// Grid coordinates of an n^3 grid, x fastest.
std::vector<double> grid_coordinates(int n, double shift) {
  std::vector<double> coordinates;
  for (int z = 0; z < n; ++z)
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x)
        coordinates.insert(coordinates.end(), {x + shift, y + 0.5 * shift, z - shift});
  return coordinates;
}

// Each mode moves the body rigidly: for every pair of nodes the relative displacement is
// perpendicular to the segment joining them ((u_i - u_j) . (p_i - p_j) = 0); each rotation
// sums to zero over the nodes (centred on the centroid); the translations are unit vectors.
TEST(NearNullspace, RigidBodyModesAreRigidMotionsAboutTheCentroid) {
  for (const int dimension : {2, 3}) {
    SCOPED_TRACE("dimension " + std::to_string(dimension));
    std::vector<double> coordinates = grid_coordinates(3, 1000.0);  // far from the origin
    if (dimension == 2) {                                           // drop z
      std::vector<double> planar;
      for (std::size_t node = 0; node < coordinates.size() / 3; ++node)
        planar.insert(planar.end(), {coordinates[3 * node], coordinates[3 * node + 1]});
      coordinates = planar;
    }
    const auto d = static_cast<std::size_t>(dimension);
    const auto k = static_cast<std::size_t>(rigid_body_mode_count(dimension));
    const std::vector<double> b = rigid_body_modes(coordinates, dimension);
    const std::size_t nodes = coordinates.size() / d;
    ASSERT_EQ(b.size(), nodes * d * k);
    const auto u = [&](std::size_t node, std::size_t axis, std::size_t mode) {
      return b[(node * d + axis) * k + mode];
    };
    for (std::size_t mode = 0; mode < k; ++mode) {
      double largest = 0.0;
      for (std::size_t i = 0; i < nodes; ++i)
        for (std::size_t j = 0; j < nodes; ++j) {
          double dot = 0.0;
          for (std::size_t axis = 0; axis < d; ++axis)
            dot += (u(i, axis, mode) - u(j, axis, mode)) *
                   (coordinates[i * d + axis] - coordinates[j * d + axis]);
          largest = std::max(largest, std::abs(dot));
        }
      EXPECT_LT(largest, 1e-9) << "mode " << mode;
      if (mode < d) {
        for (std::size_t axis = 0; axis < d; ++axis)
          EXPECT_EQ(u(0, axis, mode), axis == mode ? 1.0 : 0.0);
      } else {
        for (std::size_t axis = 0; axis < d; ++axis) {
          double sum = 0.0;
          for (std::size_t node = 0; node < nodes; ++node) sum += u(node, axis, mode);
          EXPECT_LT(std::abs(sum), 1e-9) << "mode " << mode << " is not centred";
        }
      }
    }
  }
}

TEST(NearNullspace, BadCoordinatesAreRefusedNamingTheNode) {
  EXPECT_THROW(rigid_body_modes(std::vector<double>(8), 4), BadInput);
  EXPECT_THROW(rigid_body_modes(std::vector<double>(7), 3), BadInput);
  std::vector<double> coordinates(9, 1.0);
  coordinates[4] = std::nan("");
  try {
    rigid_body_modes(coordinates, 3);
    FAIL() << "a NaN coordinate was accepted";
  } catch (const BadInput& error) {
    EXPECT_NE(std::string(error.what()).find("node 1"), std::string::npos) << error.what();
  }
}

TEST(NearNullspace, NodalMatrixHoldsTheFrobeniusNormOfEachBlock) {
  // 2 nodes of 2 dofs: A = [1 2 0 0; 3 4 0 5; 0 0 6 0; 0 7 0 8]
  CsrMatrix<double> a;
  a.rows = a.cols = 4;
  a.row_offsets = {0, 2, 5, 6, 8};
  a.columns = {0, 1, 0, 1, 3, 2, 1, 3};
  a.values = {1, 2, 3, 4, 5, 6, 7, 8};
  const CsrMatrix<double> nodal = nodal_matrix(a, 2);
  EXPECT_EQ(nodal.rows, 2);
  EXPECT_EQ(nodal.row_offsets, (std::vector<index_t>{0, 2, 4}));
  EXPECT_EQ(nodal.columns, (std::vector<index_t>{0, 1, 0, 1}));
  EXPECT_DOUBLE_EQ(nodal.values[0], std::sqrt(1.0 + 4 + 9 + 16));
  EXPECT_DOUBLE_EQ(nodal.values[1], 5.0);
  EXPECT_DOUBLE_EQ(nodal.values[2], 7.0);
  EXPECT_DOUBLE_EQ(nodal.values[3], 10.0);     // sqrt(36 + 64)
  EXPECT_THROW(nodal_matrix(a, 3), BadInput);  // 4 rows are not whole nodes of 3
  EXPECT_THROW(nodal_matrix(a, 7), BadInput);
}

TEST(NearNullspace, ElasticityPipelineGivesNodalAggregatesAndAnExactFit) {
  const int n = 6;
  const CsrMatrix<double> a = test::generated("elasticity3d", n);  // 3 dofs a node
  const CsrMatrix<double> nodal = nodal_matrix(a, 3);
  ASSERT_EQ(nodal.rows, n * n * n);
  for (index_t node = 0; node < nodal.rows; ++node) {  // the 27-point node graph
    const index_t length = nodal.row_offsets[node + 1] - nodal.row_offsets[node];
    EXPECT_GE(length, 8);
    EXPECT_LE(length, 27);
  }
  const Aggregates aggregates = aggregate_mis2(strength_graph(nodal, 0.0));
  ASSERT_GT(aggregates.count, 1);
  const std::vector<double> b = rigid_body_modes(grid_coordinates(n, 0.0), 3);
  const CandidateFit fit = fit_candidates(aggregates, 3, b, 6);
  EXPECT_EQ(fit.matrix.rows, a.rows);
  EXPECT_EQ(fit.matrix.cols, aggregates.count * 6);
  // T B_c = B: the coarse space holds every rigid-body mode exactly.
  double largest = 0.0;
  for (index_t row = 0; row < fit.matrix.rows; ++row)
    for (int c = 0; c < 6; ++c) {
      double sum = 0.0;
      for (index_t e = fit.matrix.row_offsets[row]; e < fit.matrix.row_offsets[row + 1]; ++e)
        sum += fit.matrix.values[e] *
               fit.coarse_candidates[static_cast<std::size_t>(fit.matrix.columns[e]) * 6 + c];
      largest = std::max(largest, std::abs(sum - b[static_cast<std::size_t>(row) * 6 + c]));
    }
  EXPECT_LT(largest, 1e-12);
  // MIS(2) aggregates of a 3-D grid hold many non-collinear nodes: full rank everywhere.
  EXPECT_EQ(fit.dependent_columns, 0) << aggregates.count << " aggregates";
}

}  // namespace
}  // namespace spk
