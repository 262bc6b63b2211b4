#include "solver/pointer_location.hpp"

#include <cuda_runtime.h>

#include "core/cuda_check.hpp"
#include "core/device.hpp"

namespace spk {

bool is_device_pointer(const void* pointer) {
  if (pointer == nullptr || !device_available()) return false;
  cudaPointerAttributes attributes{};
  SPK_CUDA_CHECK(cudaPointerGetAttributes(&attributes, pointer));
  return attributes.type == cudaMemoryTypeDevice || attributes.type == cudaMemoryTypeManaged;
}

bool host_cannot_read(const void* pointer) {
  if (pointer == nullptr || !device_available()) return false;
  cudaPointerAttributes attributes{};
  SPK_CUDA_CHECK(cudaPointerGetAttributes(&attributes, pointer));
  return attributes.type == cudaMemoryTypeDevice;
}

bool device_can_read(const void* pointer) {
  if (pointer == nullptr || !device_available()) return false;
  cudaPointerAttributes attributes{};
  SPK_CUDA_CHECK(cudaPointerGetAttributes(&attributes, pointer));
  return attributes.type != cudaMemoryTypeUnregistered;
}

}  // namespace spk
