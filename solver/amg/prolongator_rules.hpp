#pragma once
// The arithmetic of the tentative and smoothed prolongators (solver/amg/tentative_prolongator.hpp,
// solver/amg/smoothed_prolongator.hpp), written once for the host's loops and the device's
// kernels. Each operation is rounded on its own (__dmul_rn/__dadd_rn on the device, which nvcc
// does not contract into fused multiply-adds; the host build uses no FMA), so both paths round
// alike: T comes out bitwise the host's, P as close as the sparse product A T allows.
#include "core/host_device.hpp"
#include "spmv/host/csr_matrix.hpp"

namespace spk {

SPK_HOST_DEVICE inline double rounded_product(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dmul_rn(a, b);
#else
  return a * b;
#endif
}
SPK_HOST_DEVICE inline double rounded_sum(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dadd_rn(a, b);
#else
  return a + b;
#endif
}

// One step of ||B on an aggregate||^2, the members taken in increasing row order: sum + b^2.
SPK_HOST_DEVICE inline double add_square(double sum, double b) {
  return rounded_sum(sum, rounded_product(b, b));
}

// Row `row` of P = T - (omega / lambda) D^-1 A T, from its entries holding (A T)_row: each
// scaled by scale = -(omega / lambda) / a_ii, then T's entries of the row (t_offsets[row] ..
// t_offsets[row + 1], one for a scalar problem, k for a system, none for a left-out node)
// added where they sit in P's row (t_positions).
SPK_HOST_DEVICE inline void smooth_prolongator_row(index_t row, const index_t* row_offsets,
                                                   double* values, double scale,
                                                   const index_t* t_offsets,
                                                   const index_t* t_positions,
                                                   const double* t_values) {
  for (index_t k = row_offsets[row]; k < row_offsets[row + 1]; ++k)
    values[k] = rounded_product(values[k], scale);  // -(omega / lambda) D^-1 A T
  for (index_t t = t_offsets[row]; t < t_offsets[row + 1]; ++t)
    values[t_positions[t]] = rounded_sum(values[t_positions[t]], t_values[t]);  // + T
}

}  // namespace spk
