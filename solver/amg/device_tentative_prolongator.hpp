#pragma once
// The tentative prolongator on the GPU (the device counterpart of
// solver/amg/tentative_prolongator.hpp): T_i,agg(i) = B_i / ||B on agg(i)|| and the coarse
// vector (B_c)_j = ||B on aggregate j||. Each norm is summed over the aggregate's members in
// increasing row order (the rows of T^T, cusparseCsr2cscEx2), a thread per aggregate, with the
// host's rounding (solver/amg/prolongator_rules.hpp): T and B_c equal the host's bit for bit.
#include "solver/amg/device_aggregation.hpp"

namespace spk {

struct DeviceTentativeProlongator {
  DeviceCsrMatrix<double> matrix;          // T
  DeviceBuffer<double> coarse_candidates;  // B_c, one entry per aggregate
};

// T and B_c for `aggregates` and the fine vector `candidates` (B, nonzero entries).
DeviceTentativeProlongator device_tentative_prolongator(const DeviceAggregates& aggregates,
                                                        const DeviceBuffer<double>& candidates,
                                                        const DeviceSetupContext& context);

}  // namespace spk
