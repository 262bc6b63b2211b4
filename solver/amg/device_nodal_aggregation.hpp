#pragma once
// The nodal steps of AMG for systems on the GPU (the device counterparts of
// solver/amg/nodal_aggregation.hpp, which says what they are for): the nodal matrix of
// Frobenius norms (a thread per node, the host's rule in solver/amg/nodal_rules.hpp, so it
// equals the host's bit for bit), its strength graph (device_strength.hpp), and the isolated
// nodes left out of the MIS(2) aggregates (their aggregates dropped and the others numbered
// again by an exclusive scan, in order, as on the host).
#include "solver/amg/device_aggregation.hpp"

namespace spk {

// The nodal matrix of `a` (block_size dofs per node, rows a multiple of it: checked by the
// caller). Reads its entry count back (synchronizes).
DeviceCsrMatrix<double> device_nodal_matrix(const DeviceCsrMatrix<double>& a, int block_size,
                                            const DeviceSetupContext& context);

// The strength graph of A's nodes for threshold theta (block_size 1: of A itself).
DeviceStrengthGraph device_nodal_strength_graph(const DeviceCsrMatrix<double>& a, int block_size,
                                                double theta, const DeviceSetupContext& context);

// Removes the one-node aggregates of the graph's isolated nodes (aggregate_of -1 for them) and
// numbers the others again in order. Reads the new count back (synchronizes).
void device_leave_out_isolated_nodes(DeviceAggregates& aggregates, const DeviceStrengthGraph& graph,
                                     const DeviceSetupContext& context);

}  // namespace spk
