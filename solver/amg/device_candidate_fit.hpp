#pragma once
// fit_candidates on the GPU (the device counterpart of solver/amg/candidate_fit.hpp, which says
// what T and B_c are): the nodes sorted by aggregate (a stable radix sort, so each aggregate's
// nodes are increasing, as on the host), T's pattern (k entries in each row of a node in an
// aggregate, none in a left-out node's: a scan), then a batched thin QR, a thread per aggregate
// running the host's own arithmetic (solver/amg/candidate_fit_rules.hpp) in place in T's values.
#include "solver/amg/device_aggregation.hpp"

namespace spk {

struct DeviceCandidateFit {
  DeviceCsrMatrix<double> matrix;          // T: rows x (aggregates * k)
  DeviceBuffer<double> coarse_candidates;  // B_c: (aggregates * k) x k, row-major
  int candidates = 1;                      // k
  index_t dependent_columns = 0;           // Q columns completed (rank deficiency)
};

// T and B_c for nodal `aggregates`, `block_size` dofs per node and the k = `candidates` vectors
// B (device, rows x k, row-major; finite, checked by the caller). Throws BadInput when an
// aggregate has fewer unknowns than k. Synchronizes (reads the counts back).
DeviceCandidateFit device_fit_candidates(const DeviceAggregates& aggregates, int block_size,
                                         const DeviceBuffer<double>& near_nullspace, int candidates,
                                         const DeviceSetupContext& context,
                                         double drop_tolerance = 1e-10);

}  // namespace spk
