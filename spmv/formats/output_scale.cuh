#pragma once
// OutputScale<T>: the alpha and beta of SpmvBackend::apply_scaled, y = alpha A x + beta y, as
// every hand-written kernel applies them in the one write of a row's result:
//   y[row] = beta == 0 ? alpha * sum : alpha * sum + beta * y[row]
// With beta == 0, y is never read, so whatever y held (NaN poison included) cannot leak into
// the result. apply() passes alpha = 1, beta = 0: 1 * sum == sum exactly, so the plain
// product is bitwise what it was without the scale, and the branch is uniform across a launch.
#include <cuda_runtime.h>

namespace spk {

template <class T>
struct OutputScale {
  T alpha;
  T beta;

  // *y_entry = alpha * sum + beta * *y_entry (y_entry not read when beta == 0).
  __device__ __forceinline__ void store(T* y_entry, T sum) const {
    *y_entry = beta == T(0) ? alpha * sum : alpha * sum + beta * *y_entry;
  }
};

}  // namespace spk
