#pragma once
// The GPU path's level operators of the distributed AMG hierarchy built on the device
// (DeviceDistributedLevel: A_l, P_l, R_l, the coarsest inverse), from the device arrays
// without a host copy: the level's whole rows split on the device into the local and halo
// blocks (device_column_split.hpp, values converted to T there), each an SpMV backend in the
// level's format on the solver's stream (a block the format refuses is stored as csr; a halo
// block whose rows are mostly empty keeps its non-empty rows: compressed_rows_operator.hpp),
// the halo exchange over NCCL or host-staged MPI (device_halo_exchange.hpp, its plan from the
// level's halo columns: make_halo_plan), and the overlapped product of distributed_operator.hpp.
// update_values splits the level's new values into the blocks on the device and scatters them
// into the backends. Each apply is collective: the V-cycle runs the same operators in the same
// order on every process. (distributed_level_operator.hpp is the same for host-built levels.)
#include <cuda_runtime.h>
#include <mpi.h>

#include <memory>

#include "distributed/amg/device_distributed_level.hpp"
#include "solver/amg/level_operator.hpp"
#include "spkrylov/options.hpp"

namespace spk {

class FaultWatch;
class NcclCommunicator;

// The operator of `level` in spmv's format. nccl: null for MPI; watch: the solver's (may be
// null). Collective (the exchange plan).
template <class T>
std::unique_ptr<LevelOperator<T, DeviceDistributedLevel>> make_device_distributed_level_operator(
    MPI_Comm comm, const NcclCommunicator* nccl, cudaStream_t stream, FaultWatch* watch,
    const DeviceDistributedLevel& level, const SpmvOptions& spmv);

// Both precisions' factories (the solver's spmv options: their format is the default one).
LevelOperatorFactories<DeviceDistributedLevel> device_distributed_level_operator_factories(
    MPI_Comm comm, const NcclCommunicator* nccl, cudaStream_t stream, FaultWatch* watch,
    const SpmvOptions& spmv);

}  // namespace spk
