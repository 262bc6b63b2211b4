#pragma once
// Small device helpers that every layer's kernels share (the setup kernels, the formats'
// builders and products, the solver's reductions):
//
//   kSetupBlockSize            threads per block of every setup kernel (256)
//   setup_grid(n)              blocks for a grid-stride loop over n items (capped: the loops
//                              walk the rest), at least 1
//   for_each_index(n, f)       in a kernel: f(i) for every i < n, grid-stride
//   iota_kernel(n, values)     values[i] = i for i < n (a permutation's start, before a sort)
//   fill_value_kernel(n, v, values)  values[i] = v for i < n
//   fill_on_stream(n, v, values, stream)  its launch on `stream` (none for n = 0), checked
//   warp_min / warp_max / warp_sum   a value combined over the 32 lanes of a full warp
//                              (__shfl_xor_sync butterfly: every lane gets the result)
//   lowest_lane()              whether this thread is lane 0 of its warp
//   for_each_row_by_warp(rows, f)   in a kernel: f(row, lane) for every row, one warp a row
//                              (grid-stride over warps; launch setup_grid(rows * 32) blocks):
//                              the lanes of a long row share it
//   sub_warp_mask<Width>()     the lanes of the calling thread's sub-warp: Width consecutive
//                              lanes starting at a multiple of Width
//   sub_warp_sum<Width>(v)     sum of v over the sub-warp, by __shfl_down_sync (log2(Width)
//                              steps); the result is valid in the sub-warp's first lane
//   load_streaming(p)          a load with the evict-first cache hint (ld.global.cs): matrix
//                              entries are read once per SpMV, so they should not push the
//                              reused x vector out of L1/L2
//   lower_bound_in(v, b, e, x) the first k in [b, e) with v[k] >= x (v ascending there), e if
//                              none: one thread's binary search (a column in a sorted row, an
//                              entry's row in the row offsets)
#include <cuda_runtime.h>

#include <cstdint>

#include "core/cuda_check.hpp"
#include "core/launch_grid.hpp"  // kSetupBlockSize, setup_grid

namespace spk {

template <class Index, class Body>
__device__ __forceinline__ void for_each_index(Index count, Body&& body) {
  const auto stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (auto i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += stride)
    body(static_cast<Index>(i));
}

template <class Index>
__global__ void __launch_bounds__(kSetupBlockSize) iota_kernel(Index n, Index* values) {
  for_each_index(n, [&](Index i) { values[i] = i; });
}

template <class Index, class T>
__global__ void __launch_bounds__(kSetupBlockSize) fill_value_kernel(Index n, T value, T* values) {
  for_each_index(n, [&](Index i) { values[i] = value; });
}

template <class T>
void fill_on_stream(std::int64_t n, T value, T* values, cudaStream_t stream) {
  if (n == 0) return;
  fill_value_kernel<<<setup_grid(n), kSetupBlockSize, 0, stream>>>(n, value, values);
  SPK_CHECK_LAUNCH("fill_value_kernel");
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

template <int Width>
__device__ __forceinline__ unsigned int sub_warp_mask() {
  static_assert(Width >= 2 && Width <= 32 && (Width & (Width - 1)) == 0,
                "sub-warp width must be a power of two in [2, 32]");
  if constexpr (Width == 32) {
    return 0xffffffffu;
  } else {
    const unsigned int first_lane = (threadIdx.x % 32u) & ~static_cast<unsigned int>(Width - 1);
    return ((1u << Width) - 1u) << first_lane;
  }
}

// Every lane of the sub-warp must call this (the mask names all of them).
template <int Width, class T>
__device__ __forceinline__ T sub_warp_sum(T value) {
  const unsigned int mask = sub_warp_mask<Width>();
#pragma unroll
  for (int offset = Width / 2; offset > 0; offset /= 2)
    value += __shfl_down_sync(mask, value, offset, Width);
  return value;
}

template <class T>
__device__ __forceinline__ T load_streaming(const T* pointer) {
  return __ldcs(pointer);
}

template <class Index, class Value>
__device__ __forceinline__ Index lower_bound_in(const Value* values, Index begin, Index end,
                                                Value target) {
  while (begin < end) {
    const Index middle = begin + (end - begin) / 2;
    if (values[middle] < target)
      begin = middle + 1;
    else
      end = middle;
  }
  return begin;
}

}  // namespace spk
