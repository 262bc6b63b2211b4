#pragma once
// make_pages_resident: the pages of a freshly allocated host array mapped before it is first
// written, by the process's host threads in parallel, each over its slice
// (madvise(MADV_POPULATE_WRITE), Linux 5.14+: the kernel maps zeroed pages as a write would,
// without the page-fault trap per 4 KiB page and without touching the contents).
//
// Why: a large std::vector is fresh memory from mmap. Its value-initialization (resize,
// assign) zero-fills it on one thread, and each first write to a page traps into the kernel,
// which clears the page. On the GPU machines' virtual machines that ran at about 1 GB/s:
// the distributed setup's host split of 16M rows (2.8 GB of arrays) spent most of its 4.5 s
// clearing pages under memset and memcpy (perf: clear_page_erms). Mapped in parallel first,
// the same fill runs at memory bandwidth.
//
// reserve_resident(v, n): v.reserve(n), then its pages made resident; the caller then
// resizes or assigns as usual (no element is touched here: the vector's own initialization
// is kept, so nothing reads uninitialized memory). Arrays under resident_pages_from bytes are
// left to the ordinary faults. Best effort: a kernel without MADV_POPULATE_WRITE (EINVAL) or
// a refusal leaves the pages to be faulted in later, as before; nothing is lost but the time.
#include <cstddef>
#include <vector>

namespace spk {

// 8 MiB: below it the threads' wake-up costs more than the faults (core/host_parallel.hpp).
inline constexpr std::size_t resident_pages_from = std::size_t{8} << 20;

void make_pages_resident(void* data, std::size_t bytes);

template <class T>
void reserve_resident(std::vector<T>& array, std::size_t count) {
  array.reserve(count);
  if (count * sizeof(T) >= resident_pages_from)
    make_pages_resident(array.data(), array.capacity() * sizeof(T));
}

}  // namespace spk
