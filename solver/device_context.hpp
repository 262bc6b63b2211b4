#pragma once
// DeviceContext: the CUDA stream and the cuBLAS handle a GPU solve runs on. The cuBLAS
// handle is bound to the stream and set to device pointer mode (scalars stay on the GPU),
// with a fixed workspace so the iteration can be captured in a CUDA graph.
//
// The stream is either owned (created non-blocking) or borrowed from the caller; nothing
// here synchronizes the whole device.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include "core/device_buffer.hpp"

namespace spk {

class DeviceContext {
 public:
  // stream == nullptr: create and own a non-blocking stream.
  explicit DeviceContext(cudaStream_t stream = nullptr);
  ~DeviceContext();
  DeviceContext(const DeviceContext&) = delete;
  DeviceContext& operator=(const DeviceContext&) = delete;

  cudaStream_t stream() const { return stream_; }
  cublasHandle_t cublas() const { return cublas_; }
  void synchronize() const;

 private:
  cudaStream_t stream_ = nullptr;
  bool owns_stream_ = false;
  cublasHandle_t cublas_ = nullptr;
  DeviceBuffer<unsigned char> cublas_workspace_;
};

}  // namespace spk
