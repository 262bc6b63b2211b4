#pragma once
// threads_per_process(comm): how many OpenMP threads each process of a distributed solve uses
// for its host work (the checks of the caller's arrays, the local/halo split, the host steps of
// the setup, the CPU path's whole solve). OMP_NUM_THREADS, when set, decides. Otherwise each
// process takes its share of the host's logical CPUs: min(the CPUs its affinity mask allows,
// CPUs / processes on this host (MPI_COMM_TYPE_SHARED)), at least one.
//
// Why: OpenMP's default is every CPU for every process. Four processes of a 64-CPU host then
// run 256 threads, whose waits (libgomp spins before it sleeps) take the CPUs from the threads
// that drive the GPUs and MPI: every host phase of the setup slows, and so does every launch and
// synchronization between them (docs/several-gpus.md, "Host threads per process").
//
// Collective over comm (MPI_Comm_split_type).
#include <mpi.h>

namespace spk {

int threads_per_process(MPI_Comm comm);

// The count for `local_processes` processes on a host of `cpus` logical CPUs, this process's
// affinity mask allowing `allowed` of them (the rule above, without OMP_NUM_THREADS).
int share_of_cpus(int cpus, int allowed, int local_processes);

}  // namespace spk
