#pragma once
// The tentative prolongator of smoothed aggregation for k near-null-space vectors and nodal
// aggregates (Vanek, Mandel & Brezina 1996, sec. 3; PyAMG's fit_candidates is the reference):
// the building block of AMG for systems such as elasticity, whose near-null space is the
// rigid-body modes (k = 3 in 2-D, 6 in 3-D) rather than the constant vector
// (tentative_prolongator.hpp, the k = 1 case).
//
// Layout. The fine dofs are `block_size` per node, interleaved (dof b of node i is row
// i * block_size + b); aggregates are sets of nodes, so every dof of a node goes to its node's
// aggregate. B is rows x k, row-major (B[row * k + c]). For aggregate j, B_j is the block of
// B's rows of its dofs, in increasing row order; its thin QR, B_j = Q_j R_j (Q_j: |dofs_j| x k
// with orthonormal columns, R_j: k x k upper triangular), gives
//   T's rows of aggregate j: the rows of Q_j, in columns j k .. j k + k - 1;
//   the coarse B's rows j k .. j k + k - 1: R_j,
// so T^T T = I and T B_c = B, and the coarse level has k dofs per aggregate (its block size).
//
// Fixed k. Every aggregate keeps k orthonormal columns, so the coarse block structure holds
// and the coarse diagonal stays positive for an SPD A. The QR is modified Gram-Schmidt applied
// twice (solver/amg/candidate_fit_rules.hpp, shared with the GPU's batched kernel); a column
// whose norm after it falls to `drop_tolerance` times its norm before (B_j rank-deficient on
// the aggregate, e.g. the 6 rigid-body modes of 2 nodes, which span 5) keeps R_pc (p < c) and
// R_cc = 0, so T B_c = B still holds, and its Q column completes the basis with the dof unit
// vector farthest from the earlier columns. Such columns are counted (dependent_columns). An
// aggregate with fewer dofs than k cannot be completed: BadInput.
//
// Left-out nodes. A node whose aggregate_of is -1 (AMG for systems leaves out the nodes with
// no strong neighbour, as PyAMG does: solver/amg/hierarchy.hpp) has empty rows of T.
#include <string>
#include <vector>

#include "solver/amg/aggregation.hpp"
#include "spmv/host/csr_matrix.hpp"

namespace spk {

struct CandidateFit {
  CsrMatrix<double> matrix;               // T: rows x (aggregates * k)
  std::vector<double> coarse_candidates;  // B_c: (aggregates * k) x k, row-major
  int candidates = 1;                     // k
  index_t dependent_columns = 0;          // Q columns completed (rank deficiency)
};

// Each aggregate's nodes, increasing: nodes[offsets[j] .. offsets[j + 1]) (left-out nodes,
// aggregate_of -1, in none).
struct AggregateMembers {
  std::vector<index_t> offsets;
  std::vector<index_t> nodes;
};
AggregateMembers aggregate_members(const Aggregates& aggregates);

// The BadInput message for an aggregate with fewer unknowns than near-null-space vectors.
std::string too_few_dofs_message(index_t aggregate, index_t dofs, int candidates);

// T and B_c for nodal `aggregates` (aggregate_of per node), `block_size` dofs per node and the
// k = `candidates` vectors B (rows = nodes * block_size, row-major). Throws BadInput when the
// sizes disagree, k is outside 1..16, B holds a non-finite value, or an aggregate has fewer
// unknowns than k.
CandidateFit fit_candidates(const Aggregates& aggregates, int block_size,
                            const std::vector<double>& near_nullspace, int candidates,
                            double drop_tolerance = 1e-10);

}  // namespace spk
