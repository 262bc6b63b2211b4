#pragma once
// Near-null-space vectors and the nodal view of a system, the inputs of smoothed aggregation
// for systems (candidate_fit.hpp builds the tentative prolongator from them):
//
//   rigid_body_modes    the rigid-body modes of linear elasticity at the nodes' coordinates
//                       (Vanek, Mandel & Brezina 1996; PyAMG's B for elasticity, PETSc's
//                       MatNullSpaceCreateRigidBody): in 2-D the 2 translations and the
//                       rotation (k = 3), in 3-D 3 translations and 3 rotations (k = 6), dofs
//                       interleaved (x, y[, z] of node 0, then node 1, ...). The coordinates
//                       are centred on their centroid first: a rotation about a far-away point
//                       is nearly a translation, and the QR of the block would lose accuracy.
//   nodal_matrix        the node-to-node matrix of a system with block_size dofs per node:
//                       entry (I, J) is the Frobenius norm of the block of A coupling node I's
//                       dofs with node J's (present when any entry of the block is), the matrix
//                       the strength of connection and the aggregation run on, so that all dofs
//                       of a node go to the same aggregate.
#include <vector>

#include "spkrylov/options.hpp"
#include "spmv/host/csr_matrix.hpp"

namespace spk {

// B: (nodes * dimension) x k, row-major, k = 3 (dimension 2) or 6 (dimension 3), from the
// nodes' coordinates (nodes x dimension, row-major). Throws BadInput for another dimension, a
// coordinate count that is not a multiple of it, or a non-finite coordinate (naming the node).
std::vector<double> rigid_body_modes(const std::vector<double>& coordinates, int dimension);
inline int rigid_body_mode_count(int dimension) {
  return dimension == 2 ? 3 : 6;
}

// Whether the options ask for AMG for systems: block_size > 1 or a near-null space other than
// the constant vector (solver/amg/hierarchy.hpp).
inline bool is_systems_amg(const AmgOptions& options) {
  return options.block_size > 1 || options.near_nullspace != NearNullspace::constant;
}

// B_0 of AMG for systems, rows x count, row-major, from the options (AmgOptions):
//   constant    the constant vector of each dof component, kron(ones(nodes), I_b): k = b
//               (PyAMG's default B for a block size b);
//   rigid_body  rigid_body_modes of the coordinates, dimension = block_size (2 or 3);
//   vectors     near_nullspace_vectors as given (k = near_nullspace_count, 1..16).
// Throws BadInput naming the key: matrix.block_size outside 1..6 or not dividing the rows,
// rigid_body without coordinates or with a block size other than 2 or 3, a coordinate count
// that is not rows / block_size nodes x block_size, vectors of the wrong size or non-finite.
struct NearNullspaceVectors {
  std::vector<double> vectors;
  int count = 1;
};
NearNullspaceVectors fine_near_nullspace(const AmgOptions& options, index_t rows);

// Throws BadInput when block_size is outside 1..16 (a coarse level's is k), A is not square, or its
// rows are not a multiple of block_size (naming matrix.block_size).
CsrMatrix<double> nodal_matrix(const CsrMatrix<double>& a, int block_size);

}  // namespace spk
