#pragma once
// host_blocks: the DistributedMatrix builder of the CPU path: host CSR products
// (reference_spmv.hpp) and the MPI exchange from host memory (host_halo_exchange.hpp).
#include <mpi.h>

#include <memory>
#include <utility>

#include "distributed/distributed_matrix.hpp"
#include "distributed/host_halo_exchange.hpp"
#include "spmv/host/reference_spmv.hpp"

namespace spk {

// The CPU reference blocks: host CSR products and the MPI exchange from host memory (its
// waits through `watch`, a solver's, when given: fault_watch.hpp).
template <class T>
BlockBuilder<T> host_blocks(MPI_Comm comm, FaultWatch* watch = nullptr) {
  return [comm, watch](const SplitRows<T>& split, HaloPlan plan) {
    DistributedBlocks<T> blocks;
    blocks.local = std::make_unique<HostCsrOperator<T>>(split.local);
    if (split.halo.nnz() > 0) blocks.halo = std::make_unique<HostCsrOperator<T>>(split.halo);
    blocks.exchange = std::make_unique<HostHaloExchange<T>>(comm, std::move(plan), watch);
    return blocks;  // the host operators read the split's arrays: no refresh needed
  };
}

}  // namespace spk
