#pragma once
// Strength of connection for smoothed aggregation (Vanek, Mandel & Brezina, "Algebraic
// multigrid by smoothed aggregation for second and fourth order elliptic problems",
// Computing 56, 1996, eq. (3.1)): node j is strongly connected to node i when
//   i != j,  a_ij != 0  and  |a_ij| >= theta sqrt(|a_ii a_jj|).
// theta = 0 makes every stored off-diagonal nonzero strong (PyAMG's and CUSP's default). An
// explicitly stored zero is never a connection, whatever theta.
//
// The aggregation (solver/amg/aggregation.hpp) needs an undirected graph: the measure above is
// symmetric for a symmetric A, but not for a nonsymmetric one (a_ij != a_ji), so the graph is
// S union S^T: i and j are neighbours when either direction is strong. Row i of it is merged
// from row i of A and row i of A^T by the rules of solver/amg/strength_rules.hpp, which the
// GPU's version (solver/amg/device_strength.hpp) calls too: both build the same graph.
#include <vector>

#include "spmv/host/csr_matrix.hpp"

namespace spk {

// An undirected graph on the rows of A, without self loops: node i's neighbours are
// neighbours[row_offsets[i] .. row_offsets[i + 1]), sorted and unique.
struct StrengthGraph {
  index_t nodes = 0;
  std::vector<index_t> row_offsets{0};
  std::vector<index_t> neighbours;

  index_t degree(index_t node) const { return row_offsets[node + 1] - row_offsets[node]; }
};

// The symmetrized strength graph of the square matrix `a` for threshold theta >= 0.
StrengthGraph strength_graph(const CsrMatrix<double>& a, double theta);

}  // namespace spk
