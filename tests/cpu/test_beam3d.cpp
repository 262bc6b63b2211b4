// The beam3d generator (linear elasticity of a clamped 8:1 cantilever on Q1 hexahedra): the
// element against closed forms (rigid-body modes in its null space, the energy of a uniform
// strain), the assembled system's sizes, pattern, exact symmetry, SPD (dense Cholesky), the
// rigid-body modes in the null space of every row away from the clamp, the load and the
// coordinates, and the tip deflection against Timoshenko beam theory.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "solver/amg/near_nullspace.hpp"
#include "spmv/host/generators.hpp"
#include "spmv/host/hex8_elasticity.hpp"
#include "spmv/host/reference_spmv.hpp"
#include "tests/cpu/host_matrix_testing.hpp"

namespace spk {
namespace {

using test::expect_error;

constexpr double nu = 0.3;

std::int64_t beam_rows(int n) {
  return 3LL * 8 * n * (n + 1) * (n + 1);
}

// Node (i, j, k), i >= 1, of the beam with n elements across: its first row.
index_t node_row(int n, int i, int j, int k) {
  return 3 * ((i - 1) + 8 * n * (j + (n + 1) * k));
}

double max_abs(const std::vector<double>& values) {
  double result = 0.0;
  for (double value : values) result = std::max(result, std::abs(value));
  return result;
}

// ---- the element --------------------------------------------------------------------

TEST(Beam3d, ElementStiffnessIsSymmetricWithTheRigidBodyModesInItsNullSpace) {
  const double h = 0.25;
  const Hex8Matrix ke = hex8_stiffness(h, 1.0, nu);
  for (int p = 0; p < hex8_dofs; ++p) {
    EXPECT_GT(ke[p * hex8_dofs + p], 0.0) << "dof " << p;
    for (int q = 0; q < hex8_dofs; ++q)
      ASSERT_EQ(ke[p * hex8_dofs + q], ke[q * hex8_dofs + p]) << p << ", " << q;
  }
  // The 6 rigid-body modes of the element's 8 nodes (off the origin, so the rotations are not
  // centred by accident): K_e B = 0.
  std::vector<double> corners;
  for (int l = 0; l < hex8_nodes; ++l)
    for (int a = 0; a < 3; ++a) corners.push_back(1.0 + h * ((l >> a) & 1));
  const std::vector<double> modes = rigid_body_modes(corners, 3);  // 24 x 6
  ASSERT_EQ(modes.size(), std::size_t{hex8_dofs} * 6);
  for (int mode = 0; mode < 6; ++mode)
    for (int p = 0; p < hex8_dofs; ++p) {
      double sum = 0.0, scale = 0.0;
      for (int q = 0; q < hex8_dofs; ++q) {
        sum += ke[p * hex8_dofs + q] * modes[q * 6 + mode];
        scale += std::abs(ke[p * hex8_dofs + q] * modes[q * 6 + mode]);
      }
      EXPECT_LE(std::abs(sum), 1e-13 * scale) << "mode " << mode << ", dof " << p;
    }
}

TEST(Beam3d, ElementEnergyOfAUniformStrainIsTheMaterialsTimesTheVolume) {
  const double h = 0.5, youngs = 2.0;
  const Hex8Matrix ke = hex8_stiffness(h, youngs, nu);
  const double lambda = youngs * nu / ((1 + nu) * (1 - 2 * nu)), mu = youngs / (2 * (1 + nu));
  // u = (x, 0, 0): e_xx = 1, energy u^T K u = (lambda + 2 mu) h^3. u = (y, x, 0): g_xy = 2,
  // energy mu g^2 h^3 = 4 mu h^3.
  const auto energy = [&](auto displacement) {
    std::vector<double> u(hex8_dofs);
    for (int l = 0; l < hex8_nodes; ++l) {
      const double x = h * (l & 1), y = h * ((l >> 1) & 1);
      displacement(x, y, &u[3 * l]);
    }
    double total = 0.0;
    for (int p = 0; p < hex8_dofs; ++p)
      for (int q = 0; q < hex8_dofs; ++q) total += u[p] * ke[p * hex8_dofs + q] * u[q];
    return total;
  };
  const double volume = h * h * h;
  EXPECT_NEAR(energy([](double x, double, double* u) { u[0] = x; }), (lambda + 2 * mu) * volume,
              1e-14);
  EXPECT_NEAR(energy([](double x, double y, double* u) {
                u[0] = y;
                u[1] = x;
              }),
              4 * mu * volume, 1e-14);
  EXPECT_DOUBLE_EQ(hex8_body_force_share(h), volume / 8);
}

// ---- the assembled system -----------------------------------------------------------

TEST(Beam3d, SizesPatternAndNonzeroCounts) {
  for (int n : {1, 2, 3, 16}) {
    const GeneratedSystem system = generate_beam3d(n, nu, false);
    const CsrMatrix<double>& a = system.matrix;
    test::expect_valid_csr(a);
    ASSERT_EQ(a.rows, beam_rows(n)) << "n = " << n;
    EXPECT_EQ(a.cols, a.rows);
    EXPECT_EQ(a.nnz(), 9LL * (24 * n - 2) * (3 * n + 1) * (3 * n + 1)) << "n = " << n;
    EXPECT_EQ(system.block_size, 3);
    EXPECT_EQ(system.dimension, 0);
    EXPECT_TRUE(system.coordinates.empty());
    // Rows of a node next to the clamp lose the clamped neighbours: a corner node at i = 1
    // keeps 2 x 2 x 2 nodes, an interior one 27 (81 entries).
    EXPECT_EQ(a.row_length(node_row(n, 1, 0, 0)), 3 * 8);
    if (n >= 2) {
      EXPECT_EQ(a.row_length(node_row(n, 2, 1, 1)), 81);
      EXPECT_EQ(a.row_length(node_row(n, 1, 1, 1)), 3 * 18);
    }
    EXPECT_EQ(a.row_length(node_row(n, 8 * n, n, n)), 3 * 8);  // the far corner
  }
  EXPECT_EQ(beam_rows(16), 110976);  // the 111k beam
  EXPECT_EQ(beam_rows(48), 2765952);
}

TEST(Beam3d, MatrixIsExactlySymmetricAndPositiveDefinite) {
  for (int n : {1, 2}) {
    const CsrMatrix<double> a = generate_beam3d(n, nu, false).matrix;
    const std::vector<double> dense = test::to_dense(a);
    const index_t rows = a.rows;
    for (index_t i = 0; i < rows; ++i)
      for (index_t j = 0; j < i; ++j)
        ASSERT_EQ(dense[i * rows + j], dense[j * rows + i]) << "(" << i << ", " << j << ")";
    // Dense Cholesky: every pivot positive.
    std::vector<double> l = dense;
    for (index_t j = 0; j < rows; ++j) {
      double pivot = l[j * rows + j];
      for (index_t k = 0; k < j; ++k) pivot -= l[j * rows + k] * l[j * rows + k];
      ASSERT_GT(pivot, 0.0) << "n = " << n << ", pivot " << j;
      l[j * rows + j] = std::sqrt(pivot);
      for (index_t i = j + 1; i < rows; ++i) {
        double sum = l[i * rows + j];
        for (index_t k = 0; k < j; ++k) sum -= l[i * rows + k] * l[j * rows + k];
        l[i * rows + j] = sum / l[j * rows + j];
      }
    }
  }
  // Larger: symmetric entry by entry through the sorted rows.
  const CsrMatrix<double> a = generate_beam3d(6, 0.45, false).matrix;
  for (index_t row = 0; row < a.rows; ++row)
    for (index_t k = a.row_offsets[row]; k < a.row_offsets[row + 1]; ++k) {
      const index_t column = a.columns[k];
      const auto begin = a.columns.begin() + a.row_offsets[column];
      const auto end = a.columns.begin() + a.row_offsets[column + 1];
      const auto found = std::lower_bound(begin, end, row);
      ASSERT_TRUE(found != end && *found == row) << "(" << row << ", " << column << ")";
      ASSERT_EQ(a.values[found - a.columns.begin()], a.values[k]) << row << ", " << column;
    }
}

// A rigid-body motion strains nothing: A B = 0 in every row whose node's neighbours are all
// unknowns (i >= 2); the rows next to the clamp miss their clamped neighbours' share, so there
// the translations leave residuals (the row sums of the x-dofs are not 0).
TEST(Beam3d, RigidBodyModesAreInTheNullSpaceAwayFromTheClamp) {
  const int n = 3;
  const GeneratedSystem system = generate_beam3d(n, nu, true);
  const CsrMatrix<double>& a = system.matrix;
  ASSERT_EQ(system.dimension, 3);
  const std::vector<double> modes = rigid_body_modes(system.coordinates, 3);
  const double scale = max_abs(a.values);
  for (int mode = 0; mode < 6; ++mode) {
    std::vector<double> b(a.rows), product(a.rows);
    for (index_t row = 0; row < a.rows; ++row) b[row] = modes[row * 6 + mode];
    reference_spmv(a, b.data(), product.data());
    double clamp_residual = 0.0;
    for (index_t row = 0; row < a.rows; ++row) {
      const int i = (row / 3) % (8 * n) + 1;
      if (i >= 2)
        ASSERT_LE(std::abs(product[row]), 1e-12 * scale * max_abs(b)) << "mode " << mode;
      else
        clamp_residual = std::max(clamp_residual, std::abs(product[row]));
    }
    EXPECT_GT(clamp_residual, 1e-3 * scale * max_abs(b)) << "mode " << mode;
  }
}

TEST(Beam3d, LoadIsGravityAndCoordinatesAreTheUnclampedNodes) {
  const int n = 4;
  const GeneratedSystem system = generate_beam3d(n, nu, true);
  const double h = 1.0 / n;
  ASSERT_EQ(system.load.size(), static_cast<std::size_t>(system.matrix.rows));
  // A unit body force along -z over the volume 8, less the clamped face's share (h/2).
  double sum_z = 0.0, other = 0.0;
  for (std::size_t row = 0; row < system.load.size(); ++row) {
    if (row % 3 == 2)
      sum_z += system.load[row];
    else
      other += std::abs(system.load[row]);
  }
  EXPECT_NEAR(sum_z, -(8.0 - h / 2), 1e-12);
  EXPECT_EQ(other, 0.0);
  // An interior node carries 8 elements' shares, h^3.
  EXPECT_DOUBLE_EQ(system.load[node_row(n, 2, 1, 1) + 2], -h * h * h);

  ASSERT_EQ(system.coordinates.size(), static_cast<std::size_t>(system.matrix.rows));
  const auto coordinate = [&](int i, int j, int k, int axis) {
    return system.coordinates[node_row(n, i, j, k) + axis];
  };
  EXPECT_EQ(coordinate(1, 0, 0, 0), h);
  EXPECT_EQ(coordinate(1, 0, 0, 1), 0.0);
  EXPECT_EQ(coordinate(8 * n, n, n, 0), 8.0);
  EXPECT_EQ(coordinate(8 * n, n, n, 1), 1.0);
  EXPECT_EQ(coordinate(8 * n, n, n, 2), 1.0);
  EXPECT_EQ(coordinate(3, 2, 1, 2), h);
  // generate_system gives the same, and generate_matrix the same matrix.
  GeneratorSpec spec;
  spec.kind = "beam3d";
  spec.n = n;
  const GeneratedSystem same = generate_system(spec, true);
  EXPECT_EQ(same.coordinates, system.coordinates);
  EXPECT_EQ(same.load, system.load);
  EXPECT_EQ(generate_matrix(spec).values, system.matrix.values);
}

// The tip deflection under gravity approaches Timoshenko's from below (Q1 elements are too
// stiff in bending on a coarse mesh): 0.64 of it at n = 1, 0.93 at n = 3 (SciPy's spsolve on
// the same assembly, done independently with an element loop).
TEST(Beam3d, TipDeflectionApproachesBeamTheory) {
  const int n = 3;
  const GeneratedSystem system = generate_beam3d(n, nu, true);
  const CsrMatrix<double>& a = system.matrix;
  const std::size_t rows = static_cast<std::size_t>(a.rows);
  // CG on A u = load.
  std::vector<double> u(rows, 0.0), r = system.load, p = r, q(rows);
  double rr = 0.0, bb = 0.0;
  for (double value : r) rr += value * value;
  bb = rr;
  int iterations = 0;
  for (; iterations < 20000 && rr > 1e-24 * bb; ++iterations) {
    reference_spmv(a, p.data(), q.data());
    double pq = 0.0;
    for (std::size_t i = 0; i < rows; ++i) pq += p[i] * q[i];
    const double alpha = rr / pq;
    double next = 0.0;
    for (std::size_t i = 0; i < rows; ++i) {
      u[i] += alpha * p[i];
      r[i] -= alpha * q[i];
      next += r[i] * r[i];
    }
    for (std::size_t i = 0; i < rows; ++i) p[i] = r[i] + next / rr * p[i];
    rr = next;
  }
  ASSERT_LE(rr, 1e-24 * bb) << iterations << " iterations";
  double tip = 0.0;
  int tip_nodes = 0;
  for (std::size_t node = 0; node < rows / 3; ++node)
    if (system.coordinates[3 * node] == 8.0) {
      tip += u[3 * node + 2];
      ++tip_nodes;
    }
  EXPECT_EQ(tip_nodes, (n + 1) * (n + 1));
  tip /= tip_nodes;
  // Timoshenko: q L^4 / (8 E I) + q L^2 / (2 kappa G A), q = 1, L = 8, I = 1/12, kappa = 5/6.
  const double shear_modulus = 1.0 / (2 * (1 + nu));
  const double theory = 4096.0 / (8.0 / 12.0) + 64.0 / (2 * 5.0 / 6.0 * shear_modulus);
  EXPECT_NEAR(-tip / theory, 0.92597, 1e-4);
}

TEST(Beam3d, BadParametersAndSizes) {
  expect_error<BadInput>([] { generate_beam3d(0, nu, false); }, "beam3d: n = 0",
                         "must be at least 1");
  for (double ratio : {0.0, -0.1, 0.46, 0.5, std::nan("")})
    expect_error<BadInput>([&] { generate_beam3d(2, ratio, false); }, "beam3d: poisson_ratio",
                           "must be in (0, 0.45]");
  expect_error<BadInput>([] { generate_beam3d(600, nu, false); }, "beam3d n=600: rows",
                         "exceeds the 32-bit index limit");
  expect_error<BadInput>([] { generate_beam3d(300, nu, false); }, "beam3d n=300: nonzeros",
                         "exceeds the 32-bit index limit");
}

}  // namespace
}  // namespace spk
