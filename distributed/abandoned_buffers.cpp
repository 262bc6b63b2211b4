#include "distributed/abandoned_buffers.hpp"

#include <mutex>
#include <vector>

namespace spk {

void keep_object_until_exit(std::shared_ptr<void> object) {
  static std::mutex guard;
  // Never destroyed: no destructor runs at exit (after MPI_Finalize, or with CUDA unloading).
  static auto* kept = new std::vector<std::shared_ptr<void>>();
  const std::lock_guard<std::mutex> lock(guard);
  kept->push_back(std::move(object));
}

}  // namespace spk
