#pragma once
// DeviceContext: the CUDA stream and the cuBLAS handle a GPU solve runs on. The cuBLAS
// handle is bound to the stream and set to device pointer mode (scalars stay on the GPU),
// with a fixed workspace so the iteration can be captured in a CUDA graph.
//
// The stream is either owned (created non-blocking) or borrowed from the caller; nothing
// here synchronizes the whole device. How the host waits for the stream can be replaced
// (StreamWait): a distributed solve over NCCL polls, so that a peer's failure does not leave
// the host blocked behind a collective kernel that will never finish.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include "core/device_buffer.hpp"

namespace spk {

// A way for the host to wait until a stream has run everything queued on it.
class StreamWait {
 public:
  virtual ~StreamWait() = default;
  virtual void wait(cudaStream_t stream) = 0;
};

class DeviceContext {
 public:
  // stream == nullptr: create and own a non-blocking stream.
  explicit DeviceContext(cudaStream_t stream = nullptr);
  ~DeviceContext();
  DeviceContext(const DeviceContext&) = delete;
  DeviceContext& operator=(const DeviceContext&) = delete;

  cudaStream_t stream() const { return stream_; }
  cublasHandle_t cublas() const { return cublas_; }
  // Waits for the stream: the installed StreamWait, else cudaStreamSynchronize.
  void synchronize() const;
  // Before a copy between the stream and pageable host memory, which can block the host
  // inside cudaMemcpyAsync until the stream reaches it: waits with the installed StreamWait
  // (nothing without one: the copy's own wait is then as good).
  void wait_before_host_copy() const {
    if (stream_wait_ != nullptr) stream_wait_->wait(stream_);
  }
  // Not owned (must outlive its use); null: cudaStreamSynchronize.
  void set_stream_wait(StreamWait* wait) { stream_wait_ = wait; }

 private:
  cudaStream_t stream_ = nullptr;
  bool owns_stream_ = false;
  cublasHandle_t cublas_ = nullptr;
  DeviceBuffer<unsigned char> cublas_workspace_;
  StreamWait* stream_wait_ = nullptr;
};

}  // namespace spk
