#pragma once
// Pipelined CG's update pass on the device (DeviceSpace::pipecg_update; the method is
// solver/pipecg.hpp, the row solver/pipecg_pass.hpp): one kernel.
//
//   1. every thread runs the iteration's scalar step on a private copy of the scalars (its
//      history pointer cleared: a copy records nothing) and takes alpha and beta from it, the
//      same bits as the step stores, as CoefficientStep does for one coefficient
//      (krylov_scalars.hpp); a stopped solve (the copy not running) updates nothing;
//   2. a grid-stride loop over the rows: the vectors, and the three sums (r, u), (r, r),
//      (w, u) of the new ones, per thread;
//   3. the three sums over the grid without atomics in any sum (the fused reductions'
//      pattern, solver/device_reductions.cuh): per-block sums, and the block that takes the
//      last ticket adds them in block order, runs the step for real (every block has read
//      the scalars: all took their tickets), then writes the totals into sums[0..3).
#include <cuda_runtime.h>

#include <cstddef>

#include "core/grid_pair_sum.cuh"
#include "solver/device_reductions.cuh"
#include "solver/krylov_scalars.hpp"
#include "solver/pipecg_pass.hpp"

namespace spk::pipecg_kernels {

// a, b, c summed over the grid: each block's sums go to block_sums[3 block + 0/1/2]; the
// block that takes the last ticket adds the gridDim.x block sums in block order and returns
// true with the totals in its thread 0's a, b, c. grid <= fused_reduction::max_blocks.
template <class T>
__device__ bool sum_three_over_grid(T& a, T& b, T& c, T* block_sums, unsigned int* ticket) {
  __shared__ bool last_block;
  T unused = T(0);
  add_up_block(a, b);
  add_up_block(c, unused);
  if (threadIdx.x == 0) {
    block_sums[3 * blockIdx.x] = a;
    block_sums[3 * blockIdx.x + 1] = b;
    block_sums[3 * blockIdx.x + 2] = c;
    __threadfence();  // this block's sums visible to the block that takes the last ticket
    last_block = atomicAdd(ticket, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last_block) return false;
  __threadfence();
  a = b = c = T(0);
  for (unsigned int k = threadIdx.x; k < gridDim.x; k += blockDim.x) {  // at most 4 a thread
    a += __ldcg(block_sums + 3 * k);  // from L2: other blocks wrote them
    b += __ldcg(block_sums + 3 * k + 1);
    c += __ldcg(block_sums + 3 * k + 2);
  }
  unused = T(0);
  add_up_block(a, b);
  add_up_block(c, unused);
  return true;
}

template <class T, class Step>
__global__ void __launch_bounds__(fused_reduction::block)
    update_kernel(std::size_t n, Step step, PipeCgVectors<T> vectors, T* partials,
                  unsigned int* ticket, T* sums, KrylovScalars<T>* scalars) {
  KrylovScalars<T> coefficients = *scalars;
  coefficients.history_residual = nullptr;  // the private copy records nothing
  step(coefficients);
  const bool moving = coefficients.running();
  const T a = coefficients.alpha, b = coefficients.beta;
  T r_u = T(0), r_r = T(0), w_u = T(0);
  if (moving) {
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
         i += stride)
      pipecg_row(vectors, i, a, b, r_u, r_r, w_u);
  }
  if (!sum_three_over_grid(r_u, r_r, w_u, partials, ticket)) return;
  if (threadIdx.x == 0) {
    step(*scalars);  // for real: the history entry, the new alpha, beta, status
    sums[0] = r_u;
    sums[1] = r_r;
    sums[2] = w_u;
    *ticket = 0u;  // for the next reduction (kernels on one stream never overlap)
  }
}

}  // namespace spk::pipecg_kernels
