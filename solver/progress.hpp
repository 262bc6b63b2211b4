#pragma once
// What the driver reports at each convergence check (for live progress lines).
#include <functional>

namespace spk {

struct Progress {
  int iteration = 0;
  double residual = 0.0;
  double threshold = 0.0;
  double elapsed_s = 0.0;
};
using ProgressCallback = std::function<void(const Progress&)>;

}  // namespace spk
