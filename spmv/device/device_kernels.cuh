#pragma once
// Small device helpers of the setup kernels in spmv/device and the formats' device builders:
//
//   kSetupBlockSize            threads per block of every setup kernel (256)
//   setup_grid(n)              blocks for a grid-stride loop over n items (capped: the loops
//                              walk the rest), at least 1
//   for_each_index(n, f)       in a kernel: f(i) for every i < n, grid-stride
//   warp_min / warp_max / warp_sum   a value combined over the 32 lanes of a full warp
//                              (__shfl_xor_sync butterfly: every lane gets the result)
//   lowest_lane()              whether this thread is lane 0 of its warp
//   for_each_row_by_warp(rows, f)   in a kernel: f(row, lane) for every row, one warp a row
//                              (grid-stride over warps; launch setup_grid(rows * 32) blocks):
//                              the lanes of a long row share it
#include <cuda_runtime.h>

#include <cstdint>

namespace spk {

constexpr int kSetupBlockSize = 256;

inline unsigned int setup_grid(std::int64_t items) {
  constexpr std::int64_t max_blocks = 65535LL * 16;
  const std::int64_t blocks = (items + kSetupBlockSize - 1) / kSetupBlockSize;
  return static_cast<unsigned int>(blocks < 1 ? 1 : (blocks > max_blocks ? max_blocks : blocks));
}

template <class Index, class Body>
__device__ __forceinline__ void for_each_index(Index count, Body&& body) {
  const auto stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (auto i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += stride)
    body(static_cast<Index>(i));
}

template <class U>
__device__ __forceinline__ U warp_min(U value) {
  for (int offset = 16; offset > 0; offset /= 2) {
    const U other = __shfl_xor_sync(0xffffffffu, value, offset);
    value = other < value ? other : value;
  }
  return value;
}

template <class U>
__device__ __forceinline__ U warp_max(U value) {
  for (int offset = 16; offset > 0; offset /= 2) {
    const U other = __shfl_xor_sync(0xffffffffu, value, offset);
    value = other > value ? other : value;
  }
  return value;
}

template <class U>
__device__ __forceinline__ U warp_sum(U value) {
  for (int offset = 16; offset > 0; offset /= 2)
    value += __shfl_xor_sync(0xffffffffu, value, offset);
  return value;
}

__device__ __forceinline__ bool lowest_lane() {
  return threadIdx.x % 32u == 0;
}

template <class Body>
__device__ __forceinline__ void for_each_row_by_warp(std::int32_t rows, Body&& body) {
  const auto lane = static_cast<std::int32_t>(threadIdx.x % 32u);
  const auto warps = static_cast<std::int64_t>(gridDim.x) * blockDim.x / 32;
  for (auto row = (static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
       row < rows; row += warps)
    body(static_cast<std::int32_t>(row), lane);
}

}  // namespace spk
