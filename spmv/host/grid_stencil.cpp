#include "spmv/host/grid_stencil.hpp"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <tuple>

#include "core/resident_pages.hpp"

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

// The grid as the assembly walks it: points numbered x fastest, then y, then z, and the
// stencil's offsets sorted by (dz, dy, dx), which gives ascending neighbour indices, hence
// sorted columns.
struct GridWalk {
  GridWalk(const GridStencil& stencil, int points_per_axis)
      : points(stencil.points),
        n(points_per_axis),
        nz(stencil.dimensions == 3 ? points_per_axis : 1),
        plane(std::int64_t{points_per_axis} * points_per_axis),
        block_size(stencil.block_size) {
    std::sort(points.begin(), points.end(), [](const StencilPoint& a, const StencilPoint& b) {
      return std::tie(a.dz, a.dy, a.dx) < std::tie(b.dz, b.dy, b.dx);
    });
  }
  // Whether the neighbour of grid point p at `point`'s offset is inside the grid.
  bool has_neighbour(std::int64_t p, const StencilPoint& point) const {
    const auto inside = [](std::int64_t coordinate, int offset, std::int64_t extent) {
      const std::int64_t moved = coordinate + offset;
      return moved >= 0 && moved < extent;
    };
    return inside(p % n, point.dx, n) && inside((p / n) % n, point.dy, n) &&
           inside(p / plane, point.dz, nz);
  }
  index_t neighbours(std::int64_t p) const {
    index_t count = 0;
    for (const StencilPoint& point : points) count += has_neighbour(p, point) ? 1 : 0;
    return count;
  }
  std::int64_t neighbour(std::int64_t p, const StencilPoint& point) const {
    return p + point.dz * plane + std::int64_t{point.dy} * n + point.dx;
  }

  std::vector<StencilPoint> points;
  std::int64_t n, nz, plane;
  int block_size;
};

// Rows [first_row, end_row) of the operator into CSR arrays with `Column` indices (32-bit for
// a whole matrix, 64-bit global ones for a RowBlock). Every component of a grid point has the
// same row length: block_size entries per neighbour.
template <class Column>
void fill_grid_rows(const GridWalk& grid, std::int64_t first_row, std::int64_t end_row,
                    std::vector<index_t>& row_offsets, std::vector<Column>& columns,
                    std::vector<double>& values) {
  const int bs = grid.block_size;
  const std::int64_t rows = end_row - first_row;
  reserve_resident(row_offsets, static_cast<std::size_t>(rows) + 1);  // core/resident_pages.hpp
  row_offsets.assign(static_cast<std::size_t>(rows) + 1, 0);

  // Pass 1: row lengths, then their prefix sums.
#pragma omp parallel for schedule(static)
  for (std::int64_t row = 0; row < rows; ++row)
    row_offsets[row + 1] = grid.neighbours((first_row + row) / bs) * bs;
  for (std::int64_t row = 0; row < rows; ++row) row_offsets[row + 1] += row_offsets[row];

  const auto nnz = static_cast<std::size_t>(row_offsets[rows]);
  reserve_resident(columns, nnz);
  reserve_resident(values, nnz);
  columns.resize(nnz);
  values.resize(nnz);

  // Pass 2: columns and values.
#pragma omp parallel for schedule(static)
  for (std::int64_t row = 0; row < rows; ++row) {
    const std::int64_t p = (first_row + row) / bs;
    const int a = static_cast<int>((first_row + row) % bs);  // component of the point
    index_t position = row_offsets[row];
    for (const StencilPoint& point : grid.points) {
      if (!grid.has_neighbour(p, point)) continue;
      const std::int64_t neighbour = grid.neighbour(p, point);
      for (int b = 0; b < bs; ++b, ++position) {
        columns[position] = static_cast<Column>(neighbour * bs + b);
        values[position] = point.block[a * bs + b];
      }
    }
  }
}

// Grid points q < p (x fastest, then y, then z) inside the box [lo, hi) of each axis.
std::int64_t box_points_before(std::int64_t p, const std::int64_t lo[3], const std::int64_t hi[3],
                               std::int64_t n, std::int64_t plane) {
  const std::int64_t coordinate[3] = {p % n, (p / n) % n, p / plane};
  const auto below = [&](int axis) {  // box coordinates of `axis` less than p's
    return std::clamp(coordinate[axis], lo[axis], hi[axis]) - lo[axis];
  };
  const auto within = [&](int axis) {
    return coordinate[axis] >= lo[axis] && coordinate[axis] < hi[axis];
  };
  const std::int64_t line = hi[0] - lo[0];
  const std::int64_t face = line * (hi[1] - lo[1]);
  std::int64_t count = below(2) * face;  // whole planes below p's
  if (within(2)) count += below(1) * line + (within(1) ? below(0) : 0);
  return count;
}

}  // namespace

