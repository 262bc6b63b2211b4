#include "solver/amg/near_nullspace.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>

#include "core/host_parallel.hpp"
#include "solver/amg/nodal_rules.hpp"
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

NearNullspaceVectors fine_near_nullspace(const AmgOptions& options, index_t rows) {
  const int b = options.block_size;
  if (b < 1 || b > 6)
    throw BadInput("matrix.block_size: must be 1..6 dofs per node, got " + std::to_string(b));
  if (rows % b != 0)
    throw BadInput("matrix.block_size: " + std::to_string(b) + " does not divide the " +
                   std::to_string(rows) + " rows");
  const auto nodes = static_cast<std::size_t>(rows / b);
  NearNullspaceVectors space;
  switch (options.near_nullspace) {
    case NearNullspace::constant:  // kron(ones(nodes), I_b)
      space.count = b;
      space.vectors.assign(nodes * static_cast<std::size_t>(b * b), 0.0);
      for (std::size_t row = 0; row < static_cast<std::size_t>(rows); ++row)
        space.vectors[row * static_cast<std::size_t>(b) + row % static_cast<std::size_t>(b)] = 1.0;
      return space;
    case NearNullspace::rigid_body:
      if (b != 2 && b != 3)
        throw BadInput(
            "preconditioner_options.near_nullspace: rigid_body needs matrix.block_size "
            "2 or 3 (the dimension), got " +
            std::to_string(b));
      if (options.coordinates.size() != nodes * static_cast<std::size_t>(b))
        throw BadInput(
            "matrix.coordinates: " + std::to_string(options.coordinates.size()) + " values for " +
            std::to_string(nodes) + " nodes x " + std::to_string(b) +
            " dimensions (rows / matrix.block_size nodes)" +
            (options.coordinates.empty() ? ": rigid_body needs the node coordinates" : ""));
      space.count = rigid_body_mode_count(b);
      space.vectors = rigid_body_modes(options.coordinates, b);
      return space;
    case NearNullspace::vectors: break;
  }
  const int k = options.near_nullspace_count;
  if (k < 1 || k > 16)
    throw BadInput("preconditioner_options.near_nullspace: 1..16 vectors, got " +
                   std::to_string(k));
  if (options.near_nullspace_vectors.size() !=
      static_cast<std::size_t>(rows) * static_cast<std::size_t>(k))
    throw BadInput("preconditioner_options.near_nullspace: " +
                   std::to_string(options.near_nullspace_vectors.size()) + " values for " +
                   std::to_string(rows) + " rows x " + std::to_string(k) + " vectors");
  for (std::size_t i = 0; i < options.near_nullspace_vectors.size(); ++i)
    if (!std::isfinite(options.near_nullspace_vectors[i]))
      throw BadInput("preconditioner_options.near_nullspace: non-finite value at row " +
                     std::to_string(i / static_cast<std::size_t>(k)) + ", vector " +
                     std::to_string(i % static_cast<std::size_t>(k)));
  space.count = k;
  space.vectors = options.near_nullspace_vectors;
  return space;
}

CsrMatrix<double> nodal_matrix(const CsrMatrix<double>& a, int block_size) {
  if (block_size < 1 || block_size > nodal_rules::max_block_size)
    throw BadInput("matrix.block_size: must be 1.." + std::to_string(nodal_rules::max_block_size) +
                   " dofs per node, got " + std::to_string(block_size));
  if (a.rows != a.cols || a.rows % block_size != 0)
    throw BadInput("matrix.block_size: " + std::to_string(a.rows) + " x " + std::to_string(a.cols) +
                   " is not square with a multiple of " + std::to_string(block_size) + " rows");
  const index_t nodes = a.rows / block_size;
  CsrMatrix<double> nodal;
  nodal.rows = nodal.cols = nodes;
  nodal.row_offsets.assign(static_cast<std::size_t>(nodes) + 1, 0);
#pragma omp parallel for schedule(static) if (a.nnz() >= host_parallel_from)
  for (index_t node = 0; node < nodes; ++node) {  // the size of each nodal row
    index_t count = 0;
    nodal_rules::for_each_nodal_entry(node, block_size, a.row_offsets.data(), a.columns.data(),
                                      nullptr, [&](index_t, double) { ++count; });
    nodal.row_offsets[static_cast<std::size_t>(node) + 1] = count;
  }
  for (index_t node = 0; node < nodes; ++node)
    nodal.row_offsets[static_cast<std::size_t>(node) + 1] +=
        nodal.row_offsets[static_cast<std::size_t>(node)];
  nodal.columns.resize(static_cast<std::size_t>(nodal.row_offsets.back()));
  nodal.values.resize(nodal.columns.size());
#pragma omp parallel for schedule(static) if (a.nnz() >= host_parallel_from)
  for (index_t node = 0; node < nodes; ++node) {
    auto at = static_cast<std::size_t>(nodal.row_offsets[static_cast<std::size_t>(node)]);
    nodal_rules::for_each_nodal_entry(node, block_size, a.row_offsets.data(), a.columns.data(),
                                      a.values.data(), [&](index_t other, double norm) {
                                        nodal.columns[at] = other;
                                        nodal.values[at++] = norm;
                                      });
  }
  return nodal;
}

}  // namespace spk
