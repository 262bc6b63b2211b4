#pragma once
/// @file
/// spk::SolverOptions: the `solver:` keys of the YAML config, one field per key.
///
/// @code
///   spk::SolverOptions solver;                      // solver: {method: bicgstab, ...}
///   solver.method = spk::Method::bicgstab;
///   solver.tolerance = 1e-10;                       // ||r|| <= 1e-10 ||b|| (tolerance_mode rhs)
///   solver.preconditioner = spk::Preconditioner::jacobi;
///   solver.max_iterations = 5000;
/// @endcode
#include <string>

namespace spk {

enum class Method { cg, bicgstab };
enum class ToleranceMode {
  rhs,       // stop when ||r|| <= tolerance * ||b||
  initial,   // stop when ||r|| <= tolerance * ||r0||
  absolute,  // stop when ||r|| <= tolerance
};
enum class Preconditioner { none, jacobi };
// The `device:` key: auto uses the GPU when one is usable, else the CPU reference path.
enum class DeviceChoice { automatic, gpu, cpu };

struct SolverOptions {
  Method method = Method::cg;
  double tolerance = 1e-8;
  ToleranceMode tolerance_mode = ToleranceMode::rhs;
  int max_iterations = 10000;
  Preconditioner preconditioner = Preconditioner::none;
  // Stop with status `diverged` when ||r|| > divergence_factor * ||r0||. 0 (the default)
  // disables the test. BiCGSTAB's residual is not monotone, and with residual replacement
  // (krylov_driver.hpp) a solve whose residual peaked far above ||r0|| still reaches the
  // true tolerance: convdiff2d n=128 upwind Peclet 10 peaks at 7e29 x ||r0|| and converges
  // (true residual 1.9e-9) in 714 iterations; a factor of 1e10 stopped it at iteration 31
  // as `diverged` (BENCHMARKS.md, "Divergence test"). A hopeless solve still ends honestly:
  // `non_finite` on overflow, `stagnated`, `breakdown` or `max_iterations`.
  double divergence_factor = 0.0;
  // Stop with status `max_iterations`-like `time_limit` after this many seconds. 0 disables.
  double time_limit_s = 0.0;
  // GPU: read the residual back every check_every iterations (the device decides
  // convergence every iteration; this only bounds wasted iterations and history latency).
  int check_every = 16;
  // GPU: capture check_every iterations as a CUDA graph and replay it (measured on an H100:
  // 5-10% less time per iteration; BENCHMARKS.md). Re-captured when b or x pointers change.
  bool cuda_graph = true;
  // Keep the per-iteration residual history (needed for output.history and plots).
  bool keep_history = true;
};

// SpMV calls one iteration of the method makes (CG 1, BiCGSTAB 2).
inline int spmv_per_iteration(Method method) {
  return method == Method::bicgstab ? 2 : 1;
}

const char* to_string(Method method);
const char* to_string(ToleranceMode mode);
const char* to_string(Preconditioner preconditioner);

}  // namespace spk
