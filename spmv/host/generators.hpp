#pragma once
// Built-in matrix generators, sized for benchmarks (poisson3d n=256: 16.7M rows, 117M nnz).
// All build the CSR directly, in parallel, with sorted columns; sizes are checked against
// the 32-bit index range (BadInput) before anything is allocated. Grid unknowns are
// numbered x fastest, then y, then z; boundary conditions are homogeneous Dirichlet
// (neighbours outside the grid are dropped, the diagonal is kept), so boundary rows are
// strictly diagonally dominant.
//
//   poisson2d     5-point Laplacian on an n x n grid: 4 on the diagonal, -1 to the 4
//                 neighbours. SPD. rows n^2, nnz 5n^2 - 4n.
//   poisson3d     on an n x n x n grid, stencil 7: 6 / -1 to the 6 face neighbours,
//                 nnz 7n^3 - 6n^2; stencil 27: 26 / -1 to all 26 neighbours, nnz (3n-2)^3. SPD.
//   convdiff2d/3d -Laplace(u) + w . grad(u) with the flow w along (1,1[,1]), scaled by
//                 h^2/diffusion, with the cell Peclet number Pe = |w_k| h / (2 diffusion)
//                 per axis. For each axis, on top of the Laplacian's 2 / -1 / -1:
//                   upwind  (default): diagonal += 2Pe, upstream neighbour -= 2Pe
//                                      (an M-matrix, diagonally dominant for every Pe)
//                   central:           upstream neighbour -= Pe, downstream += Pe
//                                      (second order; loses diagonal dominance for Pe > 1)
//                 Nonsymmetric for Pe > 0 (Pe = 0 is the Poisson matrix). Same pattern and
//                 nnz as poisson2d / poisson3d 7-point (entries that vanish are kept).
//   elasticity3d  an elasticity-like vector operator, 3 unknowns per grid point, 27-point
//                 block stencil with dense 3x3 blocks (81 nnz in an interior row, nnz
//                 9(3n-2)^3, rows 3n^3). Neighbour at offset d has block -w_d C with
//                 w_d = 2^(1-|d|^2) (faces 1, edges 1/2, corners 1/4) and the component
//                 coupling C = [1 c c; c 1 c; c c 1], c = 1/4. The point's own block has
//                 W(1+4c) = 2W on the diagonal and -cW off it, W = sum of w_d = 14.
//                 That is A = L_w (x) C + 2cW I (x) (3I - J): L_w (the weighted 27-point
//                 Laplacian with Dirichlet boundaries) and C are SPD and 3I - J is PSD, so A
//                 is SPD; every interior row is exactly weakly diagonally dominant and
//                 boundary rows strictly. All values are dyadic, so row sums are exact.
//   powerlaw      n x n, nonsymmetric, heavy-tailed row lengths: row i has 1 + k_i entries,
//                 k_i = min(floor(X), n-1) with X Pareto: P(X > x) = (x_min/x)^exponent
//                 (exponent > 1; smaller = heavier tail, <= 2 has unbounded variance up to
//                 the cap n-1). x_min is solved so that E[1 + k] = avg_row_length. The k_i
//                 off-diagonal columns are distinct and uniform, values uniform in [-1, 1),
//                 and the diagonal is 1 + sum |off-diagonal| (strictly diagonally dominant).
//                 Row i uses its own random stream of `seed`, so the matrix is identical
//                 for any thread count.
//   rmat          the graph Laplacian plus identity, L + I (L = D - A), of an undirected R-MAT
//                 graph (Chakrabarti, Zhan & Faloutsos, SDM 2004) with the Graph500
//                 parameters a, b, c, d = 0.57, 0.19, 0.19, 0.05: 2^scale vertices (rows),
//                 edge_factor * 2^scale edges drawn, self-loops dropped, duplicates (either
//                 direction) merged into one edge of weight 1. Off-diagonals -1, diagonal
//                 degree + 1: symmetric, SPD, strictly diagonally dominant, integer values.
//                 Vertex ids are randomly permuted (as Graph500 does), so the heavy rows are
//                 spread over the matrix and columns have no locality. Skewed: with scale 21
//                 and edge factor 16 the mean row is ~26 entries and the longest ~10^5.
//                 Edges come from fixed streams of `seed` (rmat_generator.cpp): the same
//                 matrix for any thread count.
//   circuit       an n x n circuit-like conductance matrix G + I (circuit_generator.cpp): a
//                 netlist with locality, node i coupled to i+1 and, with probability 1/2, to
//                 one node in i+2 .. i+64, plus dense_rows power/ground nets, each a random
//                 hub node coupled to every other node with probability dense_fraction (a
//                 dense row and column of ~dense_fraction n entries). Conductances uniform in
//                 [0.1, 1), off-diagonals -conductance, diagonal 1 + the row's conductances:
//                 symmetric, SPD, strictly diagonally dominant. Most rows have 2-6 entries
//                 (mean ~4 + 2 dense_rows dense_fraction). Same matrix for any thread count.
//                 rmat and circuit rows sum to 1 (A ones = ones): b = ones is a trivial
//                 right-hand side for them.
//   beam3d        linear elasticity of a cantilever (beam3d_generator.cpp): the beam
//                 [0, 8] x [0, 1] x [0, 1], n trilinear hexahedra (Q1, hex8_elasticity.hpp)
//                 across each side of the cross-section and 8n along it, isotropic, Young's
//                 modulus 1, Poisson's ratio `poisson_ratio` (0 < nu <= 0.45), 2x2x2 Gauss
//                 quadrature. Clamped at x = 0: those nodes' dofs are eliminated (not kept as
//                 identity rows), so rows 3 * 8n (n+1)^2 (n = 16: 110,976; n = 48: 2,765,952)
//                 with 3 dofs a node interleaved (x, y, z of node 0, then node 1, ...), nodes
//                 numbered x fastest, then y, then z. 81 entries in an interior row, nnz
//                 9 (24n - 2)(3n + 1)^2. Symmetric (exactly), SPD; not an M-matrix. Its load
//                 (rhs: load) is gravity, a unit body force along -z, as consistent nodal
//                 loads; its coordinates are the unclamped nodes' (h i, h j, h k), h = 1/n.
//
// The grid kinds' coordinates (generate_system) are their grid points, h (i+1, j+1[, k+1]) with
// h = 1/(n+1), one node per block_size unknowns.
//
// Bad parameters (n < 1, stencil not 7/27, peclet < 0 or not finite, unknown convection,
// avg_row_length outside [1, n], exponent <= 1, rmat scale outside [0, 30] or edge_factor
// < 1, circuit dense_rows outside [0, n] or dense_fraction outside [0, 1], beam3d poisson_ratio
// outside (0, 0.45], unknown kind) throw
// BadInput naming the generator and the parameter.
#include <cstdint>
#include <optional>
#include <vector>

