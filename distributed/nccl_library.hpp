#pragma once
// NcclLibrary: NCCL, loaded at run time (dlopen), so that the distributed solver and the CLI's
// plugin start, and solve over MPI, on a machine without NCCL. The first call of
// NcclLibrary::get() looks for the library, in order:
//   $SPK_NCCL_LIBRARY                  (a path)
//   libnccl.so.2                       (the loader's search path: the CUDA toolkit, ldconfig)
//   the nvidia-nccl-cu13 wheel of an installed Python (.../site-packages/nvidia/nccl/lib)
// and keeps the functions spkrylov calls. A missing library or function throws NotSupported
// saying where it looked and how to choose another transport.
//
// SPK_NCCL_CHECK(call) checks a call made through it: a failure throws CommunicationError
// naming the call and NCCL's error string.
#include <nccl.h>

#include <string>

namespace spk {

struct NcclLibrary {
  decltype(&::ncclGetVersion) get_version = nullptr;
  decltype(&::ncclGetUniqueId) get_unique_id = nullptr;
  decltype(&::ncclCommInitRank) comm_init_rank = nullptr;
  // null when the library has no ncclCommInitRankConfig (NCCL before 2.14)
  decltype(&::ncclCommInitRankConfig) comm_init_rank_config = nullptr;
  decltype(&::ncclCommDestroy) comm_destroy = nullptr;
  decltype(&::ncclCommAbort) comm_abort = nullptr;
  decltype(&::ncclCommGetAsyncError) comm_get_async_error = nullptr;
  decltype(&::ncclGetErrorString) get_error_string = nullptr;
  decltype(&::ncclAllReduce) all_reduce = nullptr;
  decltype(&::ncclSend) send = nullptr;
  decltype(&::ncclRecv) recv = nullptr;
  decltype(&::ncclGroupStart) group_start = nullptr;
  decltype(&::ncclGroupEnd) group_end = nullptr;
  std::string path;                  // the file that was loaded
  int version = 0;                   // NCCL_VERSION_CODE of the loaded library, e.g. 22703
  std::string version_text() const;  // "2.27.3"

  // Loads NCCL once per process (thread-safe); throws NotSupported when it cannot.
  static const NcclLibrary& get();
};

[[noreturn]] void throw_nccl_error(ncclResult_t result, const char* call, const char* file,
                                   int line);

}  // namespace spk

#define SPK_NCCL_CHECK(call)                                               \
  do {                                                                     \
    const ncclResult_t spk_nccl_status = (call);                           \
    if (spk_nccl_status != ncclSuccess)                                    \
      ::spk::throw_nccl_error(spk_nccl_status, #call, __FILE__, __LINE__); \
  } while (0)
