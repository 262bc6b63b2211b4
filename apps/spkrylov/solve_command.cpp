#include "solve_command.hpp"

#include <cmath>
#include <iostream>

#include "problem.hpp"
#include "progress_line.hpp"
#include "run_report.hpp"
#include "solver/config/config_loader.hpp"
#include "solver/solve_outcome.hpp"
#include "solver/solver.hpp"
#include "spmv/base/device.hpp"
#include "spmv/base/error.hpp"
#include "spmv/host/matrix_market.hpp"

namespace spk::app {

namespace {

ExecutionSpace choose_space(DeviceChoice choice) {
  switch (choice) {
    case DeviceChoice::cpu: return ExecutionSpace::cpu;
    case DeviceChoice::gpu:
      (void)current_device_info();  // throws NoDevice with the reason
      return ExecutionSpace::gpu;
    case DeviceChoice::automatic:
      if (device_available()) return ExecutionSpace::gpu;
      std::cerr << "notice: no usable CUDA GPU; solving on the CPU reference path (device: auto)\n";
      return ExecutionSpace::cpu;
  }
  return ExecutionSpace::cpu;
}

double relative_difference(const std::vector<double>& x, const std::vector<double>& exact) {
  double diff = 0.0, norm = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    diff += (x[i] - exact[i]) * (x[i] - exact[i]);
    norm += exact[i] * exact[i];
  }
  return norm > 0.0 ? std::sqrt(diff / norm) : std::sqrt(diff);
}

template <class T>
std::vector<double> solve_in_precision(const RunConfig& config, const Problem& problem,
                                       ExecutionSpace space, bool quiet, RunReport& report) {
  const CsrMatrix<T> matrix = convert_values<T>(problem.matrix);
  Solver<T> solver(matrix, config.solver, config.spmv, space);
  const std::vector<T> b(problem.rhs.begin(), problem.rhs.end());
  std::vector<T> x(b.size(), T(0));
  ProgressLine progress(!quiet);
  report.result = solver.solve(b, x, progress.callback());
  progress.clear();
  report.setup = solver.setup_info();
  report.spmv_ms = solver.time_spmv_ms(20);
  return std::vector<double>(x.begin(), x.end());
}

}  // namespace

int run_solve_command(const SolveCommandOptions& options) {
  const RunConfig config = options.config_path.empty()
                               ? parse_run_config(to_yaml(default_run_config()),
                                                  "<built-in default>", options.overrides)
                               : load_run_config(options.config_path, options.overrides);
  const ExecutionSpace space = choose_space(config.device);
  const Problem problem = build_problem(config);

  RunReport report;
  report.resolved_config = to_yaml(config);
  report.problem_name = problem.name;
  report.stats = compute_matrix_stats(problem.matrix);
  report.solver = config.solver;
  report.load_s = problem.load_s;
  const bool single = config.precision == Precision::single_precision;
  report.precision = single ? "single" : "double";
  const std::vector<double> x =
      single ? solve_in_precision<float>(config, problem, space, options.quiet, report)
             : solve_in_precision<double>(config, problem, space, options.quiet, report);
  if (problem.exact_solution) report.solution_error = relative_difference(x, *problem.exact_solution);

  print_text_report(std::cout, report);
  if (!config.output.report.empty()) write_json_report(config.output.report, report);
  if (!config.output.history.empty()) write_history_csv(config.output.history, report.result);
  if (!config.output.solution.empty()) write_vector_market(config.output.solution, x);
  return exit_code_for(report.result.status);
}

}  // namespace spk::app
