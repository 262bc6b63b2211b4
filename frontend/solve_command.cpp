#include "frontend/solve_command.hpp"

#include <cmath>
#include <fstream>
#include <iostream>
#include <optional>

#include "core/device.hpp"
#include "core/early_context.hpp"
#include "core/printable_text.hpp"
#include "frontend/compare_table.hpp"
#include "frontend/config/config_loader.hpp"
#include "frontend/exit_codes.hpp"
#include "frontend/problem.hpp"
#include "frontend/progress_line.hpp"
#include "frontend/run_report.hpp"
#include "frontend/solve_steps.hpp"
#include "frontend/time_steps.hpp"
#include "spkrylov/errors.hpp"
#include "spkrylov/solver.hpp"
#include "spmv/host/matrix_market.hpp"

namespace spk::app {

namespace {

// device: gpu without a usable GPU: the reason, and the config keys that run without one.
Device resolve_configured_device(Device choice) {
  try {
    return resolve_device(choice);
  } catch (const NoDevice& error) {
    throw NoDevice(std::string(error.what()) +
                   " (the config says device: gpu; use device: cpu or device: auto)");
  }
}

// device: auto without a GPU solves on the CPU and says so, once the input is known to be
// good (a bad input's error stays the only line on stderr).
void notice_cpu_fallback(Device choice, Device space) {
  if (choice == Device::automatic && space == Device::cpu)
    std::cerr << "notice: no usable CUDA GPU (" << no_gpu_reason()
              << "); solving on the CPU reference path (device: auto)\n";
}

double relative_difference(const std::vector<double>& x, const std::vector<double>& exact) {
  double diff = 0.0, norm = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    diff += (x[i] - exact[i]) * (x[i] - exact[i]);
    norm += exact[i] * exact[i];
  }
  return norm > 0.0 ? std::sqrt(diff / norm) : std::sqrt(diff);
}

// The Solver's setup errors (Jacobi's zero diagonal row, a refused format, ...) name the
// row or the format; prefix the matrix (file) they are about. The library counts rows from
// 0; the CLI speaks of the matrix file's rows (1-based) and of config keys.
template <class T>
Solver<T> set_up_solver(const CsrMatrix<T>& matrix, const Problem& problem,
                        const SolverOptions& options, const SpmvOptions& spmv, Device space) {
  try {
    return Solver<T>(arrays_of(matrix), Options{options, spmv, space});
  } catch (const BadDiagonal& error) {
    throw BadInput(
        bad_diagonal_message(problem.name, options.preconditioner, error.row(), error.problem()));
  } catch (const BadInput& error) {
    throw BadInput(shown_name(problem.name) + ": " + error.what());
  } catch (const NotSupported& error) {
    throw NotSupported(shown_name(problem.name) + ": " + error.what());
  }
}

template <class T>
std::vector<double> solve_in_precision(const CsrMatrix<T>& matrix, const Problem& problem,
                                       const SolverOptions& options, const SpmvOptions& spmv,
                                       Device space, bool quiet, int steps,
                                       bool step_values_on_device, RunReport& report) {
  Solver<T> solver = set_up_solver(matrix, problem, options, spmv, space);
  const std::vector<T> b(problem.rhs.begin(), problem.rhs.end());
  std::vector<T> x(b.size(), T(0));
  ProgressLine progress(!quiet);
  report.result = solver.solve(b, x, progress.callback());
  progress.clear();
  report.setup = solver.setup_info();
  report.spmv_ms = solver.time_spmv_ms(20);
  if (steps > 1) run_time_steps(solver, steps, matrix.values, b, report, step_values_on_device);
  return std::vector<double>(x.begin(), x.end());
}

// One run of the system: its SpMV options (matrix_values from its precision) and solver
// options (its vector_ops).
struct Run {
  SpmvOptions spmv;
  SolverOptions solver;
};

Run run_of(const RunConfig& config, const SpmvOptions& spmv, VectorOps vector_ops,
           Precision precision) {
  Run run{spmv_for(spmv, precision), solver_options_of_run(config)};
  run.solver.vector_ops = vector_ops;
  return run;
}

// The runs: `spmv:` alone, or the `compare:` list plus csr-scalar and cusparse (fp64 values,
// the config's vector_ops) as references when the list lacks them (the table's speedups need
// them).
std::vector<Run> runs_for(const RunConfig& config, Device space) {
  const Run configured = run_of(config, config.spmv, config.solver.vector_ops, config.precision);
  if (config.compare.empty()) return {configured};
  if (space == Device::cpu) {
    notice_compare_on_cpu(config);
    return {configured};
  }
  std::vector<Run> runs;
  bool has_scalar = false, has_cusparse = false;
  for (const auto& entry : config.compare) {
    runs.push_back(run_of(config, entry.spmv, entry.vector_ops, entry.precision));
    const bool fp64 = entry.precision != Precision::mixed_precision;
    has_scalar = has_scalar || (fp64 && entry.spmv.format == Format::csr_scalar);
    has_cusparse = has_cusparse || (fp64 && entry.spmv.format == Format::cusparse);
  }
  const Precision reference_precision = config.precision == Precision::single_precision
                                            ? Precision::single_precision
                                            : Precision::double_precision;
  SpmvOptions reference = config.spmv;
  if (!has_scalar) {
    reference.format = Format::csr_scalar;
    runs.push_back(run_of(config, reference, config.solver.vector_ops, reference_precision));
  }
  if (!has_cusparse) {
    reference.format = Format::cusparse;
    runs.push_back(run_of(config, reference, config.solver.vector_ops, reference_precision));
  }
  return runs;
}

void write_histories_csv(const std::string& path, const std::vector<RunReport>& runs) {
  if (runs.size() == 1) return write_history_csv(path, runs.front().result);
  std::ofstream file(path);
  if (!file) throw BadInput(shown_name(path) + ": cannot open the history CSV for writing");
  file << "format,iteration,residual,elapsed_s\n";
  char line[160];
  for (const auto& run : runs) {
    const auto& history = run.result.history;
    for (std::size_t k = 0; k < history.residual.size(); ++k) {
      std::snprintf(line, sizeof line, "%s,%zu,%.17g,%.9f\n", run.setup.operator_name.c_str(), k,
                    history.residual[k], history.elapsed_s[k]);
      file << line;
    }
  }
}

}  // namespace

