#pragma once
// MIS(2) aggregation on the GPU (the device counterpart of solver/amg/aggregation.hpp): the
// same synchronous rounds with the same hashed priorities and the same two assignment passes,
// each a kernel with a thread per node calling the host's own per-node rules
// (solver/amg/aggregation_rules.hpp), so the aggregates equal the host's bit for bit (Bell,
// Dalton & Olson, SISC 34(4), 2012; CUSP's device MIS(2)). A round is two "max over the
// closed 1-ring" sweeps and a decision kernel that counts the nodes still undecided; that
// count is read back once per round (the one synchronization of a round, as in CUSP). The
// roots are numbered by an exclusive scan over their flags (index order, as on the host).
#include "solver/amg/device_strength.hpp"

namespace spk {

struct DeviceAggregates {
  DeviceBuffer<index_t> aggregate_of;  // per node: its aggregate, 0 .. count - 1
  DeviceBuffer<index_t> roots;         // per aggregate: its root node (increasing)
  index_t count = 0;
  int rounds = 0;        // MIS(2) rounds
  index_t isolated = 0;  // nodes without a strong neighbour (one-node aggregates)
};

// MIS(2) aggregation of `graph` with the priorities of aggregation_priorities. Synchronizes
// the context's stream once per round and at the end (count and isolated are read back).
// distance 1: the distance-1 variant (solver/amg/aggregation.hpp).
DeviceAggregates device_aggregate_mis2(const DeviceStrengthGraph& graph,
                                       const DeviceSetupContext& context, int distance = 2);

}  // namespace spk
