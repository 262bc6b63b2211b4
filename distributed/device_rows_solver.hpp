#pragma once
// distributed_solver_of_device_rows: a DistributedSolver<T> (its GPU path) over rows that
// already exist, split, on this process's GPU: the app's device generator's
// (device_grid_rows.hpp: split_rows_of). The same solver as from host arrays, without the
// upload and the device split (device_split_rows.hpp); the partition is every process's row
// count in rank order, as for host arrays, and must start this process's block at
// rows.first_row. The rows hold the pattern, the halo starts and (block Jacobi) the local
// entries' pattern positions; their values are finite (the caller's, made so). Collective;
// options checked and failures agreed as the public constructor's. Error where the config
// puts the solve on the CPU (the caller asks solves_on_gpu first, distributed_setup.hpp).
#include <mpi.h>

#include "distributed/device_split_rows.hpp"
#include "spkrylov/distributed.hpp"

namespace spk {

template <class T>
DistributedSolver<T> distributed_solver_of_device_rows(MPI_Comm comm, DeviceSplitRows<T>&& rows,
                                                       const Options& options,
                                                       const DistributedOptions& distributed);

}  // namespace spk
