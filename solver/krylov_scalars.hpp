#pragma once
// KrylovScalars<T>: every scalar of a CG/BiCGSTAB iteration, kept where the vectors live
// (device memory on the GPU path, so no iteration needs a host synchronization).
// Reductions write into its fields (cuBLAS in device pointer mode takes &scalars->rho);
// small "scalar steps" (functors, run as a one-thread kernel on the GPU, inline on the
// CPU) compute alpha, beta, omega, and decide stopping every iteration.
//
// Once a stopping condition fires, `status` leaves `running` and the steps zero every
// update coefficient: the remaining iterations of a check block leave x and r untouched,
// so the reported iterate is exactly the one that stopped. The host reads the struct only
// between blocks of at most check_every iterations.
#include <chrono>
#include <cmath>
#include <cstdint>

#include "core/host_device.hpp"
#include "spkrylov/options.hpp"
#include "spkrylov/result.hpp"

namespace spk {

// Nanoseconds on a monotonic clock: %globaltimer on the device, steady_clock on the host.
// The two clocks have different origins; history times are taken relative to the solve's
// first recorded timestamp, which is always taken in the same space.
SPK_HOST_DEVICE inline std::uint64_t timestamp_ns() {
#if defined(__CUDA_ARCH__)
  std::uint64_t time;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(time));
  return time;
#else
  return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                        std::chrono::steady_clock::now().time_since_epoch())
                                        .count());
#endif
}

SPK_HOST_DEVICE inline bool is_finite(double value) {
#if defined(__CUDA_ARCH__)
  return isfinite(value);
#else
  return std::isfinite(value);
#endif
}

// ||r|| from (r, r): NaN and Inf pass through (so they are caught), and a tiny negative
// rounding result is clamped to 0.
template <class T>
SPK_HOST_DEVICE inline T norm_from_square(T square) {
  if (!is_finite(static_cast<double>(square))) return square;
#if defined(__CUDA_ARCH__)
  return sqrt(square > T(0) ? square : T(0));
#else
  return std::sqrt(square > T(0) ? square : T(0));
#endif
}

// The scalar step of a fused reduction that is followed by none (vector_space.hpp).
struct NoScalarStep {
  template <class Scalars>
  SPK_HOST_DEVICE void operator()(Scalars& /*scalars*/) const {}
};

template <class T>
struct KrylovScalars {
  // Constants for cuBLAS calls in device pointer mode.
  T one = T(1);

  // Written by reductions.
  T b_norm = T(0);                   // ||b||
  T residual_norm = T(0);            // ||r||
  T rho = T(0);                      // CG: (r, z); BiCGSTAB: (r_hat, r)
  T r_r = T(0);                      // CG with fused vector ops: (r, r), right after rho
  T p_ap = T(0);                     // CG: (p, Ap)
  T rhat_v = T(0);                   // BiCGSTAB: (r_hat, v)
  T s_norm = T(0);                   // BiCGSTAB: ||s||
  T t_s = T(0);                      // BiCGSTAB: (t, s)
  T t_t = T(0);                      // BiCGSTAB: (t, t)
  T residual_norm_candidate = T(0);  // BiCGSTAB: ||r|| before it is tested
  T restart_residual = T(0);         // BiCGSTAB: ||r_hat||
  T true_residual = T(0);            // ||b - A x||, computed by the driver at the end

  // Computed by scalar steps.
  T rho_old = T(1);
  T alpha = T(0);
  T minus_alpha = T(0);
  // CG with fused vector ops: the alpha of x += alpha p, which runs after beta's test (in the
  // direction pass). Set by the alpha step, kept by freeze(): the iteration that stops still
  // moves x with the r it has already updated.
  T deferred_alpha = T(0);
  T beta = T(0);
  T omega = T(1);
  T minus_omega = T(0);

