#pragma once
// GridStencil: a constant-coefficient (block) stencil on a regular n^d grid, and its
// assembly into CSR with homogeneous Dirichlet boundaries (neighbours outside the grid are
// dropped). Used by the PDE generators (spmv/host/generators.hpp).
#include <cstdint>
#include <string>
#include <vector>

#include "spmv/host/csr_matrix.hpp"

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

// Rows and nonzeros the assembly will produce, in 64 bits (no range check); INT64_MAX when
// they do not even fit 64 bits, or (nonzeros) when the rows exceed the 32-bit range.
std::int64_t grid_operator_rows(const GridStencil& stencil, int n);
std::int64_t grid_operator_nnz(const GridStencil& stencil, int n);

}  // namespace spk
