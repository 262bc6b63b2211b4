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

inline constexpr std::size_t staged_upload_from = std::size_t{64} << 20;  // 64 MiB

void upload_staged(void* device, const void* host, std::size_t bytes, cudaStream_t stream);

}  // namespace spk
