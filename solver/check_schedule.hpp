#pragma once
// How many iterations the driver runs before its next look at the scalars (its "block").
// A look costs one host synchronization; an iteration run past convergence costs a whole
// iteration, which for a multigrid-preconditioned solve is a V-cycle: with fixed blocks of
// check_every = 16, an AMG-PCG solve that converges at iteration 17 runs 32 (measured on an
// H100 at 256^3, BENCHMARKS.md). So the first block is a quarter of check_every, enough to
// see a rate, and every later block is half the number of iterations the residual still
// needs at the geometric rate of the last block, capped at check_every and at the iterations
// run so far (blocks at most double). Half, and the doubling cap, because CG's rate improves
// as it goes: from a slow first block, the full prediction sent a whole block of 16 past a
// 15-iteration AMG solve (20 run, measured on an H100). The blocks shrink toward the end, for
// a few more looks (a look is tens of microseconds). The schedule depends only on the
// scalars, which every process of a distributed solve shares, so every process runs the same
// blocks.
#include <algorithm>
#include <cmath>

namespace spk {

class CheckSchedule {
 public:
  explicit CheckSchedule(int check_every) : check_every_(std::max(1, check_every)) {}

  // The next block, after a look at `iteration` with recursive residual norm `residual`;
  // `threshold` is the norm to reach, `iterations_left` what max_iterations allows (>= 1).
  int next_block(int iteration, double residual, double threshold, int iterations_left) {
    int block = have_last_ ? check_every_ : first_block();
    const int since = iteration - last_iteration_;
    if (have_last_ && since > 0 && residual > threshold && threshold > 0.0 &&
        last_residual_ > 0.0) {
      // rate^since = residual / last_residual;  needed = log(threshold / residual) / log(rate)
      const double log_rate = std::log(residual / last_residual_) / since;
      if (std::isfinite(log_rate) && log_rate < 0.0) {
        const double half = std::ceil(0.5 * std::log(threshold / residual) / log_rate);
        if (half < check_every_) block = std::max(1, static_cast<int>(half));
      }
    }
    // No longer than the iterations run so far (the first block's): blocks at most double,
    // so a slow early rate cannot send a whole check_every past a solve that then speeds up.
    if (have_last_) block = std::min(block, std::max(first_block(), iteration));
    have_last_ = true;
    last_iteration_ = iteration;
    last_residual_ = residual;
    return std::max(1, std::min(block, iterations_left));
  }

  // After a residual replacement the recurrence restarts: the last rate no longer applies.
  void restart() { have_last_ = false; }

  int check_every() const { return check_every_; }

 private:
  int first_block() const { return (check_every_ + 3) / 4; }

  int check_every_;
  bool have_last_ = false;
  int last_iteration_ = 0;
  double last_residual_ = 0.0;
};

}  // namespace spk
