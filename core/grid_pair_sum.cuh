#pragma once
// Two sums over a whole grid in one kernel, without atomics in any sum (the CUDA
// threadFenceReduction pattern): used by the SpMV's dot epilogue (dot_output.cuh) and by the
// solver's fused vector reductions (solver/device_reductions.cuh).
//
//   add_up_block(a, b)     a and b summed over the block into thread 0's a and b: warp
//                          shuffles, then the warps' sums in warp order. Every thread of the
//                          block calls it; it ends with the block synchronized.
//   sum_pair_over_grid(a, b, block_sums, ticket)   each block's sums go to block_sums[2 block
//                          + 0/1]; the block that takes the last ticket (one atomicAdd, after
//                          a __threadfence) adds the gridDim.x block sums in block order and
//                          returns true, with the totals in its thread 0's a and b; every
//                          other block returns false. The caller's thread 0 of the last block
//                          writes the totals and re-arms the ticket (*ticket = 0) before the
//                          next launch on the stream.
// The order of every addition depends on the launch (grid and block size) only, never on
// timing: the same inputs give the same bits on every call.
#include <cuda_runtime.h>

#include "core/device_kernels.cuh"

namespace spk {

template <class T>
__device__ void add_up_block(T& a, T& b) {
  __shared__ T warp_sums[2][32];
  const int warp = static_cast<int>(threadIdx.x) / 32, lane = static_cast<int>(threadIdx.x) % 32;
  a = sub_warp_sum<32>(a);
  b = sub_warp_sum<32>(b);
  if (lane == 0) {
    warp_sums[0][warp] = a;
    warp_sums[1][warp] = b;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    a = b = T(0);
    for (int k = 0; k < static_cast<int>(blockDim.x) / 32; ++k) {  // warp order
      a += warp_sums[0][k];
      b += warp_sums[1][k];
    }
  }
  __syncthreads();
}

template <class T>
__device__ bool sum_pair_over_grid(T& a, T& b, T* block_sums, unsigned int* ticket) {
  __shared__ bool last_block;
  add_up_block(a, b);
  if (threadIdx.x == 0) {
    block_sums[2 * blockIdx.x] = a;
    block_sums[2 * blockIdx.x + 1] = b;
    __threadfence();  // this block's sums visible to the block that takes the last ticket
    last_block = atomicAdd(ticket, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last_block) return false;
  __threadfence();
  // Thread t adds blocks t, t + blockDim.x, ... in that order, loading 8 of them before
  // adding any (a grid of 16k blocks is 63 loads a thread: in flight, not one by one).
  constexpr int batch = 8;
  a = b = T(0);
  for (unsigned int k = threadIdx.x; k < gridDim.x; k += batch * blockDim.x) {
    T as[batch], bs[batch];
#pragma unroll
    for (int u = 0; u < batch; ++u) {
      const unsigned int block = k + u * blockDim.x;
      const bool inside = block < gridDim.x;
      as[u] = inside ? __ldcg(block_sums + 2 * block) : T(0);      // from L2: other blocks
      bs[u] = inside ? __ldcg(block_sums + 2 * block + 1) : T(0);  // wrote them
    }
#pragma unroll
    for (int u = 0; u < batch; ++u) {
      a += as[u];
      b += bs[u];
    }
  }
  add_up_block(a, b);
  return true;
}

}  // namespace spk
