#pragma once
// WatchedStreamWait: how the host of a distributed GPU solve over NCCL waits for its stream
// (DeviceContext::set_stream_wait): an event recorded on the stream, polled (cudaEventQuery)
// together with the solver's FaultWatch (MPI_Iprobe for a failure notice). A stream waiting
// in an NCCL collective for a process that failed never finishes; the watch then finds the
// notice, its death actions abort NCCL (which releases the pending kernels), and the wait
// throws RankFailed instead of blocking in cudaStreamSynchronize forever.
#include <cuda_runtime.h>

#include "distributed/fault_watch.hpp"
#include "solver/device_context.hpp"

namespace spk {

class WatchedStreamWait final : public StreamWait {
 public:
  explicit WatchedStreamWait(FaultWatch& watch);  // watch must outlive it
  ~WatchedStreamWait() override;
  WatchedStreamWait(const WatchedStreamWait&) = delete;
  WatchedStreamWait& operator=(const WatchedStreamWait&) = delete;

  void wait(cudaStream_t stream) override;

 private:
  FaultWatch& watch_;
  cudaEvent_t reached_ = nullptr;  // recorded at the end of what the stream must run
};

}  // namespace spk
