#pragma once
// KernelLaunch: the launch parameters every hand-written format shares, spmv.block_size,
// spmv.x_cache and spmv.grid, validated at setup and changeable afterwards without touching
// the stored matrix (SpmvBackend::set_launch; the `auto` tuner sweeps them).
//
//   grid exact   ceil(work threads / block_size) blocks: one thread (or sub-warp) per row,
//                the hardware block scheduler balances rows of unequal length.
//   grid capped  at most one full wave: multiprocessors x (max resident threads per SM /
//                block_size) blocks; the row kernels' grid-stride loops walk the other rows.
//                Fewer, longer-lived blocks: less block scheduling, but no balancing.
// The helper kernels (csr-vector's long-row passes, HYB's COO part) always use exact grids.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/cuda_check.hpp"
#include "spkrylov/errors.hpp"
#include "spkrylov/options.hpp"
#include "spmv/formats/block_size.hpp"
#include "spmv/formats/x_access.cuh"

namespace spk {

class KernelLaunch {
 public:
  // x_length: the number of x entries a texture would have to cover (the matrix's columns).
  KernelLaunch(const SpmvOptions& options, std::size_t x_length, Format format)
      : format_(format), x_length_(x_length), texture_limits_(query_x_texture_limits()) {
    int device = 0, multiprocessors = 0, threads_per_multiprocessor = 0;
    SPK_CUDA_CHECK(cudaGetDevice(&device));
    SPK_CUDA_CHECK(
        cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
    SPK_CUDA_CHECK(cudaDeviceGetAttribute(&threads_per_multiprocessor,
                                          cudaDevAttrMaxThreadsPerMultiProcessor, device));
    wave_threads_ = static_cast<std::int64_t>(multiprocessors) * threads_per_multiprocessor;
    set(options);
  }

  // Throws BadInput (and changes nothing) for an invalid block size, a texture over an x
  // longer than the device allows, or x_cache: shared for a format without a shared path.
  void set(const SpmvOptions& options) {
    const int block_size = checked_block_size(options.block_size);
    const std::string refusal = x_cache_refusal(format_, options.x_cache);
    if (!refusal.empty()) throw BadInput("spmv.x_cache: " + refusal);
    if (options.x_cache == XCache::texture)
      check_x_texture_length(x_length_, texture_limits_, to_string(format_));
    block_size_ = block_size;
    x_cache_ = options.x_cache;
    grid_ = options.grid;
  }

  int block_size() const { return block_size_; }
  XCache x_cache() const { return x_cache_; }
  GridShape grid() const { return grid_; }
  const XTextureLimits& texture_limits() const { return texture_limits_; }

  // Blocks for `work_threads` threads (rows x threads per row) under the grid shape.
  unsigned int blocks(std::int64_t work_threads) const {
    std::int64_t blocks = (work_threads + block_size_ - 1) / block_size_;
    if (grid_ == GridShape::capped)
      blocks = std::min(blocks, std::max<std::int64_t>(1, wave_threads_ / block_size_));
    return static_cast<unsigned int>(std::max<std::int64_t>(blocks, 1));
  }

  std::vector<std::pair<std::string, std::string>> details() const {
    return {{"block_size", std::to_string(block_size_)},
            {"x_cache", to_string(x_cache_)},
            {"grid", to_string(grid_)}};
  }

 private:
  Format format_;
  std::size_t x_length_;
  XTextureLimits texture_limits_;
  std::int64_t wave_threads_ = 0;
  int block_size_ = 256;
  XCache x_cache_ = XCache::ldg;
  GridShape grid_ = GridShape::exact;
};

// The grid-stride step of a row kernel with `threads_per_row` threads a row.
__device__ __forceinline__ std::int64_t grid_row_stride(int threads_per_row) {
  return static_cast<std::int64_t>(gridDim.x) * blockDim.x / threads_per_row;
}

}  // namespace spk
