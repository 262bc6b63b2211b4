#pragma once
// Whether a pointer the caller passed is device memory (CUDA unified addressing).
namespace spk {

// Device and managed memory count as device. Without a usable GPU every pointer is host.
bool is_device_pointer(const void* pointer);

}  // namespace spk
