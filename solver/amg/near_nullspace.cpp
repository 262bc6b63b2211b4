#include "solver/amg/near_nullspace.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>

#include "spkrylov/errors.hpp"

namespace spk {

std::vector<double> rigid_body_modes(const std::vector<double>& coordinates, int dimension) {
  if (dimension != 2 && dimension != 3)
    throw BadInput("rigid_body near-null space: coordinates must be 2-D or 3-D, got dimension " +
                   std::to_string(dimension));
  const auto d = static_cast<std::size_t>(dimension);
  if (coordinates.size() % d != 0)
    throw BadInput("rigid_body near-null space: " + std::to_string(coordinates.size()) +
                   " coordinate values are not a multiple of dimension " +
                   std::to_string(dimension));
  const std::size_t nodes = coordinates.size() / d;
  double centroid[3] = {0.0, 0.0, 0.0};
  for (std::size_t node = 0; node < nodes; ++node)
    for (std::size_t axis = 0; axis < d; ++axis) {
      const double value = coordinates[node * d + axis];
      if (!std::isfinite(value))
        throw BadInput("rigid_body near-null space: non-finite coordinate of node " +
                       std::to_string(node));
      centroid[axis] += value;
    }
  for (std::size_t axis = 0; axis < d; ++axis)
    centroid[axis] /= static_cast<double>(std::max<std::size_t>(nodes, 1));
  const auto k = static_cast<std::size_t>(rigid_body_mode_count(dimension));
  std::vector<double> b(nodes * d * k, 0.0);
  for (std::size_t node = 0; node < nodes; ++node) {
    const double x = coordinates[node * d] - centroid[0];
    const double y = coordinates[node * d + 1] - centroid[1];
    double* const row = b.data() + node * d * k;  // dof a of this node: row[a * k + mode]
    for (std::size_t a = 0; a < d; ++a) row[a * k + a] = 1.0;  // translations
    if (dimension == 2) {                                      // rotation about z: (-y, x)
      row[0 * k + 2] = -y;
      row[1 * k + 2] = x;
      continue;
    }
    const double z = coordinates[node * d + 2] - centroid[2];
    // rotations about x (0, -z, y), y (z, 0, -x) and z (-y, x, 0)
    row[1 * k + 3] = -z;
    row[2 * k + 3] = y;
    row[0 * k + 4] = z;
    row[2 * k + 4] = -x;
    row[0 * k + 5] = -y;
    row[1 * k + 5] = x;
  }
  return b;
}

CsrMatrix<double> nodal_matrix(const CsrMatrix<double>& a, int block_size) {
  if (block_size < 1 || block_size > 6)
    throw BadInput("matrix.block_size: must be 1..6 dofs per node, got " +
                   std::to_string(block_size));
  if (a.rows != a.cols || a.rows % block_size != 0)
    throw BadInput("matrix.block_size: " + std::to_string(a.rows) + " x " + std::to_string(a.cols) +
                   " is not square with a multiple of " + std::to_string(block_size) + " rows");
  const index_t nodes = a.rows / block_size;
  CsrMatrix<double> nodal;
  nodal.rows = nodal.cols = nodes;
  nodal.row_offsets.assign(static_cast<std::size_t>(nodes) + 1, 0);
  std::vector<double> squares(static_cast<std::size_t>(nodes), 0.0);  // per neighbour node
  std::vector<index_t> seen(static_cast<std::size_t>(nodes), -1);     // node I that saw J
  std::vector<index_t> neighbours;
  for (index_t node = 0; node < nodes; ++node) {
    neighbours.clear();
    for (index_t row = node * block_size; row < (node + 1) * block_size; ++row)
      for (index_t k = a.row_offsets[row]; k < a.row_offsets[row + 1]; ++k) {
        const index_t other = a.columns[k] / block_size;
        if (seen[static_cast<std::size_t>(other)] != node) {
          seen[static_cast<std::size_t>(other)] = node;
          squares[static_cast<std::size_t>(other)] = 0.0;
          neighbours.push_back(other);
        }
        squares[static_cast<std::size_t>(other)] += a.values[k] * a.values[k];
      }
    std::sort(neighbours.begin(), neighbours.end());
    for (const index_t other : neighbours) {
      nodal.columns.push_back(other);
      nodal.values.push_back(std::sqrt(squares[static_cast<std::size_t>(other)]));
    }
    nodal.row_offsets[static_cast<std::size_t>(node) + 1] =
        static_cast<index_t>(nodal.columns.size());
  }
  return nodal;
}

}  // namespace spk