#include "spmv/host/csr_matrix.hpp"
#include "spmv/host/generator_spec.hpp"
#include "spmv/host/grid_stencil.hpp"

namespace spk {

enum class ConvectionScheme { upwind, central };

// A generated system: the matrix and what its generator knows besides it.
struct GeneratedSystem {
  CsrMatrix<double> matrix;
  int block_size = 1;               // unknowns per node, interleaved (generator_block_size)
  int dimension = 0;                // coordinates per node; 0: no coordinates
  std::vector<double> coordinates;  // nodes x dimension, row-major, nodes = rows / block_size
  std::vector<double> load;         // the generator's own right-hand side; empty: none
};

CsrMatrix<double> generate_matrix(const GeneratorSpec& spec);
// The matrix with its block size, its load (beam3d) and, when `with_coordinates` and the kind
// has them (generator_has_coordinates), its nodes' coordinates (3 doubles a node: asked for
// only when needed, they would add ~20% to a scalar grid matrix).
GeneratedSystem generate_system(const GeneratorSpec& spec, bool with_coordinates);

// The stencil of a grid kind (powerlaw, rmat, circuit: nullopt), its parameters checked (BadInput),
// for building a range of rows only (assemble_grid_rows, grid_entries_before).
std::optional<GridStencil> grid_stencil_of(const GeneratorSpec& spec);
// spec.convection as a scheme (BadInput naming the kind when it is neither upwind nor central).
ConvectionScheme convection_scheme_of(const GeneratorSpec& spec);

CsrMatrix<double> generate_poisson2d(int n);
CsrMatrix<double> generate_poisson3d(int n, int stencil);
CsrMatrix<double> generate_convdiff2d(int n, double peclet, ConvectionScheme scheme);
CsrMatrix<double> generate_convdiff3d(int n, double peclet, ConvectionScheme scheme);
CsrMatrix<double> generate_elasticity3d(int n);
CsrMatrix<double> generate_powerlaw(int n, double avg_row_length, double exponent,
                                    std::uint64_t seed);
CsrMatrix<double> generate_rmat(int scale, int edge_factor, std::uint64_t seed);
CsrMatrix<double> generate_circuit(int n, int dense_rows, double dense_fraction,
                                   std::uint64_t seed);
GeneratedSystem generate_beam3d(int n, double poisson_ratio, bool with_coordinates);

}  // namespace spk
