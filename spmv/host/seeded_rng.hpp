#pragma once
// SeededRng: a small deterministic pseudo-random generator (SplitMix64) with independent
// streams, so that generated matrices depend only on (seed, stream) and not on the number
// of threads: parallel generators give every row its own stream.
#include <cstdint>

namespace spk {

class SeededRng {
 public:
  SeededRng(std::uint64_t seed, std::uint64_t stream) : state_(mix(seed ^ mix(stream + 1))) {}

  std::uint64_t next() {
    state_ += 0x9E3779B97F4A7C15ull;
    return mix(state_);
  }
  // Uniform in [0, 1), 53 random bits.
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  // Uniform in (0, 1].
  double uniform_open_closed() { return 1.0 - uniform(); }
  // Uniform integer in [0, bound), bound >= 1.
  std::uint64_t below(std::uint64_t bound) {
    const auto value = static_cast<std::uint64_t>(uniform() * static_cast<double>(bound));
    return value < bound ? value : bound - 1;
  }

 private:
  static std::uint64_t mix(std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  std::uint64_t state_;
};

}  // namespace spk
