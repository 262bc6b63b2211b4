#pragma once
// SetupMemoryWatch: the device memory of one GPU setup (SetupInfo::memory), from its start
// (construction, on the setup's device) to finish(): cudaMemGetInfo at both ends, and between
// them the library's arrays' peak, steady state and largest allocation, and what it held at the
// peak and at the end by name (DeviceMemoryWatch, device_memory_meter.hpp).
#include "core/device_buffer.hpp"
#include "core/device_memory_meter.hpp"
#include "spkrylov/setup_info.hpp"

namespace spk {

class SetupMemoryWatch {
 public:
  // The setup's device must be current on this thread.
  SetupMemoryWatch() : before_(device_memory_info()) {}

  // The setup's memory so far (call when it has finished: its arrays freed or kept).
  DeviceMemoryUse finish() const {
    const DeviceMemorySpan span = watch_.span();
    DeviceMemoryUse use;
    use.total_bytes = before_.total_bytes;
    use.free_bytes = before_.free_bytes;
    use.free_after_bytes = device_memory_info().free_bytes;
    use.peak_bytes = span.peak;
    use.steady_bytes = span.steady;
    use.largest_bytes = span.largest_bytes;
    use.largest = span.largest_what;
    use.at_peak = holdings(span.peak_holders);
    use.after = holdings(device_memory_meter().largest_holders(DeviceMemoryWatch::holders_kept));
    return use;
  }

 private:
  static std::vector<MemoryHolding> holdings(const std::vector<MemoryHolder>& holders) {
    std::vector<MemoryHolding> kept;
    for (const MemoryHolder& holder : holders)
      kept.push_back(MemoryHolding{holder.what, holder.bytes, holder.arrays});
    return kept;
  }

  DeviceMemoryInfo before_;
  DeviceMemoryWatch watch_;
};

}  // namespace spk
