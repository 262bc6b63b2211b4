#pragma once
// device_level_blocks: the DistributedMatrix builder of the GPU path for matrices other than
// the solver's (the distributed AMG's levels, distributed/amg/distributed_level_operator.hpp):
// the local and halo blocks as SpMV backends in a given format on the solver's stream (a halo
// block whose rows are mostly empty keeps its non-empty rows: compressed_rows_operator.hpp; a
// block the format refuses is stored as csr), the exchange over NCCL or host-staged MPI
// (device_halo_exchange.hpp), and the refresh of both blocks' values for update_values.
#include <cuda_runtime.h>
#include <mpi.h>

#include "distributed/distributed_matrix.hpp"
#include "spkrylov/options.hpp"

namespace spk {

class FaultWatch;
class NcclCommunicator;

// nccl: null for MPI; watch: the solver's (may be null). Everything runs on `stream`.
template <class T>
BlockBuilder<T> device_level_blocks(MPI_Comm comm, const NcclCommunicator* nccl,
                                    cudaStream_t stream, FaultWatch* watch,
                                    const SpmvOptions& spmv);

}  // namespace spk
