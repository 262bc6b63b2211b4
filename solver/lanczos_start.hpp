#pragma once
// Entry i of the Lanczos estimates' fixed start vector (solver/eigen_estimate.hpp): a value in
// [-1, 1) from splitmix64 of the global index, so the vector is the same on every path, run,
// thread count and partition. Integer operations and one exact conversion: the host and the
// device compute the same bits, each where the vector lives (no upload at setup).
#include <cstdint>

#include "core/host_device.hpp"

namespace spk {

SPK_HOST_DEVICE inline double lanczos_start_entry(std::uint64_t global_index) {
  std::uint64_t z = (global_index + 1) * 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z ^= z >> 31;
  return static_cast<double>(z >> 11) * 0x1.0p-52 - 1.0;
}

}  // namespace spk
