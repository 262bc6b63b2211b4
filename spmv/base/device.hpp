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
// Throws spk::NoDevice with a one-line reason when no GPU can be used.
DeviceInfo current_device_info();

}  // namespace spk
