#include "solver/device_context.hpp"

#include "core/cuda_check.hpp"
#include "core/device.hpp"

namespace spk {

namespace {
constexpr std::size_t cublas_workspace_bytes = 4u << 20;
}

DeviceContext::DeviceContext(cudaStream_t stream) {
  (void)current_device_info();  // throws NoDevice with a clear message when there is no GPU
  if (stream == nullptr) {
    SPK_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    owns_stream_ = true;
  } else {
    stream_ = stream;
  }
  try {
    SPK_CUBLAS_CHECK(cublasCreate(&cublas_));
    SPK_CUBLAS_CHECK(cublasSetStream(cublas_, stream_));
    SPK_CUBLAS_CHECK(cublasSetPointerMode(cublas_, CUBLAS_POINTER_MODE_DEVICE));
    cublas_workspace_ = DeviceBuffer<unsigned char>(cublas_workspace_bytes, "cuBLAS workspace");
    SPK_CUBLAS_CHECK(
        cublasSetWorkspace(cublas_, cublas_workspace_.data(), cublas_workspace_.size()));
  } catch (...) {
    if (cublas_ != nullptr) (void)cublasDestroy(cublas_);
    if (owns_stream_) (void)cudaStreamDestroy(stream_);
    throw;
  }
}

DeviceContext::~DeviceContext() {
  if (cublas_ != nullptr) (void)cublasDestroy(cublas_);
  if (owns_stream_) (void)cudaStreamDestroy(stream_);
}

void DeviceContext::synchronize() const {
  if (stream_wait_ != nullptr)
    stream_wait_->wait(stream_);
  else
    SPK_CUDA_CHECK(cudaStreamSynchronize(stream_));
}

}  // namespace spk
