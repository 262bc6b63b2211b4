#pragma once
// A named NVTX range (NVIDIA Tools Extension) around a stretch of host code, for profilers:
// Nsight Systems draws it on the timeline, and Nsight Compute profiles only the kernels
// launched inside it (ncu --nvtx --nvtx-include "spk solve/"). NVTX v3 is header-only and
// ships with the CUDA toolkit; without a profiler attached a push/pop costs a few
// nanoseconds and loads nothing, so the ranges stay in release builds.
#include <nvtx3/nvToolsExt.h>

namespace spk {

class NvtxRange {
 public:
  explicit NvtxRange(const char* name) noexcept { nvtxRangePushA(name); }
  ~NvtxRange() { nvtxRangePop(); }
  NvtxRange(const NvtxRange&) = delete;
  NvtxRange& operator=(const NvtxRange&) = delete;
};

}  // namespace spk
