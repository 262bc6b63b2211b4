#include "core/staged_upload.hpp"

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "core/cuda_check.hpp"

namespace spk {

namespace {

constexpr std::size_t chunk_bytes = std::size_t{32} << 20;  // per staging buffer

// Two pinned buffers and the events that say when the copy engine is done with each.
class StagingBuffers {
 public:
  StagingBuffers() {
    for (int b = 0; b < 2; ++b) {
      SPK_CUDA_CHECK(cudaMallocHost(&buffers_[b], chunk_bytes));
      SPK_CUDA_CHECK(cudaEventCreateWithFlags(&done_[b], cudaEventDisableTiming));
    }
  }
  ~StagingBuffers() {
    for (int b = 0; b < 2; ++b) {
      if (done_[b] != nullptr) static_cast<void>(cudaEventDestroy(done_[b]));
      if (buffers_[b] != nullptr) static_cast<void>(cudaFreeHost(buffers_[b]));
    }
  }
  StagingBuffers(const StagingBuffers&) = delete;
  StagingBuffers& operator=(const StagingBuffers&) = delete;

  char* buffer(int b) const { return static_cast<char*>(buffers_[b]); }
  cudaEvent_t done(int b) const { return done_[b]; }

 private:
  void* buffers_[2] = {nullptr, nullptr};
  cudaEvent_t done_[2] = {nullptr, nullptr};
};

// dst[0, bytes) = src[0, bytes), by the host threads, each a contiguous slice.
void parallel_copy(char* dst, const char* src, std::size_t bytes) {
  const auto total = static_cast<std::int64_t>(bytes);
#pragma omp parallel
  {
    const std::int64_t threads = omp_get_num_threads(), thread = omp_get_thread_num();
    const std::int64_t from = total * thread / threads, to = total * (thread + 1) / threads;
    if (to > from) std::memcpy(dst + from, src + from, static_cast<std::size_t>(to - from));
  }
}

}  // namespace

void upload_staged(void* device, const void* host, std::size_t bytes, cudaStream_t stream) {
  if (bytes == 0) return;
  if (bytes < staged_upload_from) {
    SPK_CUDA_CHECK(cudaMemcpyAsync(device, host, bytes, cudaMemcpyHostToDevice, stream));
    SPK_CUDA_CHECK(cudaStreamSynchronize(stream));
    return;
  }
  const StagingBuffers staging;
  auto* to = static_cast<char*>(device);
  const auto* from = static_cast<const char*>(host);
  int b = 0;
  for (std::size_t offset = 0; offset < bytes; offset += chunk_bytes, b = 1 - b) {
    const std::size_t size = std::min(chunk_bytes, bytes - offset);
    SPK_CUDA_CHECK(cudaEventSynchronize(staging.done(b)));  // its last chunk has left
    parallel_copy(staging.buffer(b), from + offset, size);
    SPK_CUDA_CHECK(
        cudaMemcpyAsync(to + offset, staging.buffer(b), size, cudaMemcpyHostToDevice, stream));
    SPK_CUDA_CHECK(cudaEventRecord(staging.done(b), stream));
  }
  SPK_CUDA_CHECK(cudaStreamSynchronize(stream));  // before the staging buffers are freed
}

}  // namespace spk