  // Stopping state. threshold, initial_residual and divergence_limit are set by the
  // algorithm's first step from tolerance/tolerance_mode/divergence_factor.
  double tolerance = 0.0;
  ToleranceMode tolerance_mode = ToleranceMode::rhs;
  double divergence_factor = 0.0;
  double threshold = 0.0;         // absolute residual norm to reach
  double initial_residual = 0.0;  // ||r0||
  double divergence_limit = 0.0;  // ||r|| above this: diverged (0 = off)
  int iteration = 0;              // completed iterations
  int max_iterations = 0;
  SolveStatus status = SolveStatus::running;
  BreakdownQuantity breakdown = BreakdownQuantity::none;
  int stop_iteration = 0;  // iteration at which status was set

  // Residual history in the same memory space: residual norm and timestamp per iteration.
  T* history_residual = nullptr;
  std::uint64_t* history_time_ns = nullptr;
  int history_capacity = 0;

  SPK_HOST_DEVICE bool running() const { return status == SolveStatus::running; }
  SPK_HOST_DEVICE void stop(SolveStatus reason,
                            BreakdownQuantity quantity = BreakdownQuantity::none) {
    if (!running()) return;
    status = reason;
    breakdown = quantity;
    stop_iteration = iteration;
  }
  // Zeroes every update coefficient: x and r stay as they are.
  SPK_HOST_DEVICE void freeze() { alpha = minus_alpha = beta = omega = minus_omega = T(0); }
  // Sets threshold and divergence limit from ||b|| and ||r0|| (first start only; a
  // residual-replacement restart keeps them).
  SPK_HOST_DEVICE void set_stopping_targets(T r0_norm) {
    initial_residual = static_cast<double>(r0_norm);
    switch (tolerance_mode) {
      case ToleranceMode::rhs: threshold = tolerance * static_cast<double>(b_norm); break;
      case ToleranceMode::initial: threshold = tolerance * initial_residual; break;
      case ToleranceMode::absolute: threshold = tolerance; break;
    }
    divergence_limit = divergence_factor > 0.0 ? divergence_factor * initial_residual : 0.0;
  }
  SPK_HOST_DEVICE void record(T norm) {
    if (history_residual != nullptr && iteration < history_capacity) {
      history_residual[iteration] = norm;
      history_time_ns[iteration] = timestamp_ns();
    }
  }
  // The residual test run after every (half) iteration: convergence, divergence, non-finite
  // values and the iteration limit, in that order. Records the history entry.
  SPK_HOST_DEVICE void check_residual(T norm) {
    if (!running()) return;
    residual_norm = norm;
    record(norm);
    const double value = static_cast<double>(norm);
    if (!is_finite(value)) {
      stop(SolveStatus::non_finite);
    } else if (value <= threshold) {
      stop(SolveStatus::converged);
    } else if (divergence_limit > 0.0 && value > divergence_limit) {
      stop(SolveStatus::diverged);
    } else if (iteration >= max_iterations) {
      stop(SolveStatus::max_iterations);
    }
  }
};

// A scalar step and the coefficient it makes (a member of KrylovScalars: alpha, omega), for a
// fused pass that runs the step itself instead of after a launch of its own (vector_space.hpp:
// cg_update, bicgstab_update). Every thread of the pass takes value(): the step run on a
// private copy of the scalars, so the same expression and the same bits as the step stores,
// 0 when the step stops the solve (it freezes). The pass then runs the step once, before it
// writes its own sums. The step must change nothing but the scalars (no history record).
template <class T, class Step, auto Coefficient>
struct CoefficientStep {
  // A compile-time member: the copy in value() then lives in registers, and only the fields
  // the step reads are loaded (a runtime member pointer put it on the stack: 256 bytes a
  // thread, measured 45 us a pass on an H100).
  static constexpr auto coefficient = Coefficient;
  Step step;

  SPK_HOST_DEVICE T value(const KrylovScalars<T>& scalars) const {
    KrylovScalars<T> copy = scalars;
    step(copy);
    return copy.*Coefficient;
  }
  SPK_HOST_DEVICE void operator()(KrylovScalars<T>& scalars) const { step(scalars); }
};

// Machine epsilon of T, usable on the device.
template <class T>
SPK_HOST_DEVICE constexpr T epsilon_of() {
  return sizeof(T) == 4 ? T(1.1920928955078125e-07) : T(2.220446049250313e-16);
}

}  // namespace spk
