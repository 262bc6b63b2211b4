#pragma once
// The steps the device splits share (device_grid_rows.cu: a grid generator's rows;
// device_split_rows.cu: the caller's rows): the scans of per-row counts, zeroed count arrays,
// and the compaction of the halo block to its non-empty rows (compressed_rows_operator.hpp).
// Internal linkage: each .cu that includes this has its own copy.
#include <cstdint>
#include <cub/device/device_scan.cuh>
#include <string>

#include "core/cub_call.cuh"
#include "core/cuda_check.hpp"
#include "core/device_buffer.hpp"
#include "core/device_kernels.cuh"
#include "spkrylov/csr_arrays.hpp"

namespace spk {
namespace {

// The halo block's non-empty rows (their local ids) and offsets: row r with halo entries is
// kept row kept_numbers[r] (an exclusive scan of the "has halo entries" flags).
__global__ void __launch_bounds__(kSetupBlockSize)
    compact_halo_rows_kernel(index_t rows, const index_t* __restrict__ halo_lengths,
                             const index_t* __restrict__ halo_starts,
                             const index_t* __restrict__ kept_numbers, index_t kept_count,
                             index_t halo_nnz, index_t* __restrict__ halo_rows,
                             index_t* __restrict__ halo_offsets) {
  for_each_index(rows, [&](index_t r) {
    if (halo_lengths[r] == 0) return;
    const index_t k = kept_numbers[r];
    halo_rows[k] = r;
    halo_offsets[k] = halo_starts[r];
  });
  if (blockIdx.x == 0 && threadIdx.x == 0) halo_offsets[kept_count] = halo_nnz;
}

// An exclusive scan of `count` + 1 entries (the last input is 0: its output is the total).
void exclusive_scan(const index_t* in, index_t* out, std::int64_t count, const char* what,
                    cudaStream_t stream) {
  run_cub(what, stream, [&](void* scratch, std::size_t& bytes) {
    return cub::DeviceScan::ExclusiveSum(scratch, bytes, in, out, count + 1, stream);
  });
}

DeviceBuffer<index_t> zeros(std::int64_t count, const std::string& what, cudaStream_t stream) {
  DeviceBuffer<index_t> buffer(static_cast<std::size_t>(count), what);
  SPK_CUDA_CHECK(cudaMemsetAsync(buffer.data(), 0, buffer.bytes(), stream));
  return buffer;
}

}  // namespace
}  // namespace spk
