#pragma once
// `spkrylov solve [CONFIG] [--set key=value ...] [--print-config]`: returns the process exit
// code (0 converged, 2 not converged). Bad input throws spk::Error (exit 1 in main).
#include <string>
#include <vector>

namespace spk::app {

struct SolveCommandOptions {
  std::string config_path;  // empty: the built-in default problem
  std::vector<std::string> overrides;
  bool quiet = false;
  bool print_config = false;  // print the resolved config as YAML instead of solving
  // When set, the JSON report (what output.report would hold) is also written here as text:
  // how a program that runs the command in-process (the Python module) gets it back without
  // a file of its own.
  std::string* json_report = nullptr;
};

int run_solve_command(const SolveCommandOptions& options);

}  // namespace spk::app
