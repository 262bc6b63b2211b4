#pragma once
// setup_grid(n): the blocks of kSetupBlockSize threads for a grid-stride loop over n items (the
// setup kernels, device_kernels.cuh's for_each_index): ceil(n / 256), capped at 65535 x 16
// (the loops walk the rest), at least 1. In 64 bits: n may pass 2^31 (a padded ELL array, a
// block's entries), and ceil(n / 256) must not wrap in the caller's int. Host-only, so the CPU
// tests check it at the edges.
#include <cstdint>

namespace spk {

constexpr int kSetupBlockSize = 256;

inline unsigned int setup_grid(std::int64_t items) {
  constexpr std::int64_t max_blocks = 65535LL * 16;
  const std::int64_t blocks = (items + kSetupBlockSize - 1) / kSetupBlockSize;
  return static_cast<unsigned int>(blocks < 1 ? 1 : (blocks > max_blocks ? max_blocks : blocks));
}

}  // namespace spk
