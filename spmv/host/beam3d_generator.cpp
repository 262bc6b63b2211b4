// The beam3d generator: linear elasticity of a cantilever, trilinear hexahedra (Q1) on a
// uniform mesh (see generators.hpp for the problem, hex8_elasticity.hpp for the element).
//
// The beam is [0, 8] x [0, 1] x [0, 1] in units of the cross-section, h = 1/n: node (i, j, k)
// at h (i, j, k), i = 0 .. 8n, j, k = 0 .. n. The nodes of the face x = 0 are clamped and
// their dofs are eliminated (zero displacement: their columns are dropped, nothing moves to
// the right-hand side). The others are numbered i fastest (from i = 1), then j, then k, with
// the dofs interleaved: row 3 node + c is component c of node `node`.
//
// Every element is the same cube, so one 24 x 24 element stiffness serves all. A row of
// node p is assembled directly: its entry for node q is the sum of K_e[p's local dof][q's
// local dof] over the (up to 8) elements containing both, taken in ascending element order,
// so entry (p, q) and entry (q, p) are the same floating-point sum of the same (symmetric)
// values: the matrix is exactly symmetric. The 27 neighbour offsets are walked in (dk, dj, di)
// order, which is ascending node order: the columns come out sorted.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "spmv/host/generators.hpp"
#include "spmv/host/hex8_elasticity.hpp"

