#include "frontend/solve_steps.hpp"

#include <filesystem>
#include <iostream>

#include "frontend/config/config_loader.hpp"
#include "frontend/convergence_plot.hpp"

namespace spk::app {

RunConfig load_solve_config(const SolveCommandOptions& options) {
  return options.config_path.empty() ? parse_run_config(to_yaml(default_run_config()),
                                                        "<built-in default>", options.overrides)
                                     : load_run_config(options.config_path, options.overrides);
}

SolverOptions solver_options_of_run(const RunConfig& config) {
  SolverOptions options = config.solver;
  if (config.steps <= 1) options.preconditioner_options.amg.resetup = AmgResetup::rebuild;
  return options;
}

// Where the run's config came from, and where every key of it can be seen.
std::string describe_config_origin(const SolveCommandOptions& options,
                                   const std::string& json_report) {
  std::string text = options.config_path.empty() ? "built-in default" : options.config_path;
  if (!options.overrides.empty())
    text += " + " + std::to_string(options.overrides.size()) + " --set";
  text += "; every key: add --print-config";
  if (!json_report.empty()) text += ", or see \"config\" in " + json_report;
  return text;
}

std::string bad_diagonal_message(const std::string& problem_name, Preconditioner preconditioner,
                                 long long zero_based_row, const std::string& problem) {
  return problem_name + ": " + to_string(preconditioner) + ": row " +
         std::to_string(zero_based_row + 1) + " (1-based, as in the matrix file): " + problem +
         "; use solver.preconditioner: none";
}

// The convergence plot: the relative residual ||r|| / ||b|| (the stopping quantity of the
// default tolerance_mode, comparable across problems) unless output.plot_residual is
// absolute; the title names the matrix file without its directories.
void write_plot(const RunConfig& config, const std::vector<RunReport>& runs) {
  const bool relative = config.output.plot_residual == "relative";
  std::vector<PlotSeries> series;
  for (const auto& run : runs) {
    const SolveResult& result = run.result;
    const double scale = relative && result.b_norm > 0.0 ? 1.0 / result.b_norm : 1.0;
    PlotSeries line{compare_row_name(run) + " (" + to_string(result.status) + ", " +
                        std::to_string(result.iterations) + " it)",
                    result.history.residual, result.history.elapsed_s, scale * result.threshold};
    for (double& value : line.residual) value *= scale;
    series.push_back(std::move(line));
  }
  const std::string matrix = config.matrix.file.empty()
                                 ? runs.front().problem_name
                                 : std::filesystem::path(config.matrix.file).filename().string();
  std::string title = std::string(to_string(config.solver.method)) + " on " + matrix;
  if (!runs.front().requested_format.empty())
    title += " (CPU path: every format runs the same CSR product)";
  write_convergence_svg(config.output.plot, title,
                        relative ? "recursive residual ||r|| / ||b||" : "recursive residual ||r||",
                        series);
}

void notice_compare_on_cpu(const RunConfig& config) {
  std::cerr << "notice: compare: the " << config.compare.size()
            << " SpMV setups differ only on the GPU; the CPU reference path solves once and "
               "names each row by the format asked for\n";
}

std::vector<RunReport> rows_of_cpu_compare(const RunReport& run, const RunConfig& config) {
  std::vector<RunReport> rows;
  for (const auto& entry : config.compare) {
    rows.push_back(run);
    rows.back().requested_format = to_string(entry.spmv.format);
  }
  return rows;
}

}  // namespace spk::app
