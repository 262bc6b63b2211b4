#pragma once
// The ELL-family kernels: plain ELLPACK (also the ELL part of HYB) and ELLPACK-R. Both map
// one thread to one row (Bell & Garland's ELL kernel; Vázquez et al.'s ELLPACK-R kernel,
// seed /work/shared/seeds/ellpack-r.txt). The arrays are column-major with a pitch
// (ellpack_layout.hpp), so the 32 threads of a warp read 32 consecutive values and 32
// consecutive column indices at every slot: fully coalesced, no shared memory, no
// synchronisation.
//
// * The slot loop is unrolled by 4: four column indices and four values are loaded before
//   any is used, so each thread keeps 8 independent loads (then 4 x gathers) in flight; the
//   0..3 remaining slots are one predicated group (row_dot).
// * Slot offsets advance a pointer by the pitch (64-bit pointer arithmetic): k * pitch + row
//   may pass 2^31 on large padded arrays.
// * The matrix arrays are read exactly once per SpMV, so they are loaded with __ldcs
//   (evict-first): they stream through the caches without evicting x, which is reused.
// * One row per thread and a grid-stride loop: spmv.grid exact launches ceil(rows / block)
//   blocks (each thread one row, rows <= 2^31 - 1 keeps the grid under its 2^31 - 1 block
//   limit), capped one full wave (kernel_launch.cuh). The launch-bound class (512 or 1024) is
//   picked from the block size (block_size.hpp).
// * y[row] = alpha * sum (+ beta * y[row] unless beta == 0; output_scale.cuh): every row is
//   written, padding and empty rows included.
// * Matrix values of type Value, products and sums in the vector type T (the mixed-precision
//   seam: Value is T, or float under double).
// * Output may be DotOutput (dot_output.cuh, LinearOperator::apply_dots): each thread keeps
//   its partial sums (output.start()), stores through them, and every thread of the block
//   calls output.finish(sums) after the row loop. The output itself stays a kernel parameter
//   (its pointers in the constant bank, not in registers).
#include <cuda_runtime.h>

#include <cstddef>

#include "spmv/formats/block_size.hpp"
#include "spmv/formats/output_scale.cuh"
#include "spmv/host/csr_matrix.hpp"

namespace spk::ell_kernels {

constexpr int slot_unroll = 4;

// The dot product of one row with x over its first `length` slots, starting at `value` and
// `column` (the row's slot 0) and stepping by `pitch`. Slots go 4 at a time, all loads of a
// group issued before any product; the last 0..3 slots form one predicated group, so a short
// row (a 7-point stencil: 4 + 3) still has all its loads in flight at once. With
// SkipPadding, a slot whose column is -1 adds nothing and never touches x (0 * Inf would
// otherwise turn y into NaN).
template <bool SkipPadding, class Value, class Reader, class T = typename Reader::value_type>
__device__ __forceinline__ T row_dot(index_t length, std::size_t pitch, const Value* value,
                                     const index_t* column, const Reader& x) {
  T sum = T(0);
  index_t slot = 0;
  for (; length - slot >= slot_unroll; slot += slot_unroll) {
    index_t c[slot_unroll];
    Value v[slot_unroll];
#pragma unroll
    for (int u = 0; u < slot_unroll; ++u) {
      c[u] = __ldcs(column + u * pitch);
      v[u] = __ldcs(value + u * pitch);
    }
#pragma unroll
    for (int u = 0; u < slot_unroll; ++u)
      if (!SkipPadding || c[u] >= 0) sum += static_cast<T>(v[u]) * x.load(c[u]);
    column += slot_unroll * pitch;
    value += slot_unroll * pitch;
  }
  const index_t remaining = length - slot;  // 0 .. slot_unroll - 1
  index_t c[slot_unroll - 1];
  Value v[slot_unroll - 1];
#pragma unroll
  for (int u = 0; u < slot_unroll - 1; ++u) {
    c[u] = -1;
    v[u] = Value(0);
    if (u < remaining) {
      c[u] = __ldcs(column + u * pitch);
      v[u] = __ldcs(value + u * pitch);
    }
  }
#pragma unroll
  for (int u = 0; u < slot_unroll - 1; ++u)
    if (u < remaining && (!SkipPadding || c[u] >= 0)) sum += static_cast<T>(v[u]) * x.load(c[u]);
  return sum;
}

// Plain ELLPACK: every one of the `width` slots of the row is read; padding is skipped.
template <int MaxThreads, class Value, class T, class Reader, class Output>
__global__ void __launch_bounds__(MaxThreads, min_blocks_for_class(MaxThreads))
    ellpack_kernel(index_t rows, index_t width, std::size_t pitch, const Value* __restrict__ values,
                   const index_t* __restrict__ columns, Reader x, Output output,
                   T* __restrict__ y) {
  auto sums = output.start();
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t row = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
       row < static_cast<std::size_t>(rows); row += stride)
    output.store(y, row, row_dot<true>(width, pitch, values + row, columns + row, x), sums);
  output.finish(sums);
}

// ELLPACK-R: the thread of row i reads rl[i] and walks only its first rl[i] slots, so the
// padding is never read and no slot needs a padding test.
template <int MaxThreads, class Value, class T, class Reader, class Output>
__global__ void __launch_bounds__(MaxThreads, min_blocks_for_class(MaxThreads))
    ellpack_r_kernel(index_t rows, std::size_t pitch, const Value* __restrict__ values,
                     const index_t* __restrict__ columns, const index_t* __restrict__ row_lengths,
                     Reader x, Output output, T* __restrict__ y) {
  auto sums = output.start();
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t row = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
       row < static_cast<std::size_t>(rows); row += stride)
    output.store(y, row,
                 row_dot<false>(__ldcs(row_lengths + row), pitch, values + row, columns + row, x),
                 sums);
  output.finish(sums);
}

}  // namespace spk::ell_kernels
