#include "distributed/grid_rows_geometry.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>
#include <tuple>

#include "spkrylov/errors.hpp"

namespace spk {

namespace {

// The stencil's points in storage order (as assemble_grid_rows walks them): by (dz, dy, dx).
std::vector<StencilPoint> sorted_points(const GridStencil& stencil) {
  std::vector<StencilPoint> points = stencil.points;
  std::sort(points.begin(), points.end(), [](const StencilPoint& a, const StencilPoint& b) {
    return std::tie(a.dz, a.dy, a.dx) < std::tie(b.dz, b.dy, b.dx);
  });
  return points;
}

}  // namespace

GridRowsGeometry grid_rows_geometry(const GridStencil& stencil, int n, std::int64_t first,
                                    std::int64_t end) {
  const std::vector<StencilPoint> points = sorted_points(stencil);
  if (points.size() > static_cast<std::size_t>(kMaxGridPoints))
    throw NotSupported("the device generator takes stencils of at most " +
                       std::to_string(kMaxGridPoints) + " points; this one has " +
                       std::to_string(points.size()));
  if (n < 1) throw BadInput("grid rows: n = " + std::to_string(n) + " must be at least 1");
  GridRowsGeometry g;
  g.points = static_cast<int>(points.size());
  g.block_size = stencil.block_size;
  g.n = n;
  g.nz = stencil.dimensions == 3 ? n : 1;
  g.plane = std::int64_t{n} * n;
  g.global_rows = grid_operator_rows(stencil, n);
  if (first < 0 || first > end || end > g.global_rows)
    throw BadInput("grid rows: [" + std::to_string(first) + ", " + std::to_string(end) +
                   ") are not within the " + std::to_string(g.global_rows) + " rows of the grid");
  g.first = first;
  g.end = end;
  std::int64_t farthest = 0;  // max |dz n^2 + dy n + dx|
  for (int k = 0; k < g.points; ++k) {
    const StencilPoint& point = points[static_cast<std::size_t>(k)];
    if (std::abs(point.dx) > 1 || std::abs(point.dy) > 1 || std::abs(point.dz) > 1 ||
        (stencil.dimensions == 2 && point.dz != 0))
      throw NotSupported("the device generator takes stencils within one grid step");
    g.dx[k] = point.dx;
    g.dy[k] = point.dy;
    g.dz[k] = point.dz;
    farthest = std::max(farthest, std::abs(point.dz * g.plane + point.dy * g.n + point.dx));
  }
  g.reach = farthest * g.block_size + g.block_size - 1;
  g.below = std::min(g.reach, first);
  g.above = std::min(g.reach, g.global_rows - end);
  return g;
}

std::vector<double> grid_point_blocks(const GridStencil& stencil) {
  std::vector<double> values;
  const auto block = static_cast<std::size_t>(stencil.block_size) * stencil.block_size;
  for (const StencilPoint& point : sorted_points(stencil)) {
    if (point.block.size() != block)
      throw BadInput("grid stencil: a point's block has " + std::to_string(point.block.size()) +
                     " entries, not block_size^2 = " + std::to_string(block));
    values.insert(values.end(), point.block.begin(), point.block.end());
  }
  return values;
}

}  // namespace spk
