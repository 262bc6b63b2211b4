#pragma once
// NcclCommunicator: an NCCL communicator over the processes of an MPI communicator, one GPU
// each (the current device of each process), bootstrapped through MPI as NCCL's guide does:
// rank 0 asks for a unique id (ncclGetUniqueId), MPI_Bcast sends it to every process, and each
// joins with ncclCommInitRank. Destroyed (ncclCommDestroy) with the owner.
//
// Construction is collective. Loading the library and making the id are agreed steps (a
// failure there is thrown on every process). ncclCommInitRank (0.2-0.6 s for 4 GPUs of a node)
// then runs on a thread of its own, on the caller's current device, while the caller goes on
// with other setup work (the distributed solver's split, layouts and the first AMG steps); the
// first get() waits for it (init_seconds(), waited_seconds() say how long each took). The init
// can fail on one process only: that process's get() throws CommunicationError, and the caller
// must then MPI_Abort (the others wait in the init). NCCL_NVLS_ENABLE is set to 0 unless the user
// set it: NVLink SHARP brings nothing to scalar sums and halo messages and is the most common cause
// of init failures on NVSwitch machines.
//
// channels > 0 caps NCCL's channels (ncclConfig_t::maxCTAs, through ncclCommInitRankConfig,
// NCCL 2.17+; DistributedOptions::nccl_channels says why); 0, or an older NCCL, leaves NCCL's
// own choice. channels() is the cap in force (0: none).
//
// abort() (ncclCommAbort) ends the communicator when a process failed mid-solve
// (fault_watch.hpp): its kernels still waiting for that process return, and it is not used
// again. Before the init has finished, abort() abandons it instead: the destructor then leaves
// its thread (waiting for a process that died) to the process's exit rather than waiting.
#include <mpi.h>
#include <nccl.h>

#include <memory>
#include <thread>

#include "distributed/nccl_library.hpp"

namespace spk {

class NcclCommunicator {
 public:
  NcclCommunicator(MPI_Comm comm, int channels);
  ~NcclCommunicator();
  NcclCommunicator(const NcclCommunicator&) = delete;
  NcclCommunicator& operator=(const NcclCommunicator&) = delete;

  // The communicator, once its init has finished (the first call waits for it; CommunicationError
  // when it failed here). Null after abort().
  ncclComm_t get() const;
  const NcclLibrary& library() const { return library_; }
  int channels() const { return channels_; }
  // ncclCommAbort: pending operations end, the communicator is gone (get() is then null).
  void abort() noexcept;
  // Seconds the init took on its thread, and the seconds get() waited for it (0 before).
  double init_seconds() const;
  double waited_seconds() const { return waited_s_; }

 private:
  struct Init;  // what the init's thread writes, shared with it (it may outlive this object)

  const NcclLibrary& library_;
  std::shared_ptr<Init> init_;
  std::thread thread_;
  mutable ncclComm_t comm_ = nullptr;
  mutable bool ready_ = false;  // the init has been waited for
  mutable double waited_s_ = 0.0;
  bool abandoned_ = false;  // abort() was called
  bool aborted_ = false;    // ncclCommAbort ran
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
