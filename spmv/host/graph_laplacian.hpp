#pragma once
// shifted_graph_laplacian: the SPD matrix L + shift I of an undirected weighted graph, in CSR,
// assembled from an edge list (the graph generators rmat and circuit build on it).
//
//   L = D - W, W_ij = W_ji = the weight of edge {i, j}, D = diag(sum_j W_ij). With positive
//   weights L is symmetric positive semidefinite (x'Lx = sum over edges w (x_i - x_j)^2), so
//   L + shift I with shift > 0 is SPD; every row is strictly diagonally dominant by `shift`
//   (diagonal = shift + sum of the row's weights, off-diagonals = -weight).
//
// Edge list rules: an edge with first == second (a self-loop) is skipped, so a generator can
// leave unused slots as self-loops; {i, j} and {j, i} are the same edge; an edge listed more
// than once is merged into one entry that keeps the largest of its weights (so an unweighted
// graph stays unweighted, and the result does not depend on the order of the list).
//
// Cost: O(E log d) time (a counting sort by row, then a sort of each row, d its length) and
// about 8 bytes per stored direction of an edge on top of the result, in parallel (OpenMP);
// the result does not depend on the thread count. Sizes are checked against the 32-bit index
// range before the entries are allocated (BadInput naming `what`).
#include <string>
#include <vector>

#include "spmv/host/csr_matrix.hpp"

namespace spk {

struct GraphEdge {
  index_t first = 0;
  index_t second = 0;
  float weight = 1.0f;  // > 0
};

CsrMatrix<double> shifted_graph_laplacian(index_t vertices, const std::vector<GraphEdge>& edges,
                                          double shift, const std::string& what);

}  // namespace spk
