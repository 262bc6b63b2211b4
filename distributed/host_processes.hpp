#pragma once
// host_processes(comm): this process's rank among the processes of comm on its host
// (MPI_COMM_TYPE_SHARED), and how many they are. Which GPU a process takes
// (device_binding.hpp) and how many CPUs it uses (process_threads.hpp) both follow from them.
// Collective over comm.
#include <mpi.h>

namespace spk {

struct HostProcesses {
  int rank = 0;   // among the processes of this host
  int count = 1;  // the processes of this host
};

HostProcesses host_processes(MPI_Comm comm);

}  // namespace spk
