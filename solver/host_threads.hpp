#pragma once
// How many OpenMP threads a CPU solve uses: one per host_rows_per_thread rows, at least one
// and at most OpenMP's count. A thread with fewer rows costs more in its parallel regions'
// starts and barriers than it saves, and on a machine whose cores are busy with other work a
// waiting thread costs far more (BENCHMARKS.md, "CPU path: threads by problem size"). A caller who
// sets OMP_NUM_THREADS chooses for every size.
//
//   host_threads_for(rows)   the count for a solve of `rows` rows
//   describe_host_threads(n) "CPU (2 threads)", "CPU (1 of 2 threads: 4,000 rows a thread)"
//   host_threads_chosen_by_user()  OMP_NUM_THREADS is set
//   ScopedHostThreads        OpenMP's thread count set for a scope (setup, a solve), and the
//                            caller's put back after it
#include <cstdint>
#include <string>

namespace spk {

inline constexpr std::int64_t host_rows_per_thread = 4000;

int host_threads_for(std::int64_t rows);
// OMP_NUM_THREADS is set (to anything but empty): the caller chose the count.
bool host_threads_chosen_by_user();
std::string describe_host_threads(int threads);

class ScopedHostThreads {
 public:
  explicit ScopedHostThreads(int threads);
  ~ScopedHostThreads();
  ScopedHostThreads(const ScopedHostThreads&) = delete;
  ScopedHostThreads& operator=(const ScopedHostThreads&) = delete;

 private:
  int previous_;
};

}  // namespace spk
