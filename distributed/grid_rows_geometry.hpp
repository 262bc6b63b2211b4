#pragma once
// GridRowsGeometry: one process's rows [first, end) of a grid operator (spmv/host/
// grid_stencil.hpp: a constant-coefficient block stencil on an n^d grid, Dirichlet boundaries)
// as a plain struct that a kernel takes by value, and the per-row rules that the device
// generator (device_grid_rows.hpp) and its CPU checks share, written once (SPK_HOST_DEVICE):
//
//   for_each_grid_entry(g, row, f)   f(column, value slot) for every stored entry of global row
//                                    `row`, in the order assemble_grid_rows stores them (the
//                                    stencil points sorted by (dz, dy, dx): ascending columns)
//   halo window                      the columns a row block can reach outside its own rows:
//                                    a stencil point moves a grid point p by
//                                    d = dz n^2 + dy n + dx, so row r = p bs + a reaches columns
//                                    (p + d) bs + b, within R = max |d| bs + bs - 1 of r. The
//                                    block's halo columns therefore lie in the window
//                                    [first - R, first) u [end, end + R) (clipped to the grid):
//                                    for a 7-point stencil the plane below and the plane above.
//                                    Window position w numbers it in column order, so marking
//                                    the columns used and scanning the marks gives the halo
//                                    slots already sorted, as the host split numbers them
//                                    (distributed/local_halo_split.hpp), with no sort.
//
// The window is small (2 n^2 positions for a 7-point stencil: 2e6 at n = 1000), so a flag per
// position costs nothing next to the block.
#include <cstdint>
#include <vector>

#include "core/host_device.hpp"
#include "spmv/host/grid_stencil.hpp"

namespace spk {

constexpr int kMaxGridPoints = 27;  // the 3x3x3 neighbourhood: every grid kind's stencil

struct GridRowsGeometry {
  int points = 0;  // stencil points, sorted by (dz, dy, dx)
  int dx[kMaxGridPoints] = {}, dy[kMaxGridPoints] = {}, dz[kMaxGridPoints] = {};
  int block_size = 1;
  std::int64_t n = 0, nz = 1, plane = 0;  // points per axis; planes (1 in 2-D); n^2
  std::int64_t global_rows = 0;
  std::int64_t first = 0, end = 0;  // the block's rows (and its own columns)
  std::int64_t reach = 0;           // R
  std::int64_t below = 0;           // window positions below first: min(R, first)
  std::int64_t above = 0;           // window positions from end: min(R, global_rows - end)

  SPK_HOST_DEVICE std::int64_t window() const { return below + above; }
  SPK_HOST_DEVICE bool own(std::int64_t column) const { return column >= first && column < end; }
  // The window position of a column outside [first, end) that a row of the block reaches.
  SPK_HOST_DEVICE std::int64_t window_position(std::int64_t column) const {
    return column < first ? column - (first - below) : below + (column - end);
  }
  // The column at window position w (the inverse).
  SPK_HOST_DEVICE std::int64_t window_column(std::int64_t w) const {
    return w < below ? first - below + w : end + (w - below);
  }
};

// The geometry of rows [first, end) of `stencil` on an n^dimensions grid (BadInput/NotSupported
// for a stencil the device generator cannot take: more than kMaxGridPoints points, or offsets
// beyond one grid step). Sizes are not checked here (check_grid_block does).
GridRowsGeometry grid_rows_geometry(const GridStencil& stencil, int n, std::int64_t first,
                                    std::int64_t end);

// The stencil's blocks, point by point in the geometry's (sorted) order: point k's block is
// values[k bs^2 .. (k+1) bs^2), row-major (block[a bs + b] couples component a to b).
std::vector<double> grid_point_blocks(const GridStencil& stencil);

// f(column, slot) for each entry of global row `row` in storage order: `slot` indexes
// grid_point_blocks (point k, components a, b: k bs^2 + a bs + b).
template <class Visit>
SPK_HOST_DEVICE void for_each_grid_entry(const GridRowsGeometry& g, std::int64_t row,
                                         Visit&& visit) {
  const int bs = g.block_size;
  const std::int64_t p = row / bs;
  const int a = static_cast<int>(row % bs);
  const std::int64_t x = p % g.n, y = (p / g.n) % g.n, z = p / g.plane;
  for (int k = 0; k < g.points; ++k) {
    const std::int64_t mx = x + g.dx[k], my = y + g.dy[k], mz = z + g.dz[k];
    if (mx < 0 || mx >= g.n || my < 0 || my >= g.n || mz < 0 || mz >= g.nz) continue;
    const std::int64_t neighbour = p + g.dz[k] * g.plane + g.dy[k] * g.n + g.dx[k];
    for (int b = 0; b < bs; ++b) visit(neighbour * bs + b, (k * bs + a) * bs + b);
  }
}

}  // namespace spk
