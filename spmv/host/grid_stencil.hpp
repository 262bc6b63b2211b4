#pragma once
// GridStencil: a constant-coefficient (block) stencil on a regular n^d grid, and its
// assembly into CSR with homogeneous Dirichlet boundaries (neighbours outside the grid are
// dropped). Used by the PDE generators (spmv/host/generators.hpp).
#include <cstdint>
#include <string>
#include <vector>

#include "spmv/host/csr_matrix.hpp"
#include "spmv/host/row_block.hpp"

namespace spk {

struct StencilPoint {
  int dx = 0, dy = 0, dz = 0;
  std::vector<double> block;  // block_size x block_size, row-major: block[a*bs + b] couples
                              // component a of this point to component b of the neighbour
};

struct GridStencil {
  int dimensions = 3;  // 2 (dz must be 0) or 3
  int block_size = 1;  // unknowns per grid point
  std::vector<StencilPoint> points;

  void add(int dx, int dy, int dz, std::vector<double> block) {
    points.push_back({dx, dy, dz, std::move(block)});
  }
};

// Assembles the operator on an n^dimensions grid. `name` prefixes size errors (BadInput when
// rows or nnz exceed the 32-bit index range, checked before allocating).
CsrMatrix<double> assemble_grid_operator(const GridStencil& stencil, int n,
                                         const std::string& name);

// Rows [first_row, end_row) of the same operator with global (64-bit) column indices: only
// those rows are built, so the whole grid may have more than 2^31 rows (BadInput when the
// block's own rows or nonzeros exceed 32 bits, or the range is not within the grid).
RowBlock<double> assemble_grid_rows(const GridStencil& stencil, int n, std::int64_t first_row,
                                    std::int64_t end_row, const std::string& name);

// BadInput when rows [first_row, end_row) of the operator have more rows or nonzeros than a
// 32-bit index holds (one process's block: its CSR offsets), naming the block, the count and
// the remedy (more processes); computed in closed form, before anything is allocated. The
// range must lie within the grid. assemble_grid_rows and the device generator
// (distributed/device_grid_rows.hpp) call it.
void check_grid_block(const GridStencil& stencil, int n, std::int64_t first_row,
                      std::int64_t end_row, const std::string& name);

// Stored entries in the rows before `row` (0 <= row <= rows), in O(stencil points) arithmetic:
// nothing is built. What a nonzero-balanced partition of the rows needs (distributed/).
std::int64_t grid_entries_before(const GridStencil& stencil, int n, std::int64_t row);

// Rows and nonzeros the assembly will produce, in 64 bits (no range check); INT64_MAX when
// they do not even fit 64 bits, or (nonzeros) when the rows exceed the 32-bit range.
std::int64_t grid_operator_rows(const GridStencil& stencil, int n);
std::int64_t grid_operator_nnz(const GridStencil& stencil, int n);

}  // namespace spk
