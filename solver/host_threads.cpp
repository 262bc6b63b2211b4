#include "solver/host_threads.hpp"

#include <omp.h>

#include <algorithm>
#include <cstdlib>

namespace spk {

namespace {

// 20000 -> "20,000".
std::string with_commas(std::int64_t number) {
  std::string digits = std::to_string(number);
  for (int at = static_cast<int>(digits.size()) - 3; at > 0; at -= 3)
    digits.insert(static_cast<std::size_t>(at), ",");
  return digits;
}

}  // namespace

bool host_threads_chosen_by_user() {
  const char* value = std::getenv("OMP_NUM_THREADS");
  return value != nullptr && *value != '\0';
}

int host_threads_for(std::int64_t rows) {
  const int available = omp_get_max_threads();
  if (host_threads_chosen_by_user()) return available;
  const std::int64_t by_rows = std::max<std::int64_t>(1, rows / host_rows_per_thread);
  return static_cast<int>(std::min<std::int64_t>(available, by_rows));
}

std::string describe_host_threads(int threads) {
  const int available = omp_get_max_threads();
  if (threads < available)
    return "CPU (" + std::to_string(threads) + " of " + std::to_string(available) +
           " threads: " + with_commas(host_rows_per_thread) + " rows a thread)";
  return "CPU (" + std::to_string(threads) + (threads == 1 ? " thread)" : " threads)");
}

ScopedHostThreads::ScopedHostThreads(int threads) : previous_(omp_get_max_threads()) {
  omp_set_num_threads(threads);
}

ScopedHostThreads::~ScopedHostThreads() {
  omp_set_num_threads(previous_);
}

}  // namespace spk