int run_solve_command(const SolveCommandOptions& options) {
  const RunConfig config = load_solve_config(options);
  if (options.print_config) {
    std::cout << to_yaml(config);
    return 0;
  }
  const Device space = resolve_configured_device(config.device);
  std::optional<EarlyDeviceContext> early_context;  // made while the matrix loads
  if (space == Device::gpu) early_context.emplace();
  const Problem problem = build_problem(config);
  notice_cpu_fallback(config.device, space);
  const bool single = config.precision == Precision::single_precision;
  const CsrMatrix<float> matrix_single =
      single ? convert_values<float>(problem.matrix) : CsrMatrix<float>{};

  RunReport common;
  common.resolved_config = to_yaml(config);
  common.config_origin = describe_config_origin(options, config.output.report);
  common.problem_name = problem.name;
  common.stats = compute_matrix_stats(problem.matrix);
  common.solver = config.solver;
  common.load_s = problem.load_s;

  std::vector<RunReport> runs;
  std::vector<double> x;
  for (const Run& run : runs_for(config, space)) {
    RunReport report = common;
    report.solver = run.solver;
    report.precision = single                                           ? "single"
                       : run.spmv.matrix_values == MatrixValues::single ? "mixed"
                                                                        : "double";
    SolverOptions solver = run.solver;  // with the AMG's block size, coordinates, vectors
    set_amg_inputs(problem, solver);
    x = single ? solve_in_precision(matrix_single, problem, solver, run.spmv, space, options.quiet,
                                    config.steps, config.step_values_on_device, report)
               : solve_in_precision(problem.matrix, problem, solver, run.spmv, space, options.quiet,
                                    config.steps, config.step_values_on_device, report);
    if (problem.exact_solution)
      report.solution_error = relative_difference(x, *problem.exact_solution);
    runs.push_back(std::move(report));
  }

  if (space == Device::cpu && !config.compare.empty())
    runs = rows_of_cpu_compare(runs.front(), config);

  int exit_code = 0;
  for (const auto& run : runs) exit_code = std::max(exit_code, exit_code_for(overall_status(run)));
  print_text_report(std::cout, runs.front());
  if (runs.size() > 1) {
    std::cout << "\ncompare (" << runs.size() << " runs of the same system):\n";
    print_compare_table(std::cout, runs);
  }
  if (!config.output.report.empty()) write_json_report(config.output.report, runs);
  if (options.json_report != nullptr) *options.json_report = json_report_text(runs);
  if (!config.output.solution.empty()) write_vector_market(config.output.solution, x);
  if (!config.output.history.empty()) write_histories_csv(config.output.history, runs);
  if (!config.output.plot.empty()) write_plot(config, runs);
  return exit_code;
}

}  // namespace spk::app
