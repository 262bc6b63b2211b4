#pragma once
// NcclCommunicator: an NCCL communicator over the processes of an MPI communicator, one GPU
// each (the current device of each process), bootstrapped through MPI as NCCL's guide does:
// rank 0 asks for a unique id (ncclGetUniqueId), MPI_Bcast sends it to every process, and each
// joins with ncclCommInitRank. Destroyed (ncclCommDestroy) with the owner.
//
// Construction is collective. Loading the library and making the id are agreed steps (a
// failure there is thrown on every process); ncclCommInitRank itself can fail on one process
// only: that process throws CommunicationError, and the caller must then MPI_Abort (the others
// wait in the init). NCCL_NVLS_ENABLE is set to 0 unless the user set it: NVLink SHARP brings
// nothing to scalar sums and halo messages and is the most common cause of init failures on
// NVSwitch machines.
//
// abort() (ncclCommAbort) ends the communicator when a process failed mid-solve
// (fault_watch.hpp): its kernels still waiting for that process return, and it is not used
// again.
#include <mpi.h>
#include <nccl.h>

#include "distributed/nccl_library.hpp"

namespace spk {

class NcclCommunicator {
 public:
  explicit NcclCommunicator(MPI_Comm comm);
  ~NcclCommunicator();
  NcclCommunicator(const NcclCommunicator&) = delete;
  NcclCommunicator& operator=(const NcclCommunicator&) = delete;

  ncclComm_t get() const { return comm_; }
  const NcclLibrary& library() const { return library_; }
  // ncclCommAbort: pending operations end, the communicator is gone (get() is then null).
  void abort() noexcept;

 private:
  const NcclLibrary& library_;
  ncclComm_t comm_ = nullptr;
};

// The NCCL datatype of T.
template <class T>
ncclDataType_t nccl_datatype();
template <>
inline ncclDataType_t nccl_datatype<float>() {
  return ncclFloat32;
}
template <>
inline ncclDataType_t nccl_datatype<double>() {
  return ncclFloat64;
}

}  // namespace spk
