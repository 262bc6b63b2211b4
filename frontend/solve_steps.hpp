#pragma once
// The steps of `spkrylov solve` that the single-process command (solve_command.cpp) and the
// distributed plugin (apps/distributed/) share: reading the config, naming its origin, the
// CLI's wording of a zero pivot, and the outputs that need only the result.
#include <string>
#include <vector>

#include "frontend/config/run_config.hpp"
#include "frontend/run_report.hpp"
#include "frontend/solve_command.hpp"

namespace spk::app {

// The run's config: the file and overrides the command line names, or the built-in default.
RunConfig load_solve_config(const SolveCommandOptions& options);

// The solver options a run's solvers get: the config's, except that a single solve (steps: 1)
// takes amg resetup: rebuild whatever the config says, since no re-setup follows: the same
// hierarchy, iterations and answer, without the state a re-setup would reuse (device memory:
// 123 -> 69 GB a GPU at 800^3 on 4 GPUs). The resolved config keeps the key as written.
SolverOptions solver_options_of_run(const RunConfig& config);

// Where the run's config came from, and where every key of it can be seen.
std::string describe_config_origin(const SolveCommandOptions& options,
                                   const std::string& json_report);

// A zero or unusable pivot as the CLI reports it: the matrix (file), the preconditioner, the
// 1-based row (as in the matrix file) and the key that avoids it.
std::string bad_diagonal_message(const std::string& problem_name, Preconditioner preconditioner,
                                 long long zero_based_row, const std::string& problem);

// The convergence plot (output.plot) of the runs.
void write_plot(const RunConfig& config, const std::vector<RunReport>& runs);

// compare: on the CPU path the formats do not differ: one line on stderr says so.
void notice_compare_on_cpu(const RunConfig& config);
// compare: on the CPU path: the one run, once per compare entry, each row named by the format
// it asks for (RunReport::requested_format).
std::vector<RunReport> rows_of_cpu_compare(const RunReport& run, const RunConfig& config);

}  // namespace spk::app
