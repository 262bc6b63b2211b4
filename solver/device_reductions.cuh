#pragma once
// The reductions of DeviceSpace's fused vector operations (solver.vector_ops: fused), each one
// kernel: a fixed grid of `block`-thread blocks runs the pass with a grid-stride loop and sums
// its two values per block (a fixed tree); the last block to finish (a ticket counter, the
// one atomic) adds the blocks' sums in block order and writes the totals, then runs the
// solver's next scalar step (KrylovScalars) in the same thread. The order of every addition
// is fixed by the grid, never by timing, so a solve gives the same bits run to run; and the
// totals and the step that reads them cost no kernel launch of their own (the CUDA threadFence
// reduction pattern: each block's sum is made visible with __threadfence() before its ticket).
#include <cuda_runtime.h>

#include <cstddef>

#include "core/grid_pair_sum.cuh"
#include "solver/krylov_scalars.hpp"

namespace spk::fused_reduction {

constexpr int block = 256;
constexpr int max_blocks = 1024;

// Blocks for n elements: at most max_blocks, at least 1.
inline int grid(std::size_t n) {
  const std::size_t blocks = (n + block - 1) / block;
  return static_cast<int>(blocks < 1 ? 1 : (blocks < max_blocks ? blocks : max_blocks));
}

// The end of every fused reduction kernel: (a, b) summed over the grid (sum_pair_over_grid,
// core/grid_pair_sum.cuh); the last block runs before(*scalars) (a pass's own
// coefficient step, CoefficientStep), writes sums[0] (and sums[1] when count is 2), re-arms
// the ticket and runs step(*scalars).
template <class T, class Before, class Step>
__device__ void finish_pair(T a, T b, T* partials, unsigned int* ticket, T* sums, int count,
                            const Before& before, const Step& step, KrylovScalars<T>* scalars) {
  if (!sum_pair_over_grid(a, b, partials, ticket)) return;
  if (threadIdx.x == 0) {
    before(*scalars);  // every block has read the scalars: all took their tickets
    sums[0] = a;
    if (count == 2) sums[1] = b;
    *ticket = 0u;  // for the next reduction (kernels on one stream never overlap)
    step(*scalars);
  }
}

// Where a kernel writes: its block partials, the ticket, the totals and the scalar step.
template <class T, class Step>
struct Finish {
  T* partials;
  unsigned int* ticket;
  T* sums;
  Step step;
  KrylovScalars<T>* scalars;
};

// sums[0] = (x, y)
template <class T, class Step>
__global__ void __launch_bounds__(block)
    dot_kernel(std::size_t n, const T* __restrict__ x, const T* __restrict__ y,
               Finish<T, Step> finish) {
  T x_y = T(0);
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride)
    x_y += x[i] * y[i];
  finish_pair(x_y, T(0), finish.partials, finish.ticket, finish.sums, 1, NoScalarStep{},
              finish.step, finish.scalars);
}

// x += alpha p (x given); r -= alpha ap; z = dinv .* r (dinv given, stored when z is given);
// sums[0] = (r, z), sums[1] = (r, r). alpha: a CoefficientStep (krylov_scalars.hpp), whose
// step the last block runs before the sums are written.
template <class T, class Coefficient, class Step>
__global__ void __launch_bounds__(block)
    cg_update_kernel(std::size_t n, Coefficient alpha, const T* __restrict__ p,
                     const T* __restrict__ ap, T* __restrict__ x, T* __restrict__ r,
                     const T* __restrict__ inverse_diagonal, T* __restrict__ z,
                     Finish<T, Step> finish) {
  const T a = alpha.value(*finish.scalars);
  T r_z = T(0), r_r = T(0);
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    if (x != nullptr) x[i] += a * p[i];
    const T r_i = r[i] - a * ap[i];
    r[i] = r_i;
    T z_i = r_i;
    if (inverse_diagonal != nullptr) {
      z_i = inverse_diagonal[i] * r_i;
      if (z != nullptr) z[i] = z_i;
    }
    r_z += r_i * z_i;
    r_r += r_i * r_i;
  }
  finish_pair(r_z, r_r, finish.partials, finish.ticket, finish.sums, 2, alpha, finish.step,
              finish.scalars);
}

// x += c u; r -= c w; z = dinv .* r (dinv given); sums[0] = (r_hat, r) and sums[1] = (r, r),
// or sums[0] = (r, r) alone without r_hat. c: a CoefficientStep, as cg_update_kernel's alpha.
template <class T, class Coefficient, class Step>
__global__ void __launch_bounds__(block)
    bicgstab_update_kernel(std::size_t n, Coefficient coefficient,
                           const T* u,  // may be r itself (unpreconditioned s_hat): no restrict
                           const T* __restrict__ w, T* __restrict__ x, T* r,
                           const T* __restrict__ inverse_diagonal, T* __restrict__ z,
                           const T* __restrict__ r_hat, Finish<T, Step> finish) {
  const T c = coefficient.value(*finish.scalars);
  T first = T(0), r_r = T(0);
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    x[i] += c * u[i];
    const T r_i = r[i] - c * w[i];
    r[i] = r_i;
    if (inverse_diagonal != nullptr) z[i] = inverse_diagonal[i] * r_i;
    first += (r_hat != nullptr ? r_hat[i] : r_i) * r_i;
    r_r += r_i * r_i;
  }
  finish_pair(first, r_r, finish.partials, finish.ticket, finish.sums, r_hat != nullptr ? 2 : 1,
              coefficient, finish.step, finish.scalars);
}

// sums[0] = (t, r), sums[1] = (t, t)
template <class T, class Step>
__global__ void __launch_bounds__(block)
    dot_pair_kernel(std::size_t n, const T* __restrict__ t, const T* __restrict__ r,
                    Finish<T, Step> finish) {
  T t_r = T(0), t_t = T(0);
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    const T t_i = t[i];
    t_r += t_i * r[i];
    t_t += t_i * t_i;
  }
  finish_pair(t_r, t_t, finish.partials, finish.ticket, finish.sums, 2, NoScalarStep{}, finish.step,
              finish.scalars);
}

}  // namespace spk::fused_reduction
