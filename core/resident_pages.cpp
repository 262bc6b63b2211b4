#include "core/resident_pages.hpp"

#include <omp.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>

namespace spk {

void make_pages_resident(void* data, std::size_t bytes) {
  if (bytes < resident_pages_from) return;
  const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  const auto begin = reinterpret_cast<std::uintptr_t>(data);
  // The whole pages inside the array: a partial page at either end may hold another
  // allocation's bytes (populating it would be harmless, but it is not this array's).
  const std::uintptr_t first = (begin + page - 1) / page * page;
  const std::uintptr_t end = (begin + bytes) / page * page;
  if (end <= first) return;
  const auto pages = static_cast<std::int64_t>((end - first) / page);
#pragma omp parallel
  {
    const std::int64_t threads = omp_get_num_threads(), thread = omp_get_thread_num();
    const std::int64_t from = pages * thread / threads, to = pages * (thread + 1) / threads;
    if (to > from)  // best effort (see the header): a failure leaves the ordinary faults
      static_cast<void>(
          madvise(reinterpret_cast<void*>(first + static_cast<std::uintptr_t>(from) * page),
                  static_cast<std::size_t>(to - from) * page, MADV_POPULATE_WRITE));
  }
}

}  // namespace spk
