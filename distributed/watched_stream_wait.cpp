#include "distributed/watched_stream_wait.hpp"

#include "core/cuda_check.hpp"

namespace spk {

WatchedStreamWait::WatchedStreamWait(FaultWatch& watch) : watch_(watch) {
  SPK_CUDA_CHECK(cudaEventCreateWithFlags(&reached_, cudaEventDisableTiming));
}

WatchedStreamWait::~WatchedStreamWait() {
  if (reached_ != nullptr) (void)cudaEventDestroy(reached_);
}

void WatchedStreamWait::wait(cudaStream_t stream) {
  SPK_CUDA_CHECK(cudaEventRecord(reached_, stream));
  for (;;) {
    const cudaError_t state = cudaEventQuery(reached_);
    if (state == cudaSuccess) return;
    if (state != cudaErrorNotReady) SPK_CUDA_CHECK(state);
    watch_.poll();  // throws RankFailed on a notice (NCCL aborted first)
  }
}

}  // namespace spk
