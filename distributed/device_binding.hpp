#pragma once
// Which GPU each process of a distributed solve uses, and whether NCCL can run on them.
//
// bind_device(comm, by_local_rank): the processes on one host (MPI_COMM_TYPE_SHARED) number
// themselves 0, 1, ... (the local rank); with by_local_rank, each sets the device local_rank %
// devices (cudaSetDevice), else keeps the caller's current device. Then every process learns
// every other's GPU (host and PCI bus id), so that all agree whether two processes share one:
// NCCL refuses that ("Duplicate GPU detected"), the mpi transport allows it. Collective; a
// process with no GPU fails an agreed step ("rank R: no GPU ...").
#include <mpi.h>

#include <string>

namespace spk {

struct DeviceBinding {
  int local_rank = 0;       // among the processes of this host
  int local_processes = 1;  // on this host
  int device = 0;           // the CUDA device this process uses
  int devices = 0;          // CUDA devices this process sees
  std::string pci_bus_id;   // of `device`
  // Two processes of the communicator use one GPU (same host and PCI bus id): the first two
  // such ranks, or -1.
  int shared_first = -1;
  int shared_second = -1;
  bool gpu_shared() const { return shared_first >= 0; }
};

// activate false: the device is chosen but not made current (cudaSetDevice creates its context,
// which the caller may then create on a thread of its own, beside other setup work).
DeviceBinding bind_device(MPI_Comm comm, bool by_local_rank, bool activate = true);

}  // namespace spk
