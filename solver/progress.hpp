#pragma once
/// @file
/// spk::ProgressCallback: what the driver reports at each convergence check (every
/// solver.check_every iterations), e.g. for a live progress line.
///
/// @code
///   solver.solve(b, x, [](const spk::Progress& p) { std::cerr << p.iteration << "\r"; });
/// @endcode
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
