#pragma once
// upload_staged: a large pageable host array copied to the device through two pinned staging
// buffers: the host threads (OpenMP) copy one chunk into a buffer while the copy engine moves
// the other, so the transfer runs at the DMA rate instead of the driver's single-threaded
// staging of pageable memory. Arrays under staged_upload_from bytes go by plain
// cudaMemcpyAsync. Synchronous: the data is on the device when it returns (`stream` is
// synchronized). Every CUDA call is checked (CudaError naming the call).
//
// Used where the distributed GPU setup and update_values take the caller's host arrays: the
// rows' offsets, columns and values (device_split_rows.cu), new values.
#include <cuda_runtime.h>

#include <cstddef>

namespace spk {

// 256 MiB: each call pins its two buffers (cudaMallocHost), which smaller arrays do not repay.
// A 10-step loop at 16M rows a process spent 86 ms a step outside update_values and the solve
// (the solve's b and x: 128 MB each, pageable; 4 x H100) before staging took them, and 135-161 ms
// with them staged at the 64 MiB threshold (4 x H200: another machine, so the comparison is
// indicative); the rows' 0.9 GB arrays gained (the device split's upload: 128 ms for 1.9 GB).
inline constexpr std::size_t staged_upload_from = std::size_t{256} << 20;

void upload_staged(void* device, const void* host, std::size_t bytes, cudaStream_t stream);

}  // namespace spk
