#pragma once
// Device building blocks of the CSR-family kernels (csr-vector, its long-row chunks,
// aligned-csr), and the host dispatcher that picks their compiled sub-warp width. The
// sub-warp sums and the streaming load are core/device_kernels.cuh's.
//
//   sub_warp_row_dot<Width>   one lane's share of a row's dot product with x: lane l of the
//                             sub-warp takes entries l, l + Width, l + 2 Width, ... of the run
//                             [begin, begin + length), kUnroll (4) at a time with all their
//                             value and column loads issued before any product, then the
//                             remaining 0..3 one by one. The caller reduces with sub_warp_sum.
//                             Matrix values of type Value, products and sum in the vector type
//                             T (the mixed-precision seam: only Value == T is instantiated).
//   with_threads_per_row(w, launch)  host: calls launch(std::integral_constant<int, w>{}) for
//                             w in 2, 4, 8, 16, 32, so every kernel has a compile-time width
#include <cuda_runtime.h>

#include <type_traits>

#include "core/device_kernels.cuh"
#include "spmv/host/csr_matrix.hpp"

namespace spk {

// Entries each lane loads before it uses any of them: keeps 4 independent value/column loads
// (and then 4 x loads) in flight per lane on long rows.
constexpr unsigned int kSubWarpUnroll = 4;

// `sum` plus this lane's products over entries begin + lane, begin + lane + Width, ... below
// begin + length (see the header comment). Lanes need not make the same number of steps.
// `lane` is the offset of this lane's first entry from `begin`: its lane number in the
// sub-warp, or that plus Width when the caller has done a first step itself (csr-vector's
// warp-aligned start). EqualSteps (aligned-csr, whose rows are padded to a multiple of Width):
// every lane makes length / Width steps, and the loop counts steps instead of comparing
// offsets with the length (measured: 5% faster on 7-point rows padded to 16).
template <int Width, bool EqualSteps = false, class Value, class Reader,
          class T = typename Reader::value_type>
__device__ __forceinline__ T sub_warp_row_dot(const Value* __restrict__ values,
                                              const index_t* __restrict__ columns, index_t begin,
                                              unsigned int length, unsigned int lane,
                                              const Reader& x, T sum = T(0)) {
  constexpr unsigned int stride = Width;
  constexpr unsigned int unroll = kSubWarpUnroll;
  const Value* row_values = values + begin;
  const index_t* row_columns = columns + begin;
  // sum += the products of this lane's entries first, first + stride, ..., (unroll of them),
  // every value and column load issued before the first product.
  const auto add_group = [&](unsigned int first) {
    index_t column[unroll];
    Value value[unroll];
#pragma unroll
    for (unsigned int u = 0; u < unroll; ++u) {
      column[u] = load_streaming(row_columns + first + u * stride);
      value[u] = load_streaming(row_values + first + u * stride);
    }
#pragma unroll
    for (unsigned int u = 0; u < unroll; ++u) sum += static_cast<T>(value[u]) * x.load(column[u]);
  };
  const auto add_entry = [&](unsigned int entry) {
    sum += static_cast<T>(load_streaming(row_values + entry)) *
           x.load(load_streaming(row_columns + entry));
  };
  // Unrolled by hand (unroll loads in flight); no further unrolling by the compiler, which
  // would only add register pressure.
  unsigned int k = lane;  // offset of this lane's next entry from `begin`
  if constexpr (EqualSteps) {
    const unsigned int steps = length / stride;
    unsigned int step = 0;
#pragma unroll 1
    for (; step + unroll <= steps; step += unroll, k += unroll * stride) add_group(k);
    for (; step < steps; ++step, k += stride) add_entry(k);
  } else {
#pragma unroll 1
    for (; k + (unroll - 1) * stride < length; k += unroll * stride) add_group(k);
    for (; k < length; k += stride) add_entry(k);
  }
  return sum;
}

// Host: calls launch(std::integral_constant<int, w>{}) with w = threads_per_row, one of 2, 4,
// 8, 16, 32 (checked at setup by check_threads_per_row; anything else takes 32).
template <class Launch>
void with_threads_per_row(int threads_per_row, Launch&& launch) {
  switch (threads_per_row) {
    case 2: launch(std::integral_constant<int, 2>{}); return;
    case 4: launch(std::integral_constant<int, 4>{}); return;
    case 8: launch(std::integral_constant<int, 8>{}); return;
    case 16: launch(std::integral_constant<int, 16>{}); return;
    default: launch(std::integral_constant<int, 32>{}); return;
  }
}

}  // namespace spk
