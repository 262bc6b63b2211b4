#include "core/device.hpp"

#include <cstdlib>

#include "core/cuda_check.hpp"
#include "core/printable_text.hpp"

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

CudaVersions cuda_versions() {
  CudaVersions versions;
  if (cudaRuntimeGetVersion(&versions.runtime) != cudaSuccess) versions.runtime = 0;
  if (cudaDriverGetVersion(&versions.driver) != cudaSuccess) versions.driver = 0;
  (void)cudaGetLastError();
  return versions;
}

std::string cuda_version_text(int version) {
  if (version <= 0) return "none";
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

std::string no_gpu_reason() {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  (void)cudaGetLastError();
  if (status == cudaSuccess && count > 0) return "";
  const char* visible = std::getenv("CUDA_VISIBLE_DEVICES");
  const std::string visible_note =
      visible != nullptr ? " (CUDA_VISIBLE_DEVICES=" + input_excerpt(visible) + ")" : "";
  if (status == cudaSuccess || status == cudaErrorNoDevice)
    return "no CUDA device found" + visible_note;
  const CudaVersions versions = cuda_versions();
  if (status == cudaErrorInsufficientDriver) {
    if (versions.driver == 0) return "no NVIDIA driver found";
    return "the NVIDIA driver supports CUDA " + cuda_version_text(versions.driver) +
           ", older than this build's CUDA runtime " + cuda_version_text(versions.runtime);
  }
  return std::string(cudaGetErrorString(status)) + visible_note;
}

DeviceInfo current_device_info() {
  const std::string reason = no_gpu_reason();
  if (!reason.empty()) throw NoDevice("no usable CUDA GPU: " + reason);
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
