#pragma once
// The row kernels the GPU path's distributed AMG setup shares between its row movers
// (device_level_rows.cu: rows downloaded to the host; device_row_exchange.cu: rows moved GPU to
// GPU). Internal linkage: each .cu that includes this has its own copy.
#include "core/device_kernels.cuh"
#include "spkrylov/csr_arrays.hpp"

namespace spk {
namespace {

// length[r] = the entries of row rows[r] of a CSR matrix with `row_offsets`
__global__ void __launch_bounds__(kSetupBlockSize)
    row_lengths_kernel(index_t count, const index_t* __restrict__ rows,
                       const index_t* __restrict__ row_offsets, index_t* __restrict__ length) {
  for_each_index(count,
                 [&](index_t r) { length[r] = row_offsets[rows[r] + 1] - row_offsets[rows[r]]; });
}

}  // namespace
}  // namespace spk
