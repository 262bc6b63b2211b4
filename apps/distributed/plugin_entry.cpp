// The distributed plugin's entry point (plugin_abi.hpp): MPI up, the solve, MPI down.
//
// Errors: an error every process threw at the same step (agreed_errors.hpp: a missing file, a
// bad value, a config that differs between processes) is printed once, by rank 0, and every
// process returns 1 after MPI_Finalize. An error thrown by one process alone (an MPI call that
// failed, memory that ran out mid-solve) is printed by that process, with its rank, and ends
// the whole job with MPI_Abort: the others may be waiting for it in a collective call. Those
// that learned of it mid-solve (RankFailed, distributed/fault_watch.hpp) print nothing: its
// own line says it.
#include <mpi.h>
#include <time.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <type_traits>

#include "distributed/agreed_errors.hpp"
#include "distributed/mpi_check.hpp"
#include "distributed_solve.hpp"
#include "frontend/exit_codes.hpp"
#include "frontend/plugin_abi.hpp"
#include "spkrylov/errors.hpp"

namespace spk::app {

namespace {

// Seconds from this process's start to now: its start time in clock ticks after boot
// (/proc/self/stat, field 22: 10 ms steps) against CLOCK_BOOTTIME; -1 where unreadable.
double seconds_since_process_start() {
  std::ifstream file("/proc/self/stat");
  std::string text;
  std::getline(file, text);
  const std::size_t name_end = text.rfind(')');  // the command's name may hold spaces
  if (name_end == std::string::npos) return -1.0;
  std::istringstream fields(text.substr(name_end + 1));
  std::string skipped;
  for (int field = 3; field < 22; ++field) fields >> skipped;  // state .. itrealvalue
  long long start_ticks = 0;
  timespec now{};
  const long ticks_per_second = sysconf(_SC_CLK_TCK);
  if (!(fields >> start_ticks) || ticks_per_second <= 0 || clock_gettime(CLOCK_BOOTTIME, &now) != 0)
    return -1.0;
  const double elapsed = static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec) -
                         static_cast<double>(start_ticks) / static_cast<double>(ticks_per_second);
  return elapsed >= 0.0 ? elapsed : -1.0;
}

int solve(const SpkDistributedSolveRequest& request, const LaunchTimes& launch) {
  SolveCommandOptions options;
  options.config_path = request.config_path;
  for (int k = 0; k < request.override_count; ++k)
    options.overrides.push_back(request.overrides[k]);
  options.quiet = request.quiet != 0;
  options.print_config = request.print_config != 0;
  int rank = -1, size = 0;
  try {
    SPK_MPI_CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    SPK_MPI_CHECK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    return run_distributed_solve(options, MPI_COMM_WORLD, launch);
  } catch (const std::exception& error) {
    if (is_agreed(error)) {
      if (rank == 0) std::cerr << "error: " << error.what() << "\n";
      return exit_bad_input;
    }
    if (dynamic_cast<const RankFailed*>(&error) == nullptr)
      std::cerr << "error: " << (size != 1 ? "rank " + std::to_string(rank) + ": " : "")
                << error.what() << "\n";
    std::cerr.flush();
    MPI_Abort(MPI_COMM_WORLD, exit_bad_input);
    return exit_bad_input;
  }
}

}  // namespace

}  // namespace spk::app

extern "C" __attribute__((visibility("default"))) int spk_distributed_solve_v1(
    const SpkDistributedSolveRequest* request) {
  spk::app::LaunchTimes launch;
  launch.start_s = spk::app::seconds_since_process_start();
  const auto init_start = std::chrono::steady_clock::now();
  int initialized = 0;
  if (MPI_Initialized(&initialized) != MPI_SUCCESS ||
      (!initialized && MPI_Init(nullptr, nullptr) != MPI_SUCCESS)) {
    std::cerr << "error: MPI_Init failed\n";
    return spk::exit_bad_input;
  }
  if (!initialized)
    launch.mpi_init_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - init_start).count();
  const int code = spk::app::solve(*request, launch);
  if (MPI_Finalize() != MPI_SUCCESS) {
    std::cerr << "error: MPI_Finalize failed\n";
    return spk::exit_bad_input;
  }
  return code;
}

// The entry point has the type the CLI calls it through.
static_assert(std::is_same_v<decltype(&spk_distributed_solve_v1), SpkDistributedSolveFunction>);
