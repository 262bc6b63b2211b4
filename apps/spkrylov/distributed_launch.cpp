#include "distributed_launch.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>
#include <iostream>
#include <vector>

#include "frontend/exit_codes.hpp"
#include "frontend/plugin_abi.hpp"

namespace spk::app {

namespace {

// The integer in environment variable `name`, or -1 when it is unset or not a number.
int environment_integer(const char* name) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return -1;
  char* end = nullptr;
  const long value = std::strtol(text, &end, 10);
  return *end == '\0' && value >= 0 && value < 1 << 30 ? static_cast<int>(value) : -1;
}

std::string executable_directory() {
  char path[4096];
  const ssize_t length = readlink("/proc/self/exe", path, sizeof(path) - 1);
  if (length <= 0) return ".";
  const std::string executable(path, static_cast<std::size_t>(length));
  return executable.substr(0, executable.find_last_of('/'));
}

std::string plugin_path() {
  const char* chosen = std::getenv("SPK_DISTRIBUTED_PLUGIN");
  if (chosen != nullptr && *chosen != '\0') return chosen;
  return executable_directory() + "/" + SPK_DISTRIBUTED_PLUGIN_FILE;
}

// The plugin's entry point, or nullptr with the reason in `why`. RTLD_GLOBAL: the MPI library
// loads components of its own (OpenMPI's mca_*.so) that look up its symbols globally.
SpkDistributedSolveFunction load_plugin(std::string& why) {
  const std::string path = plugin_path();
  void* plugin = dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (plugin == nullptr) {
    const char* error = dlerror();
    why = error != nullptr ? error : "cannot load " + path;
    return nullptr;
  }
  void* entry = dlsym(plugin, SPK_DISTRIBUTED_SOLVE_SYMBOL);
  if (entry == nullptr) {
    why = path + " has no " + SPK_DISTRIBUTED_SOLVE_SYMBOL + " (a plugin from another build?)";
    return nullptr;
  }
  return reinterpret_cast<SpkDistributedSolveFunction>(entry);
}

}  // namespace

Launcher detect_launcher() {
  Launcher launcher;
  for (const auto& [size_name, rank_name] :
       {std::pair{"OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_RANK"},
        std::pair{"PMI_SIZE", "PMI_RANK"}, std::pair{"", "PMIX_RANK"}}) {
    const int size = *size_name != '\0' ? environment_integer(size_name) : -1;
    const int rank = environment_integer(rank_name);
    if (size < 0 && rank < 0) continue;
    launcher.present = true;
    launcher.size = size;
    launcher.rank = rank;
    break;
  }
  return launcher;
}

int run_launched_solve(const SolveCommandOptions& options, const Launcher& launcher) {
  std::string why;
  const SpkDistributedSolveFunction solve = load_plugin(why);
  if (solve == nullptr) {
    if (launcher.several_processes()) {
      if (launcher.prints())
        std::cerr << "error: started by an MPI launcher with "
                  << (launcher.size > 0 ? std::to_string(launcher.size) : "several")
                  << " processes, but the distributed plugin cannot be loaded: " << why
                  << " (build with MPI: cmake -DSPK_WITH_MPI=ON; or run without mpirun)\n";
      return exit_bad_input;
    }
    std::cerr << "notice: started by an MPI launcher, but the distributed plugin cannot be loaded ("
              << why << "); solving as one process\n";
    return run_solve_command(options);
  }
  std::vector<const char*> overrides;
  for (const std::string& value : options.overrides) overrides.push_back(value.c_str());
  const SpkDistributedSolveRequest request{options.config_path.c_str(), overrides.data(),
                                           static_cast<int>(overrides.size()), options.quiet,
                                           options.print_config};
  return solve(&request);
}

int refuse_several_processes(const std::string& command, const Launcher& launcher) {
  if (launcher.prints())
    std::cerr << "error: spkrylov " << command
              << " runs as one process; start it without mpirun (or with -np 1)\n";
  return exit_bad_input;
}

}  // namespace spk::app
