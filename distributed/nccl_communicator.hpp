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
// channels > 0 caps NCCL's channels (ncclConfig_t::maxCTAs, through ncclCommInitRankConfig,
// NCCL 2.17+; DistributedOptions::nccl_channels says why); 0, or an older NCCL, leaves NCCL's
// own choice. channels() is the cap in force (0: none).
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
  NcclCommunicator(MPI_Comm comm, int channels);
  ~NcclCommunicator();
  NcclCommunicator(const NcclCommunicator&) = delete;
  NcclCommunicator& operator=(const NcclCommunicator&) = delete;

  ncclComm_t get() const { return comm_; }
  const NcclLibrary& library() const { return library_; }
  int channels() const { return channels_; }
  // ncclCommAbort: pending operations end, the communicator is gone (get() is then null).
  void abort() noexcept;

 private:
  const NcclLibrary& library_;
  ncclComm_t comm_ = nullptr;
  int channels_ = 0;
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