std::int64_t grid_operator_rows(const GridStencil& stencil, int n) {
  return grid_rows(stencil.dimensions, stencil.block_size, n);
}

std::int64_t grid_operator_nnz(const GridStencil& stencil, int n) {
  if (grid_operator_rows(stencil, n) > max_index) return std::numeric_limits<std::int64_t>::max();
  return grid_entries_before(stencil, n, grid_operator_rows(stencil, n));
}

std::int64_t grid_entries_before(const GridStencil& stencil, int n, std::int64_t row) {
  const GridWalk grid(stencil, n);
  const std::int64_t bs = stencil.block_size;
  const std::int64_t p = row / bs;
  // Each offset d couples the grid points of a box (those whose neighbour at d is inside),
  // with a full block: bs rows of bs entries per point.
  std::int64_t entries = 0;
  for (const StencilPoint& point : grid.points) {
    const int offsets[3] = {point.dx, point.dy, point.dz};
    const std::int64_t extent[3] = {grid.n, grid.n, grid.nz};
    std::int64_t lo[3], hi[3];
    for (int axis = 0; axis < 3; ++axis) {
      lo[axis] = std::max<std::int64_t>(0, -offsets[axis]);
      hi[axis] = std::max(lo[axis], extent[axis] - std::max(0, offsets[axis]));
    }
    entries += box_points_before(p, lo, hi, grid.n, grid.plane) * bs * bs;
  }
  // The rows of grid point p before `row` (components 0 .. row % bs - 1).
  if (row % bs != 0) entries += (row % bs) * grid.neighbours(p) * bs;
  return entries;
}

CsrMatrix<double> assemble_grid_operator(const GridStencil& stencil, int n,
                                         const std::string& name) {
  if (n < 1) throw BadInput(name + ": n = " + std::to_string(n) + " must be at least 1");
  const std::int64_t rows = grid_operator_rows(stencil, n);
  if (rows == std::numeric_limits<std::int64_t>::max())
    throw BadInput(name + ": rows exceed the 32-bit index limit 2147483647 (and 64 bits)");
  check_index_range(rows, name + ": rows");
  check_index_range(grid_operator_nnz(stencil, n), name + ": nonzeros");

  CsrMatrix<double> matrix;
  matrix.rows = static_cast<index_t>(rows);
  matrix.cols = matrix.rows;
  fill_grid_rows(GridWalk(stencil, n), 0, rows, matrix.row_offsets, matrix.columns, matrix.values);
  return matrix;
}

void check_grid_block(const GridStencil& stencil, int n, std::int64_t first_row,
                      std::int64_t end_row, const std::string& name) {
  // A block's rows and entries are counted in 32 bits (its CSR offsets): refused here, from
  // the closed-form counts, before anything is allocated.
  const std::string block = name + ": the block of rows [" + std::to_string(first_row) + ", " +
                            std::to_string(end_row) + ")";
  const std::string remedy =
      " (one process holds at most 2147483647 rows and entries: use more "
      "processes, e.g. mpirun -np N)";
  const std::int64_t entries =
      grid_entries_before(stencil, n, end_row) - grid_entries_before(stencil, n, first_row);
  if (end_row - first_row > max_index)
    throw BadInput(block + " has " + std::to_string(end_row - first_row) +
                   " rows, more than the 32-bit index limit 2147483647" + remedy);
  if (entries > max_index)
    throw BadInput(block + " has " + std::to_string(entries) +
                   " nonzeros, more than the 32-bit index limit 2147483647" + remedy);
}

RowBlock<double> assemble_grid_rows(const GridStencil& stencil, int n, std::int64_t first_row,
                                    std::int64_t end_row, const std::string& name) {
  if (n < 1) throw BadInput(name + ": n = " + std::to_string(n) + " must be at least 1");
  const std::int64_t rows = grid_operator_rows(stencil, n);
  if (rows == std::numeric_limits<std::int64_t>::max())
    throw BadInput(name + ": rows exceed the 64-bit index range");
  if (rows >
      std::numeric_limits<std::int64_t>::max() /
          (std::int64_t{stencil.block_size} * static_cast<std::int64_t>(stencil.points.size())))
    throw BadInput(name + ": nonzeros exceed the 64-bit index range");
  if (first_row < 0 || first_row > end_row || end_row > rows)
    throw BadInput(name + ": rows [" + std::to_string(first_row) + ", " + std::to_string(end_row) +
                   ") are not within the " + std::to_string(rows) + " rows of the grid");
  check_grid_block(stencil, n, first_row, end_row, name);

  RowBlock<double> block;
  block.global_rows = rows;
  block.first_row = first_row;
  block.rows = static_cast<index_t>(end_row - first_row);
  fill_grid_rows(GridWalk(stencil, n), first_row, end_row, block.row_offsets, block.columns,
                 block.values);
  return block;
}

}  // namespace spk
