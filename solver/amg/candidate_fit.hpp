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
// Fixed k. Every aggregate keeps k columns, so the coarse block structure holds. The QR is
// modified Gram-Schmidt applied twice (one re-orthogonalisation); a column whose norm after it
// falls to `drop_tolerance` times its norm before (or to zero) is linearly dependent on the
// earlier ones in this aggregate, e.g. an aggregate of fewer dofs than k: its Q column is zero
// and R_cc = 0, while R's coefficients on the earlier columns stay, so T B_c = B still holds to
// the tolerance. Such a zero column of T makes a zero row and
// column of the coarse matrix, which the hierarchy rejects (a zero pivot): the caller must
// avoid aggregates too small for k (merge them, or leave their nodes uncoarsened).
#include <vector>

#include "solver/amg/aggregation.hpp"
#include "spmv/host/csr_matrix.hpp"

namespace spk {

struct CandidateFit {
  CsrMatrix<double> matrix;               // T: rows x (aggregates * k)
  std::vector<double> coarse_candidates;  // B_c: (aggregates * k) x k, row-major
  int candidates = 1;                     // k
  index_t dependent_columns = 0;          // Q columns set to zero (rank deficiency)
};

// T and B_c for nodal `aggregates` (aggregate_of per node), `block_size` dofs per node and the
// k = `candidates` vectors B (rows = nodes * block_size, row-major). Throws BadInput when the
// sizes disagree, k is outside 1..16, or B holds a non-finite value.
CandidateFit fit_candidates(const Aggregates& aggregates, int block_size,
                            const std::vector<double>& near_nullspace, int candidates,
                            double drop_tolerance = 1e-10);

}  // namespace spk
