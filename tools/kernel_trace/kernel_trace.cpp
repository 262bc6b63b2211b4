// libspk_kernel_trace.so: a CUDA injection library (CUDA_INJECTION64_PATH) that records the
// name of every kernel that runs in the process, for tools/kernel_reach.py (the `sanitize`
// label must launch every kernel of the project). It uses CUPTI's activity API with
// CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, which also sees the kernels replayed from CUDA graphs
// (a launch callback would miss them), and does not serialize the kernels.
//
//   CUDA_INJECTION64_PATH=build/tests/libspk_kernel_trace.so SPK_KERNEL_TRACE=kernels.txt
//       spk_tests_gpu --gtest_filter=...
//
// At exit the distinct mangled names are appended to $SPK_KERNEL_TRACE, one per line (several
// processes, e.g. under mpirun, may append to the same file). A CUPTI failure is one line on
// stderr naming the call, and the trace file then gets no names (the reach check fails).
#include <cupti.h>

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <set>
#include <string>

namespace {

constexpr std::size_t kBufferBytes = 8u << 20;

std::mutex names_mutex;
std::set<std::string>& kernel_names() {
  static auto* names = new std::set<std::string>;  // outlives the exit handlers
  return *names;
}

bool cupti_ok(CUptiResult result, const char* call) {
  if (result == CUPTI_SUCCESS) return true;
  const char* text = nullptr;
  cuptiGetResultString(result, &text);
  std::fprintf(stderr, "spk_kernel_trace: %s failed: %s\n", call, text != nullptr ? text : "?");
  return false;
}

void CUPTIAPI buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, kBufferBytes));
  *size = *buffer != nullptr ? kBufferBytes : 0;
  *max_records = 0;
}

void CUPTIAPI buffer_completed(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid_size) {
  CUpti_Activity* record = nullptr;
  while (cuptiActivityGetNextRecord(buffer, valid_size, &record) == CUPTI_SUCCESS) {
    if (record->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL &&
        record->kind != CUPTI_ACTIVITY_KIND_KERNEL)
      continue;
    const auto* kernel = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
    if (kernel->name == nullptr) continue;
    const std::lock_guard<std::mutex> lock(names_mutex);
    kernel_names().insert(kernel->name);
  }
  std::free(buffer);
}

void write_names() {
  cuptiActivityFlushAll(1);
  const char* path = std::getenv("SPK_KERNEL_TRACE");
  if (path == nullptr || *path == '\0') return;
  std::FILE* file = std::fopen(path, "a");
  if (file == nullptr) {
    std::fprintf(stderr, "spk_kernel_trace: cannot open %s for appending\n", path);
    return;
  }
  const std::lock_guard<std::mutex> lock(names_mutex);
  for (const std::string& name : kernel_names()) std::fprintf(file, "%s\n", name.c_str());
  std::fclose(file);
}

}  // namespace

extern "C" int InitializeInjection() {
  if (!cupti_ok(cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed),
                "cuptiActivityRegisterCallbacks") ||
      !cupti_ok(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL),
                "cuptiActivityEnable(CONCURRENT_KERNEL)"))
    return 0;
  std::atexit(write_names);
  return 1;
}
