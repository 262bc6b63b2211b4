#pragma once
// The nodal steps of AMG for systems (solver/amg/hierarchy.hpp), on the host:
//   nodal_strength_graph        the strength graph between nodes: the strength rule
//                               (strength.hpp) on the nodal matrix of Frobenius norms of A's
//                               block_size x block_size blocks (near_nullspace.hpp), so that the
//                               aggregates are sets of nodes and every dof of a node goes to
//                               the same aggregate (PyAMG's strength for BSR matrices);
//   leave_out_isolated_nodes    the rule for nodes without a strong neighbour (a Dirichlet-like
//                               node, decoupled in A): MIS(2) makes each a one-node aggregate,
//                               which has block_size dofs, fewer than k = 6 rigid-body modes
//                               in 3-D; such a node is left out of every aggregate instead
//                               (aggregate_of -1, its rows of T empty, as PyAMG does), and the
//                               smoother alone treats it. Every other aggregate has at least
//                               2 nodes: the neighbours of an MIS(2) root have no other root
//                               within reach, so they all join it.
// The GPU's counterparts are in solver/amg/device_nodal_aggregation.hpp.
#include "solver/amg/aggregation.hpp"
#include "solver/amg/strength.hpp"
#include "spmv/host/csr_matrix.hpp"

namespace spk {

// The strength graph of A's nodes (block_size dofs each, interleaved) for threshold theta.
StrengthGraph nodal_strength_graph(const CsrMatrix<double>& a, int block_size, double theta);

// Removes the one-node aggregates of the graph's isolated nodes and numbers the others again
// in order; those nodes get aggregate_of -1. `isolated` keeps their count.
void leave_out_isolated_nodes(Aggregates& aggregates, const StrengthGraph& graph);

}  // namespace spk
