#pragma once
// Whether a pointer the caller passed is host or device memory (CUDA unified addressing).
namespace spk {

enum class PointerLocation { host, device };

// Device and managed memory count as device. Without a usable GPU every pointer is host.
PointerLocation locate_pointer(const void* pointer);

}  // namespace spk
