#pragma once
// How a hand-written kernel writes a row's result: the alpha and beta of
// SpmvBackend::apply_scaled, y = alpha A x + beta y, applied in the one write of each row.
//
//   PlainOutput      y[row] = sum: what apply() asks for (alpha = 1, beta = 0). The kernels
//                    then compile to what they were before apply_scaled existed: no scale
//                    parameters, no extra registers, the same instruction stream.
//   OutputScale<T>   y[row] = beta == 0 ? alpha * sum : alpha * sum + beta * y[row]. With
//                    beta == 0, y is never read, so whatever it held (NaN poison included)
//                    cannot leak into the result; the branch is uniform across a launch.
// Both also give times_alpha(sum) (sum, or alpha * sum) for HYB's COO part, whose atomics add
// to the y the ELL part has already written. The ELL kernels, which also take DotOutput
// (dot_output.cuh), use the form with a per-thread state: sums = start(), store(y, row, sum,
// sums), finish(sums); here the state is empty and finish does nothing.
//
// with_output(alpha, beta, launch) (host) calls launch(PlainOutput{}) for alpha = 1 and
// beta = 0, launch(OutputScale<T>{alpha, beta}) otherwise: every kernel is compiled for both.
#include <cuda_runtime.h>

#include <cstddef>

namespace spk {

// The per-thread state of an output that keeps none (DotOutput keeps its partial sums).
struct NoSums {};

struct PlainOutput {
  template <class T>
  __device__ __forceinline__ void store(T* y_entry, T sum) const {
    *y_entry = sum;
  }
  template <class T>
  __device__ __forceinline__ T times_alpha(T sum) const {
    return sum;
  }
  // The ELL kernels' form (dot_output.cuh): a per-thread state, here none.
  __device__ __forceinline__ NoSums start() const { return {}; }
  template <class T>
  __device__ __forceinline__ void store(T* y, std::size_t row, T sum, NoSums& /*sums*/) const {
    store(y + row, sum);
  }
  __device__ __forceinline__ void finish(NoSums& /*sums*/) const {}
};

template <class T>
struct OutputScale {
  T alpha;
  T beta;

  // *y_entry = alpha * sum + beta * *y_entry (y_entry not read when beta == 0).
  __device__ __forceinline__ void store(T* y_entry, T sum) const {
    *y_entry = beta == T(0) ? alpha * sum : alpha * sum + beta * *y_entry;
  }
  __device__ __forceinline__ T times_alpha(T sum) const { return alpha * sum; }
  __device__ __forceinline__ NoSums start() const { return {}; }
  __device__ __forceinline__ void store(T* y, std::size_t row, T sum, NoSums& /*sums*/) const {
    store(y + row, sum);
  }
  __device__ __forceinline__ void finish(NoSums& /*sums*/) const {}
};

template <class T, class Launch>
void with_output(T alpha, T beta, Launch&& launch) {
  if (alpha == T(1) && beta == T(0))
    launch(PlainOutput{});
  else
    launch(OutputScale<T>{alpha, beta});
}

}  // namespace spk
