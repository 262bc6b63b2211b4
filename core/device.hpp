#pragma once
// Which GPU we run on. `device_available()` never throws: on a machine without a driver
// or a GPU it returns false, so CPU paths and GTEST_SKIP work there.
#include <cstddef>
#include <string>

namespace spk {

struct DeviceInfo {
  int ordinal = 0;
  std::string name;
  int compute_major = 0;
  int compute_minor = 0;
  int multiprocessors = 0;
  std::size_t global_memory_bytes = 0;
  std::size_t l2_cache_bytes = 0;
};

bool device_available();
// Throws spk::NoDevice with a one-line reason when no GPU can be used:
// "no usable CUDA GPU: " + no_gpu_reason(). The message gives no remedy: which one fits
// (a config's `device: cpu`, an option of the program) is for the caller to add.
DeviceInfo current_device_info();

// Why no GPU is usable, in words that say what is true: "no NVIDIA driver found", "no CUDA
// device found", "the NVIDIA driver supports CUDA 11.4, older than this build's CUDA runtime
// 12.4", ...; "" when a GPU is usable.
std::string no_gpu_reason();

// The CUDA versions as numbers 1000 * major + 10 * minor (12040 = 12.4); `driver` is 0
// when no NVIDIA driver is installed. Never throws.
struct CudaVersions {
  int runtime = 0;
  int driver = 0;
};
CudaVersions cuda_versions();
// 12040 -> "12.4"; 0 -> "none".
std::string cuda_version_text(int version);

}  // namespace spk
