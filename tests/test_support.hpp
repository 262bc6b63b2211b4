#pragma once
// Shared test helpers: data paths, GPU presence, relative error, poisoning, generator specs.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "core/device.hpp"
#include "spmv/host/generator_spec.hpp"

namespace spk::test {

// The repository root: $SPK_SOURCE_DIR when set (binaries run from another checkout, e.g.
// on the GPU machine), else the source tree the tests were built from.
inline std::string source_dir() {
  const char* value = std::getenv("SPK_SOURCE_DIR");
  return value != nullptr && *value != '\0' ? std::string(value) : std::string(SPK_SOURCE_DIR);
}

// Files under data/ (the real matrices, copied from ../shared/matrices with attribution).
inline std::string data_path(const std::string& name) {
  return source_dir() + "/data/" + name;
}

// A grid generator's spec (convection-diffusion kinds at Peclet 1.5).
inline GeneratorSpec grid_spec(const std::string& kind, int n, int stencil = 7) {
  GeneratorSpec spec;
  spec.kind = kind;
  spec.n = n;
  spec.stencil = stencil;
  spec.peclet = 1.5;
  return spec;
}

inline bool gpu_required() {
  const char* value = std::getenv("SPK_REQUIRE_GPU");
  return value != nullptr && std::string(value) == "1";
}

// ||a - b|| / ||b|| in fp64; NaN anywhere gives +inf so it never passes.
template <class A, class B>
double relative_error(const std::vector<A>& a, const std::vector<B>& b) {
  if (a.size() != b.size()) return std::numeric_limits<double>::infinity();
  double diff = 0.0, norm = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double ai = static_cast<double>(a[i]), bi = static_cast<double>(b[i]);
    if (!std::isfinite(ai)) return std::numeric_limits<double>::infinity();
    diff += (ai - bi) * (ai - bi);
    norm += bi * bi;
  }
  return norm == 0.0 ? std::sqrt(diff) : std::sqrt(diff / norm);
}

// A random engine seeded afresh each run; its seed is in every failure message of the scope
// that holds it.
class FreshRandom {
 public:
  std::mt19937_64& engine() { return engine_; }

 private:
  unsigned seed_ = std::random_device{}();
  ::testing::ScopedTrace trace_{__FILE__, __LINE__, "random seed " + std::to_string(seed_)};
  std::mt19937_64 engine_{seed_};
};

}  // namespace spk::test

// Skips (or fails, under SPK_REQUIRE_GPU=1) when no GPU is usable.
#define SPK_REQUIRE_GPU_OR_SKIP()                                                      \
  do {                                                                                 \
    if (!::spk::device_available()) {                                                  \
      if (::spk::test::gpu_required()) FAIL() << "SPK_REQUIRE_GPU=1 but no GPU found"; \
      GTEST_SKIP() << "no CUDA GPU on this machine";                                   \
    }                                                                                  \
  } while (0)
