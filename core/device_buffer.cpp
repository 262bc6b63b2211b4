#include "core/device_buffer.hpp"

#include <sstream>

#include "core/device_memory_meter.hpp"

namespace spk {

void* device_allocate(std::size_t bytes, const std::string& what) {
  void* pointer = nullptr;
  const cudaError_t status = cudaMalloc(&pointer, bytes);
  if (status == cudaErrorMemoryAllocation) {
    (void)cudaGetLastError();  // clear the sticky-free error state
    std::size_t free_bytes = 0, total_bytes = 0;
    (void)cudaMemGetInfo(&free_bytes, &total_bytes);
    std::ostringstream message;
    message << "out of device memory allocating " << what << ": requested " << bytes << " bytes, "
            << free_bytes << " of " << total_bytes
            << " bytes free; try a more compact format, precision: single or amg resetup: rebuild";
    const std::string holders = device_memory_meter().holders_text();
    if (!holders.empty()) message << " (" << holders << ")";
    throw OutOfDeviceMemory(message.str(), bytes, free_bytes);
  }
  SPK_CUDA_CHECK(status);
  try {
    if (pointer != nullptr) device_memory_meter().allocated(pointer, bytes, what);
  } catch (...) {  // the meter's own bookkeeping failed (host memory): no leak
    (void)cudaFree(pointer);
    throw;
  }
  return pointer;
}

DeviceMemoryInfo device_memory_info() noexcept {
  DeviceMemoryInfo info;
  if (cudaMemGetInfo(&info.free_bytes, &info.total_bytes) != cudaSuccess) {
    (void)cudaGetLastError();
    info = DeviceMemoryInfo{};
  }
  return info;
}

void copy_synchronously(void* destination, const void* source, std::size_t bytes,
                        cudaMemcpyKind kind) {
  SPK_CUDA_CHECK(cudaMemcpyAsync(destination, source, bytes, kind, cudaStreamPerThread));
  SPK_CUDA_CHECK(cudaStreamSynchronize(cudaStreamPerThread));
}

void device_free(void* pointer) noexcept {
  if (pointer == nullptr) return;
  device_memory_meter().freed(pointer);
  (void)cudaFree(pointer);
}

}  // namespace spk
