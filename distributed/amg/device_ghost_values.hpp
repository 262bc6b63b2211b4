#pragma once
// DeviceGhostValues: the ghost rows of a distributed level (the rows of P that A's halo columns
// name, device_distributed_coarse_product.hpp) fetched once with their pattern, and then, at
// each re-setup, their new values alone: one exchange of values, where fetch_device_rows moves
// the rows' ids, lengths, columns and values, and the owners search and download whole rows.
//
// Setup (collective):
//   1. fetch_rows with each entry's value replaced by its index in the owner's device arrays
//      (exact in a double below 2^53): the requester learns which of the owner's entries each
//      fetched entry is, in the order fetch_rows gives them (the rows in the order asked);
//   2. each requester sends every owner the indices of the entries it needs from it, in that
//      order (MPI_Alltoall of counts, MPI_Alltoallv of the indices); the owner keeps them on
//      the device, grouped by requester in rank order;
//   3. values(): the owner gathers those entries of its current values on the device
//      (one kernel), downloads them, and MPI_Alltoallv sends each requester its group; the
//      requester places them in the fetched order. The first values() gives the setup's values.
//
// The pattern (rows, lengths, columns) must not change between values() calls: the hierarchy's
// re-setup keeps every pattern.
#include <cuda_runtime.h>
#include <mpi.h>

#include <vector>

#include "core/device_buffer.hpp"
#include "distributed/amg/device_distributed_level.hpp"
#include "distributed/amg/row_exchange.hpp"

namespace spk {

class FaultWatch;

class DeviceGhostValues {
 public:
  // The rows `wanted` (global ids) of `level`, with global columns and their current values,
  // in the order asked (as fetch_device_rows gives them); the plan is kept. Collective.
  DeviceGhostValues(FaultWatch& watch, const DeviceDistributedLevel& level,
                    const std::vector<global_index_t>& wanted, cudaStream_t stream,
                    FetchedRows<double>& fetched);

  // The same entries' values from `level`'s current values (same pattern), in the fetched
  // order. Collective.
  std::vector<double> values(const DeviceDistributedLevel& level);

 private:
  FaultWatch& watch_;
  cudaStream_t stream_;
  DeviceBuffer<index_t> send_entries_;  // the owner's entries each requester needs, by rank
  DeviceBuffer<double> send_values_;
  std::vector<int> send_counts_, send_displacements_;
  std::vector<int> receive_counts_, receive_displacements_;
  std::vector<std::size_t> placement_;  // received value k -> fetched entry placement_[k]
};

}  // namespace spk
