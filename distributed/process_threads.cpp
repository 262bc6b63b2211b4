#include "distributed/process_threads.hpp"

#include <omp.h>
#include <sched.h>

#include <algorithm>
#include <thread>

#include "distributed/host_processes.hpp"
#include "solver/host_threads.hpp"

namespace spk {

namespace {

int cpus_allowed() {
  cpu_set_t mask;
  CPU_ZERO(&mask);
  if (sched_getaffinity(0, sizeof(mask), &mask) != 0) return 0;  // unknown
  return CPU_COUNT(&mask);
}

}  // namespace

int share_of_cpus(int cpus, int allowed, int local_processes) {
  const int share = std::max(1, cpus) / std::max(1, local_processes);
  return std::max(1, allowed > 0 ? std::min(allowed, share) : share);
}

int threads_per_process(MPI_Comm comm) {
  const int local_processes = host_processes(comm).count;  // collective: every process calls
  if (host_threads_chosen_by_user()) return omp_get_max_threads();
  const int cpus = static_cast<int>(std::thread::hardware_concurrency());
  return share_of_cpus(cpus > 0 ? cpus : omp_get_num_procs(), cpus_allowed(), local_processes);
}

}  // namespace spk
