#include "spmv/base/device.hpp"

#include "spmv/base/cuda_check.hpp"

namespace spk {

bool device_available() {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  return count > 0;
}

DeviceInfo current_device_info() {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess || count == 0) {
    (void)cudaGetLastError();
    throw NoDevice(std::string("no usable CUDA GPU: ") +
                   (status != cudaSuccess ? cudaGetErrorString(status) : "no device found") +
                   " (use device: cpu or device: auto)");
  }
  DeviceInfo info;
  SPK_CUDA_CHECK(cudaGetDevice(&info.ordinal));
  cudaDeviceProp properties{};
  SPK_CUDA_CHECK(cudaGetDeviceProperties(&properties, info.ordinal));
  info.name = properties.name;
  info.compute_major = properties.major;
  info.compute_minor = properties.minor;
  info.multiprocessors = properties.multiProcessorCount;
  info.global_memory_bytes = properties.totalGlobalMem;
  info.l2_cache_bytes = static_cast<std::size_t>(properties.l2CacheSize);
  return info;
}

}  // namespace spk
