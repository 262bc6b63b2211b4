#pragma once
// DotOutput<T>: the output of a row kernel (output_scale.cuh) for SpmvBackend::apply_dots. It
// writes y[row] = sum as PlainOutput does, and sums (w, y) and (y, y) over the rows on the way,
// so the solver's dot products after an SpMV cost no pass over w and y and no launch of
// their own: the dot in the SpMV's epilogue (GHOST's SpMV DOT flag; the fused CG of
// ../shared/notes/anchors-performance-kernels.md, section 1).
//
// A kernel that takes it keeps each thread's partial sums apart from it (sums =
// output.start(); output.store(y, row, sum, sums) for every row), so the output stays a
// kernel parameter and its pointers cost no registers, and calls output.finish(sums) with
// every thread of the block after its row loop (PlainOutput and OutputScale have the same
// form, with no state and nothing to finish). finish():
//   * the block's two sums, a fixed tree: warp shuffles, then the warps' sums in warp order,
//     into block_sums[2 blockIdx.x + 0/1];
//   * the last block to take the ticket (the one atomic, after a __threadfence) adds the
//     gridDim.x block sums in block order, writes sums[0] = (w, y) (and sums[1] = (y, y) when
//     count is 2) and re-arms the ticket for the next launch on the stream.
// Every addition's order depends on the launch (grid and block size), never on timing: the
// same inputs give the same bits on every call. No atomics in any sum.
//
// DotSums: the block sums and the ticket, device memory a backend owns, sized for its largest
// grid (one block per 32 rows): 16 bytes per 32 rows, scratch that device_bytes() (the stored
// matrix) does not count.
#include <cuda_runtime.h>

#include <cstddef>
#include <string>

#include "spmv/base/cuda_check.hpp"
#include "spmv/base/device_buffer.hpp"
#include "spmv/formats/csr_kernel_support.cuh"
#include "spmv/host/csr_matrix.hpp"

namespace spk {

template <class T>
struct DotOutput {
  const T* w;          // rows entries, paired with y
  T* block_sums;       // 2 per block
  unsigned int* ticket;
  T* sums;             // sums[0] = (w, y), sums[1] = (y, y) when count is 2
  int count;

  struct Partial {  // a thread's share
    T w_y = T(0);
    T y_y = T(0);
  };

  __device__ __forceinline__ Partial start() const { return {}; }
  __device__ __forceinline__ void store(T* y, std::size_t row, T sum, Partial& partial) const {
    y[row] = sum;
    partial.w_y += w[row] * sum;
    partial.y_y += sum * sum;
  }

  __device__ void finish(Partial& partial) const {
    T w_y = partial.w_y, y_y = partial.y_y;
    __shared__ T warp_sums[2][32];
    __shared__ bool last_block;
    const int warp = static_cast<int>(threadIdx.x) / 32, lane = static_cast<int>(threadIdx.x) % 32;
    const int warps = static_cast<int>(blockDim.x) / 32;
    add_up_block(w_y, y_y, warp_sums, warp, lane, warps);
    if (threadIdx.x == 0) {
      block_sums[2 * blockIdx.x] = w_y;
      block_sums[2 * blockIdx.x + 1] = y_y;
      __threadfence();  // this block's sums visible to the block that takes the last ticket
      last_block = atomicAdd(ticket, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (!last_block) return;
    __threadfence();
    // Thread t adds blocks t, t + blockDim.x, ... in that order, loading 8 of them before
    // adding any (a grid of 16k blocks is 63 loads a thread: in flight, not one by one).
    constexpr int batch = 8;
    T total_w_y = T(0), total_y_y = T(0);
    for (unsigned int k = threadIdx.x; k < gridDim.x; k += batch * blockDim.x) {
      T w_ys[batch], y_ys[batch];
#pragma unroll
      for (int u = 0; u < batch; ++u) {
        const unsigned int block = k + u * blockDim.x;
        const bool inside = block < gridDim.x;
        w_ys[u] = inside ? __ldcg(block_sums + 2 * block) : T(0);  // from L2: other blocks
        y_ys[u] = inside ? __ldcg(block_sums + 2 * block + 1) : T(0);  // wrote them
      }
#pragma unroll
      for (int u = 0; u < batch; ++u) {
        total_w_y += w_ys[u];
        total_y_y += y_ys[u];
      }
    }
    add_up_block(total_w_y, total_y_y, warp_sums, warp, lane, warps);
    if (threadIdx.x == 0) {
      sums[0] = total_w_y;
      if (count == 2) sums[1] = total_y_y;
      *ticket = 0u;  // kernels on one stream never overlap
    }
  }

 private:
  // a and b summed over the block, into thread 0's a and b; ends with the block synchronized.
  __device__ static void add_up_block(T& a, T& b, T (&warp_sums)[2][32], int warp, int lane,
                                      int warps) {
    a = sub_warp_sum<32>(a);
    b = sub_warp_sum<32>(b);
    if (lane == 0) {
      warp_sums[0][warp] = a;
      warp_sums[1][warp] = b;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
      a = b = T(0);
      for (int k = 0; k < warps; ++k) {  // warp order
        a += warp_sums[0][k];
        b += warp_sums[1][k];
      }
    }
    __syncthreads();
  }
};

template <class T>
class DotSums {
 public:
  DotSums() = default;
  // For kernels of at most one block per 32 rows (the smallest block size, exact grid).
  DotSums(index_t rows, cudaStream_t stream)
      : block_sums_(2 * (static_cast<std::size_t>(rows) / 32 + 1), "SpMV dot block sums"),
        ticket_(1, "SpMV dot ticket") {
    SPK_CUDA_CHECK(cudaMemsetAsync(ticket_.data(), 0, sizeof(unsigned int), stream));
  }

  DotOutput<T> output(const T* w, T* sums, int count) const {
    return DotOutput<T>{w, block_sums_.data(), ticket_.data(), sums, count};
  }

 private:
  // Written by the kernels of a const apply: the backend's scratch, not its state.
  mutable DeviceBuffer<T> block_sums_;
  mutable DeviceBuffer<unsigned int> ticket_;
};

}  // namespace spk
