#include "distributed/nccl_library.hpp"

#include <dlfcn.h>
#include <glob.h>

#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

#include "spkrylov/errors.hpp"

namespace spk {

namespace {

// Where a Python wheel (nvidia-nccl-cu13) puts the library, for the interpreters one finds on
// HPC and GPU images: system, /usr/local, and virtual environments under /opt.
const char* const wheel_patterns[] = {
    "/usr/lib/python3*/*-packages/nvidia/nccl/lib/libnccl.so.2",
    "/usr/local/lib/python3*/*-packages/nvidia/nccl/lib/libnccl.so.2",
    "/opt/*/lib/python3*/site-packages/nvidia/nccl/lib/libnccl.so.2",
    "/opt/*/.venv/lib/python3*/site-packages/nvidia/nccl/lib/libnccl.so.2",
};

std::vector<std::string> candidates() {
  std::vector<std::string> paths;
  const char* chosen = std::getenv("SPK_NCCL_LIBRARY");
  if (chosen != nullptr && *chosen != '\0') return {chosen};  // the user's choice, alone
  paths.emplace_back("libnccl.so.2");
  for (const char* pattern : wheel_patterns) {
    glob_t found{};
    if (glob(pattern, 0, nullptr, &found) == 0)
      for (std::size_t k = 0; k < found.gl_pathc; ++k) paths.emplace_back(found.gl_pathv[k]);
    globfree(&found);
  }
  return paths;
}

template <class Function>
void bind(void* handle, const char* name, Function& function, const std::string& path) {
  function = reinterpret_cast<Function>(dlsym(handle, name));
  if (function == nullptr) throw NotSupported(path + " has no " + name + " (NCCL older than 2.7?)");
}

NcclLibrary load() {
  std::string why;
  for (const std::string& path : candidates()) {
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
      if (why.empty()) {
        const char* error = dlerror();
        why = error != nullptr ? error : "cannot load " + path;
      }
      continue;
    }
    NcclLibrary library;  // the handle stays open for the life of the process
    library.path = path;
    bind(handle, "ncclGetVersion", library.get_version, path);
    bind(handle, "ncclGetUniqueId", library.get_unique_id, path);
    bind(handle, "ncclCommInitRank", library.comm_init_rank, path);
    library.comm_init_rank_config = reinterpret_cast<decltype(library.comm_init_rank_config)>(
        dlsym(handle, "ncclCommInitRankConfig"));  // optional (nccl_communicator.cpp)
    bind(handle, "ncclCommDestroy", library.comm_destroy, path);
    bind(handle, "ncclCommAbort", library.comm_abort, path);
    bind(handle, "ncclCommGetAsyncError", library.comm_get_async_error, path);
    bind(handle, "ncclGetErrorString", library.get_error_string, path);
    bind(handle, "ncclAllReduce", library.all_reduce, path);
    bind(handle, "ncclSend", library.send, path);
    bind(handle, "ncclRecv", library.recv, path);
    bind(handle, "ncclGroupStart", library.group_start, path);
    bind(handle, "ncclGroupEnd", library.group_end, path);
    if (library.get_version(&library.version) != ncclSuccess) library.version = 0;
    return library;
  }
  if (why.size() > 160) why = why.substr(0, 160) + "...";
  throw NotSupported("NCCL not found (" + why +
                     "); set SPK_NCCL_LIBRARY to libnccl.so.2's path, or use "
                     "distributed.transport: mpi");
}

}  // namespace

std::string NcclLibrary::version_text() const {
  // NCCL_VERSION(X,Y,Z) = X*10000 + Y*100 + Z since 2.9 (X*1000 + Y*100 + Z before)
  const int major = version >= 10000 ? version / 10000 : version / 1000;
  const int minor = version >= 10000 ? (version / 100) % 100 : (version / 100) % 10;
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(version % 100);
}

const NcclLibrary& NcclLibrary::get() {
  static std::once_flag once;
  static NcclLibrary library;
  static std::string failure;
  std::call_once(once, [] {
    try {
      library = load();
    } catch (const std::exception& error) {
      failure = error.what();
    }
  });
  if (!failure.empty()) throw NotSupported(failure);
  return library;
}

void throw_nccl_error(ncclResult_t result, const char* call, const char* file, int line) {
  std::string text = "NCCL error " + std::to_string(static_cast<int>(result));
  try {
    text = NcclLibrary::get().get_error_string(result);
  } catch (...) {
  }
  std::string where = file;
  const std::size_t slash = where.find_last_of('/');
  if (slash != std::string::npos) where = where.substr(slash + 1);
  throw CommunicationError(std::string(call) + " failed: " + text + " (" + where + ":" +
                           std::to_string(line) + ")");
}

}  // namespace spk