namespace spk {
namespace {

constexpr int beam_length_ratio = 8;  // elements along x per element across
constexpr double youngs_modulus = 1.0;
constexpr double body_force = -1.0;  // gravity: rho g = 1, along -z

// The 6 x 6 isotropic material matrix D, row-major.
std::array<double, 36> isotropic_material(double youngs, double nu) {
  const double lambda = youngs * nu / ((1.0 + nu) * (1.0 - 2.0 * nu));
  const double mu = youngs / (2.0 * (1.0 + nu));
  std::array<double, 36> d{};
  for (int a = 0; a < 3; ++a) {
    for (int b = 0; b < 3; ++b) d[a * 6 + b] = lambda;
    d[a * 6 + a] = lambda + 2.0 * mu;
    d[(a + 3) * 6 + (a + 3)] = mu;
  }
  return d;
}

// The mesh without the clamped plane i = 0: nodes i = 1 .. nx, j, k = 0 .. n.
struct BeamMesh {
  explicit BeamMesh(int elements_across)
      : n(elements_across), nx(std::int64_t{beam_length_ratio} * elements_across), ny(n + 1) {}
  std::int64_t nodes() const { return nx * ny * ny; }
  // Neighbouring node positions along x (i - 1 only if it is not clamped) and across.
  std::int64_t count_x(std::int64_t i) const { return (i > 1) + 1 + (i < nx); }
  std::int64_t count_across(std::int64_t j) const { return (j > 0) + 1 + (j < n); }
  // Stored entries: 9 per pair of neighbouring nodes (a full 3 x 3 block).
  std::int64_t nnz() const {
    const std::int64_t across = 3 * ny - 2;  // sum of count_across over j
    return 9 * (3 * nx - 2) * across * across;
  }
  std::int64_t n, nx, ny;
};

// First element (along one axis) containing both node positions a and b (|a - b| <= 1),
// and one past the last, within the elements 0 .. elements - 1.
void shared_elements(std::int64_t a, std::int64_t b, std::int64_t elements, std::int64_t& first,
                     std::int64_t& end) {
  first = std::max<std::int64_t>(std::max(a, b) - 1, 0);
  end = std::min<std::int64_t>(std::min(a, b), elements - 1) + 1;
}

// The three rows of node (i, j, k): entries from row_offsets[3 node + c].
void fill_node_rows(const BeamMesh& mesh, const Hex8Matrix& ke, std::int64_t node,
                    const std::vector<index_t>& row_offsets, std::vector<index_t>& columns,
                    std::vector<double>& values) {
  const std::int64_t i = node % mesh.nx + 1, j = (node / mesh.nx) % mesh.ny,
                     k = node / (mesh.nx * mesh.ny);
  std::int64_t position[3];
  for (int c = 0; c < 3; ++c) position[c] = row_offsets[3 * node + c];
  for (int dk = -1; dk <= 1; ++dk) {
    const std::int64_t qk = k + dk;
    if (qk < 0 || qk > mesh.n) continue;
    for (int dj = -1; dj <= 1; ++dj) {
      const std::int64_t qj = j + dj;
      if (qj < 0 || qj > mesh.n) continue;
      for (int di = -1; di <= 1; ++di) {
        const std::int64_t qi = i + di;
        if (qi < 1 || qi > mesh.nx) continue;
        const std::int64_t neighbour = (qi - 1) + mesh.nx * (qj + mesh.ny * qk);
        // block(c, d) = sum over the shared elements of K_e[3 local(p) + c][3 local(q) + d]
        double block[9] = {};
        std::int64_t x0, x1, y0, y1, z0, z1;
        shared_elements(i, qi, mesh.nx, x0, x1);
        shared_elements(j, qj, mesh.n, y0, y1);
        shared_elements(k, qk, mesh.n, z0, z1);
        for (std::int64_t ez = z0; ez < z1; ++ez)
          for (std::int64_t ey = y0; ey < y1; ++ey)
            for (std::int64_t ex = x0; ex < x1; ++ex) {
              const auto row_node = static_cast<int>((i - ex) + 2 * (j - ey) + 4 * (k - ez));
              const auto column_node = static_cast<int>((qi - ex) + 2 * (qj - ey) + 4 * (qk - ez));
              for (int c = 0; c < 3; ++c)
                for (int d = 0; d < 3; ++d)
                  block[3 * c + d] += ke[(3 * row_node + c) * hex8_dofs + 3 * column_node + d];
            }
        for (int c = 0; c < 3; ++c)
          for (int d = 0; d < 3; ++d, ++position[c]) {
            columns[position[c]] = static_cast<index_t>(3 * neighbour + d);
            values[position[c]] = block[3 * c + d];
          }
      }
    }
  }
}

}  // namespace

Hex8Matrix hex8_stiffness(double h, double youngs, double poisson_ratio) {
  const std::array<double, 36> d = isotropic_material(youngs, poisson_ratio);
  const double gauss = 1.0 / std::sqrt(3.0);
  const double jacobian = (h / 2.0) * (h / 2.0) * (h / 2.0);  // det dx/dxi, weights 1
  Hex8Matrix ke{};
  for (int point = 0; point < 8; ++point) {
    const double xi[3] = {(point & 1) ? gauss : -gauss, (point & 2) ? gauss : -gauss,
                          (point & 4) ? gauss : -gauss};
    // dN_l/dx_a = (2/h) dN_l/dxi_a, N_l = prod_a (1 + xi_a s_la) / 8, s_la = +-1.
    double gradient[hex8_nodes][3];
    for (int l = 0; l < hex8_nodes; ++l) {
      const double s[3] = {(l & 1) ? 1.0 : -1.0, (l & 2) ? 1.0 : -1.0, (l & 4) ? 1.0 : -1.0};
      for (int a = 0; a < 3; ++a) {
        double product = s[a] / 8.0 * (2.0 / h);
        for (int b = 0; b < 3; ++b)
          if (b != a) product *= 1.0 + xi[b] * s[b];
        gradient[l][a] = product;
      }
    }
    // B: strains (xx, yy, zz, xy, yz, xz) from dof 3 l + c.
    double strain[6][hex8_dofs] = {};
    for (int l = 0; l < hex8_nodes; ++l) {
      const double* g = gradient[l];
      strain[0][3 * l + 0] = g[0];
      strain[1][3 * l + 1] = g[1];
      strain[2][3 * l + 2] = g[2];
      strain[3][3 * l + 0] = g[1];
      strain[3][3 * l + 1] = g[0];
      strain[4][3 * l + 1] = g[2];
      strain[4][3 * l + 2] = g[1];
      strain[5][3 * l + 0] = g[2];
      strain[5][3 * l + 2] = g[0];
    }
    // K_e += |J| B^T D B (upper triangle)
    double stress[6][hex8_dofs];  // D B
    for (int a = 0; a < 6; ++a)
      for (int q = 0; q < hex8_dofs; ++q) {
        double sum = 0.0;
        for (int b = 0; b < 6; ++b) sum += d[a * 6 + b] * strain[b][q];
        stress[a][q] = sum;
      }
    for (int p = 0; p < hex8_dofs; ++p)
      for (int q = p; q < hex8_dofs; ++q) {
        double sum = 0.0;
        for (int a = 0; a < 6; ++a) sum += strain[a][p] * stress[a][q];
        ke[p * hex8_dofs + q] += jacobian * sum;
      }
  }
  for (int p = 0; p < hex8_dofs; ++p)
    for (int q = 0; q < p; ++q) ke[p * hex8_dofs + q] = ke[q * hex8_dofs + p];
  return ke;
}

GeneratedSystem generate_beam3d(int n, double poisson_ratio, bool with_coordinates) {
  if (n < 1) throw BadInput("beam3d: n = " + std::to_string(n) + " must be at least 1");
  if (!(poisson_ratio > 0.0 && poisson_ratio <= 0.45))
    throw BadInput("beam3d: poisson_ratio = " + std::to_string(poisson_ratio) +
                   " must be in (0, 0.45]");
  const std::string name = "beam3d n=" + std::to_string(n);
  // Both sizes grow as n^3: n > ~2000 would overflow even the 64-bit arithmetic below.
  if (n > 100000) throw BadInput(name + ": rows exceed the 32-bit index limit 2147483647");
  const BeamMesh mesh(n);
  check_index_range(3 * mesh.nodes(), name + ": rows");
  check_index_range(mesh.nnz(), name + ": nonzeros");

  const double h = 1.0 / n;
  const Hex8Matrix ke = hex8_stiffness(h, youngs_modulus, poisson_ratio);
  const std::int64_t nodes = mesh.nodes();
  GeneratedSystem system;
  system.block_size = 3;
  CsrMatrix<double>& a = system.matrix;
  a.rows = a.cols = static_cast<index_t>(3 * nodes);
  a.row_offsets.assign(static_cast<std::size_t>(a.rows) + 1, 0);

  // Pass 1: row lengths (3 per neighbouring node, the same for a node's 3 rows), prefix sums.
#pragma omp parallel for schedule(static)
  for (std::int64_t node = 0; node < nodes; ++node) {
    const std::int64_t i = node % mesh.nx + 1, j = (node / mesh.nx) % mesh.ny,
                       k = node / (mesh.nx * mesh.ny);
    const auto length =
        static_cast<index_t>(3 * mesh.count_x(i) * mesh.count_across(j) * mesh.count_across(k));
    for (int c = 0; c < 3; ++c) a.row_offsets[3 * node + c + 1] = length;
  }
  for (index_t row = 0; row < a.rows; ++row) a.row_offsets[row + 1] += a.row_offsets[row];
  a.columns.resize(static_cast<std::size_t>(a.row_offsets[a.rows]));
  a.values.resize(a.columns.size());

  // Pass 2: the entries, node by node.
#pragma omp parallel for schedule(static)
  for (std::int64_t node = 0; node < nodes; ++node)
    fill_node_rows(mesh, ke, node, a.row_offsets, a.columns, a.values);

  // The load: rho g h^3/8 from every element around the node, in z.
  system.load.assign(static_cast<std::size_t>(a.rows), 0.0);
  const double share = body_force * hex8_body_force_share(h);
#pragma omp parallel for schedule(static)
  for (std::int64_t node = 0; node < nodes; ++node) {
    const std::int64_t i = node % mesh.nx + 1, j = (node / mesh.nx) % mesh.ny,
                       k = node / (mesh.nx * mesh.ny);
    const auto elements_at = [](std::int64_t position, std::int64_t last) {
      return (position > 0 ? 1 : 0) + (position < last ? 1 : 0);
    };
    system.load[3 * node + 2] =
        share * elements_at(i, mesh.nx) * elements_at(j, mesh.n) * elements_at(k, mesh.n);
  }

  if (with_coordinates) {
    system.dimension = 3;
    system.coordinates.resize(static_cast<std::size_t>(3 * nodes));
#pragma omp parallel for schedule(static)
    for (std::int64_t node = 0; node < nodes; ++node) {
      system.coordinates[3 * node + 0] = h * static_cast<double>(node % mesh.nx + 1);
      system.coordinates[3 * node + 1] = h * static_cast<double>((node / mesh.nx) % mesh.ny);
      system.coordinates[3 * node + 2] = h * static_cast<double>(node / (mesh.nx * mesh.ny));
    }
  }
  return system;
}

}  // namespace spk
