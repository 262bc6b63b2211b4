#pragma once
// Whether a pointer the caller passed is device memory (CUDA unified addressing).
namespace spk {

// Device and managed memory count as device. Without a usable GPU every pointer is host.
bool is_device_pointer(const void* pointer);

// Whether `pointer` is device memory the host cannot read (cudaMalloc'd; managed memory the
// host can read is not). False without a usable GPU.
bool host_cannot_read(const void* pointer);

// Whether a kernel can read `pointer`: device, managed or page-locked (registered) host
// memory; not ordinary host memory. False without a usable GPU.
bool device_can_read(const void* pointer);

}  // namespace spk
