#pragma once
// DotOutput<T>: the output of a row kernel (output_scale.cuh) for LinearOperator::apply_dots. It
// writes y[row] = sum as PlainOutput does, and sums (w, y) and (y, y) over the rows on the way,
// so the solver's dot products after an SpMV cost no pass over w and y and no launch of
// their own: the dot in the SpMV's epilogue (GHOST's SpMV DOT flag; the fused CG of
// ../shared/notes/anchors-performance-kernels.md, section 1).
//
// A kernel that takes it keeps each thread's partial sums apart from it (sums =
// output.start(); output.store(y, row, sum, sums) for every row), so the output stays a
// kernel parameter and its pointers cost no registers, and calls output.finish(sums) with
// every thread of the block after its row loop (PlainOutput and OutputScale have the same
// form, with no state and nothing to finish). finish() sums over the grid with
// sum_pair_over_grid (grid_pair_sum.cuh: block sums added in block order by the last block,
// no atomics in any sum, the same bits on every call) and writes sums[0] = (w, y) (and
// sums[1] = (y, y) when count is 2).
//
// DotSums: the block sums and the ticket, device memory a backend owns, sized for its largest
// grid (one block per 32 rows): 16 bytes per 32 rows, scratch that device_bytes() (the stored
// matrix) does not count.
#include <cuda_runtime.h>

#include <cstddef>

#include "core/cuda_check.hpp"
#include "core/device_buffer.hpp"
#include "core/grid_pair_sum.cuh"
#include "spmv/host/csr_matrix.hpp"

namespace spk {

template <class T>
struct DotOutput {
  const T* w;     // rows entries, paired with y
  T* block_sums;  // 2 per block
  unsigned int* ticket;
  T* sums;  // sums[0] = (w, y), sums[1] = (y, y) when count is 2
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
    if (!sum_pair_over_grid(partial.w_y, partial.y_y, block_sums, ticket)) return;
    if (threadIdx.x == 0) {
      sums[0] = partial.w_y;
      if (count == 2) sums[1] = partial.y_y;
      *ticket = 0u;  // kernels on one stream never overlap
    }
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
