#pragma once
// run_cub: calls a CUB device-wide algorithm (scan, sort, run-length encoding) the way CUB
// asks, twice: once to size its scratch memory, once to run, with the scratch in a
// DeviceBuffer (so running out of memory is OutOfDeviceMemory naming `what`) and both
// statuses checked (CudaError naming `what`). The stream is synchronized before the scratch
// is freed, so the call has finished when run_cub returns.
//
//   run_cub("hyb row lengths sort", stream, [&](void* scratch, std::size_t& bytes) {
//     return cub::DeviceRadixSort::SortKeys(scratch, bytes, in, out, count, 0, 32, stream);
//   });
#include <cuda_runtime.h>

#include <cstddef>
#include <string>

#include "core/cuda_check.hpp"
#include "core/device_buffer.hpp"

namespace spk {

template <class Algorithm>
void run_cub(const std::string& what, cudaStream_t stream, Algorithm&& algorithm) {
  std::size_t scratch_bytes = 0;
  cudaError_t status = algorithm(nullptr, scratch_bytes);
  if (status != cudaSuccess)
    detail::throw_cuda_error(status, (what + " (sizing)").c_str(), __FILE__, __LINE__);
  DeviceBuffer<unsigned char> scratch(scratch_bytes > 0 ? scratch_bytes : 1, what + " scratch");
  status = algorithm(scratch.data(), scratch_bytes);
  if (status != cudaSuccess) detail::throw_cuda_error(status, what.c_str(), __FILE__, __LINE__);
  SPK_CUDA_CHECK(cudaStreamSynchronize(stream));
}

}  // namespace spk
