#include "spmv/host/grid_stencil.hpp"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <tuple>

namespace spk {
namespace {

// n^dimensions * block_size; INT64_MAX when even 64 bits overflow (n > ~2 million in 3D).
std::int64_t grid_rows(int dimensions, int block_size, int n) {
  std::int64_t rows = block_size;
  for (int d = 0; d < dimensions; ++d)
    if (__builtin_mul_overflow(rows, std::int64_t{n}, &rows))
      return std::numeric_limits<std::int64_t>::max();
  return rows;
}

}  // namespace

std::int64_t grid_operator_rows(const GridStencil& stencil, int n) {
  return grid_rows(stencil.dimensions, stencil.block_size, n);
}

std::int64_t grid_operator_nnz(const GridStencil& stencil, int n) {
  // An offset d couples prod_k (n - |d_k|) pairs of grid points, each with a full block.
  if (grid_operator_rows(stencil, n) > max_index) return std::numeric_limits<std::int64_t>::max();
  const std::int64_t block_entries = std::int64_t{stencil.block_size} * stencil.block_size;
  std::int64_t nnz = 0;
  for (const StencilPoint& point : stencil.points) {
    std::int64_t pairs = std::max(0, n - std::abs(point.dx));
    pairs *= std::max(0, n - std::abs(point.dy));
    if (stencil.dimensions == 3) pairs *= std::max(0, n - std::abs(point.dz));
    nnz += pairs * block_entries;
  }
  return nnz;
}

CsrMatrix<double> assemble_grid_operator(const GridStencil& stencil, int n,
                                         const std::string& name) {
  if (n < 1) throw BadInput(name + ": n = " + std::to_string(n) + " must be at least 1");
  const std::int64_t rows = grid_operator_rows(stencil, n);
  if (rows == std::numeric_limits<std::int64_t>::max())
    throw BadInput(name + ": rows exceed the 32-bit index limit 2147483647 (and 64 bits)");
  check_index_range(rows, name + ": rows");
  check_index_range(grid_operator_nnz(stencil, n), name + ": nonzeros");

  // Offsets sorted by (dz, dy, dx) give ascending neighbour indices, hence sorted columns.
  std::vector<StencilPoint> points = stencil.points;
  std::sort(points.begin(), points.end(), [](const StencilPoint& a, const StencilPoint& b) {
    return std::tie(a.dz, a.dy, a.dx) < std::tie(b.dz, b.dy, b.dx);
  });
  const int bs = stencil.block_size;
  const std::int64_t nz = stencil.dimensions == 3 ? n : 1;
  const std::int64_t grid_points = std::int64_t{n} * n * nz;
  const std::int64_t plane = std::int64_t{n} * n;
  const auto inside = [](std::int64_t coordinate, int offset, std::int64_t extent) {
    const std::int64_t moved = coordinate + offset;
    return moved >= 0 && moved < extent;
  };

  CsrMatrix<double> matrix;
  matrix.rows = static_cast<index_t>(grid_points * bs);
  matrix.cols = matrix.rows;
  matrix.row_offsets.assign(static_cast<std::size_t>(matrix.rows) + 1, 0);

  // Pass 1: row lengths (every component of a point has the same length).
#pragma omp parallel for schedule(static)
  for (std::int64_t p = 0; p < grid_points; ++p) {
    const std::int64_t x = p % n, y = (p / n) % n, z = p / plane;
    index_t neighbours = 0;
    for (const StencilPoint& point : points)
      if (inside(x, point.dx, n) && inside(y, point.dy, n) && inside(z, point.dz, nz)) ++neighbours;
    for (int a = 0; a < bs; ++a) matrix.row_offsets[p * bs + a + 1] = neighbours * bs;
  }
  for (index_t row = 0; row < matrix.rows; ++row)
    matrix.row_offsets[row + 1] += matrix.row_offsets[row];

  const auto nnz = static_cast<std::size_t>(matrix.row_offsets[matrix.rows]);
  matrix.columns.resize(nnz);
  matrix.values.resize(nnz);

  // Pass 2: columns and values.
#pragma omp parallel for schedule(static)
  for (std::int64_t p = 0; p < grid_points; ++p) {
    const std::int64_t x = p % n, y = (p / n) % n, z = p / plane;
    for (int a = 0; a < bs; ++a) {
      index_t position = matrix.row_offsets[p * bs + a];
      for (const StencilPoint& point : points) {
        if (!(inside(x, point.dx, n) && inside(y, point.dy, n) && inside(z, point.dz, nz)))
          continue;
        const std::int64_t neighbour = p + point.dz * plane + std::int64_t{point.dy} * n + point.dx;
        for (int b = 0; b < bs; ++b, ++position) {
          matrix.columns[position] = static_cast<index_t>(neighbour * bs + b);
          matrix.values[position] = point.block[a * bs + b];
        }
      }
    }
  }
  return matrix;
}

}  // namespace spk
