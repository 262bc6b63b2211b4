#pragma once
// Device building blocks of the CSR-family kernels (csr-vector, aligned-csr).
//
//   sub_warp_mask<Width>()    the lanes of the calling thread's sub-warp: Width consecutive
//                             lanes starting at a multiple of Width
//   sub_warp_sum<Width>(v)    sum of v over the sub-warp, by __shfl_down_sync (log2(Width)
//                             steps); the result is valid in the sub-warp's first lane
//   load_streaming(p)         a load with the evict-first cache hint (ld.global.cs): matrix
//                             entries are read once per SpMV, so they should not push the
//                             reused x vector out of L1/L2
#include <cuda_runtime.h>

namespace spk {

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

}  // namespace spk
