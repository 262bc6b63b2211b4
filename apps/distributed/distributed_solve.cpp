#include "distributed_solve.hpp"

#include <cuda_runtime.h>
#include <omp.h>

#include <chrono>
#include <cmath>
#include <iostream>
#include <optional>
#include <type_traits>

#include "core/device.hpp"
#include "core/early_context.hpp"
#include "core/printable_text.hpp"
#include "distributed/agreed_errors.hpp"
#include "distributed/communicator.hpp"
#include "distributed/device_rows_solver.hpp"
#include "distributed/host_processes.hpp"
#include "distributed/process_threads.hpp"
#include "distributed/same_on_every_process.hpp"
#include "distributed_problem.hpp"
#include "distributed_report.hpp"
#include "frontend/config/config_loader.hpp"
#include "frontend/exit_codes.hpp"
#include "frontend/progress_line.hpp"
#include "frontend/solve_steps.hpp"
#include "frontend/time_steps.hpp"
#include "spkrylov/distributed.hpp"
#include "spmv/host/matrix_market.hpp"

namespace spk::app {

namespace {

// The resolved config without its first line (which names the file, as each process found
// it): what every process must agree on.
std::string config_contents(const std::string& resolved) {
  return resolved.substr(resolved.find('\n') + 1);
}

// The options of the app's distributed solver, from the config.
DistributedOptions distributed_options_of(const RunConfig& config) {
  DistributedOptions distributed;
  distributed.transport = config.distributed.transport;
  distributed.overlap = config.distributed.overlap;
  distributed.watch_faults = config.distributed.watch_faults;
  distributed.nccl_channels = config.distributed.nccl_channels;
  return distributed;
}

// The solver `make(options, distributed options)` builds over this process's rows; a zero
// pivot reworded as the single-process CLI does (1-based row of the matrix file), still agreed
// on.
template <class Make>
auto set_up_solver(const RunConfig& config, const SolverOptions& solver_options,
                   const std::string& problem_name, const Make& make) {
  try {
    return make(Options{solver_options, spmv_for(config.spmv, config.precision), config.device},
                distributed_options_of(config));
  } catch (const BadDiagonal& error) {
    BadInput reworded(bad_diagonal_message(problem_name, config.solver.preconditioner, error.row(),
                                           error.problem()));
    if (is_agreed(error)) throw_agreed(reworded);
    throw reworded;
  }
}

// The rows as the solver takes them: the problem's own arrays, or in single precision with the
// values rounded into `rounded` (the pattern is not copied).
template <class T>
DistributedCsrArrays<T> arrays_in_precision(const RowBlock<double>& rows, std::vector<T>& rounded) {
  if constexpr (std::is_same_v<T, double>) {
    return arrays_of(rows);
  } else {
    rounded.assign(rows.values.begin(), rows.values.end());
    return {rows.rows, rows.row_offsets.data(), rows.columns.data(), rounded.data()};
  }
}

// What a solve in precision T fills in the report, after it.
template <class T>
void collect_solve(DistributedSolver<T>& solver, RunReport& report, ProcessInfo& info,
                   CommunicationTimes& times, std::string& transport) {
  solver.time_phases(20);
  times = solver.communication_times();  // the solve's counts and the phases just timed
  info = solver.process_info();
  transport = solver.transport();
  report.setup = solver.setup_info();
  report.spmv_ms = solver.time_spmv_ms(20);
}

// Solves in precision T over host rows; returns this process's rows of x and fills the
// report's result, setup, SpMV time and the process's share.
template <class T>
std::vector<double> solve_in_precision(const Communicator& communicator,
                                       const DistributedProblem& problem, const RunConfig& config,
                                       bool quiet, RunReport& report, ProcessInfo& info,
                                       CommunicationTimes& times, std::string& transport) {
  std::vector<T> rounded;
  DistributedSolver<T> solver = set_up_solver(
      config, problem.solver, problem.name,
      [&](const Options& options, const DistributedOptions& distributed) {
        return DistributedSolver<T>(communicator.get(), arrays_in_precision(problem.rows, rounded),
                                    options, distributed);
      });
  rounded = std::vector<T>();  // the solver holds its copy
  const std::vector<T> b(problem.rhs.begin(), problem.rhs.end());
  std::vector<T> x(b.size(), T(0));
  ProgressLine progress(!quiet && communicator.rank() == 0);
  report.result = solver.solve(b, x, progress.callback());
  progress.clear();
  collect_solve(solver, report, info, times, transport);
  if (config.steps > 1) {
    const std::vector<T> values(problem.rows.values.begin(), problem.rows.values.end());
    run_time_steps(solver, config.steps, values, b, report, config.step_values_on_device);
  }
  return std::vector<double>(x.begin(), x.end());
}

// The same over rows generated on the GPU (problem.device_rows, moved into the solver): b
// made with them, or uploaded (rhs random or file), or A x* (from_solution random, by the
// solver's product); b and x stay on the device for the solve.
template <class T>
std::vector<double> solve_device_rows(const Communicator& communicator, DistributedProblem& problem,
                                      const RunConfig& config, bool quiet, RunReport& report,
                                      ProcessInfo& info, CommunicationTimes& times,
                                      std::string& transport) {
  DeviceGridRows<T>& rows = *problem.device_rows->of<T>();
  const auto n = static_cast<std::size_t>(rows.rows);
  DeviceBuffer<T> b = std::move(rows.rhs);
  DistributedSolver<T> solver =
      set_up_solver(config, problem.solver, problem.name,
                    [&](const Options& options, const DistributedOptions& distributed) {
                      return distributed_solver_of_device_rows<T>(
                          communicator.get(), split_rows_of(rows), options, distributed);
                    });
  problem.device_rows.reset();  // what the solver did not take
  if (b.size() != n) {          // b on the host first
    std::vector<T> host_b(problem.rhs.begin(), problem.rhs.end());
    if (problem.rhs.empty()) {  // from_solution: b = A x*
      if (!problem.exact_solution)
        throw Error("solve: no right-hand side for the device rows (internal error)");
      const std::vector<T> exact(problem.exact_solution->begin(), problem.exact_solution->end());
      host_b.resize(n);
      solver.multiply(exact.data(), host_b.data());
    }
    b = DeviceBuffer<T>(host_b, "right-hand side b");
  }
  DeviceBuffer<T> x(n, "solution x");
  if (n > 0) {
    SPK_CUDA_CHECK(cudaMemsetAsync(x.data(), 0, x.bytes(), nullptr));
    SPK_CUDA_CHECK(cudaStreamSynchronize(nullptr));
  }
  ProgressLine progress(!quiet && communicator.rank() == 0);
  report.result = solver.solve(b.data(), x.data(), progress.callback());
  progress.clear();
  collect_solve(solver, report, info, times, transport);
  const std::vector<T> host_x = download_array(x.data(), n, nullptr);
  return std::vector<double>(host_x.begin(), host_x.end());
}

// ||x - x*|| / ||x*|| over every process.
double solution_error(const Communicator& communicator, const std::vector<double>& x,
                      const std::vector<double>& exact) {
  double difference = 0.0, norm = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    difference += (x[i] - exact[i]) * (x[i] - exact[i]);
    norm += exact[i] * exact[i];
  }
  difference = sum_over_processes(communicator, difference);
  norm = sum_over_processes(communicator, norm);
  return norm > 0.0 ? std::sqrt(difference / norm) : std::sqrt(difference);
}

// Rank 0 prints the report and writes the outputs; a file it cannot write fails every process.
void write_outputs(const Communicator& communicator, const RunConfig& config,
                   const RunReport& report, const std::vector<double>& x,
                   const RowPartition& partition) {
  const std::vector<double> whole_x = config.output.solution.empty()
                                          ? std::vector<double>{}
                                          : gather_to_rank0(communicator, x, partition);
  on_every_process(communicator.get(), [&] {
    if (communicator.rank() != 0) return;
    print_text_report(std::cout, report);
    std::cout.flush();
    if (!config.output.report.empty()) write_json_report(config.output.report, {report});
    if (!config.output.solution.empty()) write_vector_market(config.output.solution, whole_x);
    if (!config.output.history.empty()) write_history_csv(config.output.history, report.result);
    if (!config.output.plot.empty()) write_plot(config, {report});
  });
}

}  // namespace

int run_distributed_solve(const SolveCommandOptions& options, MPI_Comm world,
                          const LaunchTimes& launch) {
  const Communicator communicator(world);
  const bool prints = communicator.rank() == 0;
  // The app's own host work (generating or reading the rows, the steps' values) on this
  // process's share of the host's CPUs, as the solver's calls are
  const int host_threads = threads_per_process(communicator.get());
  omp_set_num_threads(host_threads);
  RunConfig config;
  std::string resolved;
  on_every_process(communicator.get(), [&] {
    config = load_solve_config(options);
    resolved = to_yaml(config);
  });
  require_same_as_rank0(communicator.get(), config_contents(resolved), "the resolved config");
  if (options.print_config) {
    if (prints) std::cout << resolved;
    return 0;
  }
  if (!config.compare.empty() && prints) notice_compare_on_cpu(config);

  // The GPU's context made while the rows load (the solver's binding: local rank % devices).
  std::optional<EarlyDeviceContext> early_context;
  const HostProcesses on_host = host_processes(communicator.get());  // collective: every rank
  int devices = 0;
  if (config.device != Device::cpu && cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0)
    early_context.emplace(on_host.rank % devices);
  (void)cudaGetLastError();
  DistributedProblem problem = build_distributed_problem(config, communicator);
  RunReport report;
  report.resolved_config = resolved;
  report.config_origin = describe_config_origin(options, config.output.report);
  report.problem_name = problem.name;
  ProcessSetup setup;  // this process's way to its first iteration
  setup.start_s = launch.start_s;
  setup.mpi_init_s = launch.mpi_init_s;
  setup.load_s = problem.load_s;
  const auto stats_start = std::chrono::steady_clock::now();
  report.stats =
      problem.device_rows
          ? combined_matrix_stats(communicator, problem.device_rows->stats, problem.rows.first_row)
          : combined_matrix_stats(communicator, problem.rows);
  setup.stats_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - stats_start).count();
  report.solver = config.solver;
  report.load_s = problem.load_s;
  const bool single = config.precision == Precision::single_precision;
  report.precision = single ? "single" : "double";

  ProcessInfo info;
  CommunicationTimes times;
  std::string transport;
  std::vector<double> x;
  const bool rows_made_on_gpu = problem.device_rows.has_value();
  if (problem.device_rows)
    x = single ? solve_device_rows<float>(communicator, problem, config, options.quiet, report,
                                          info, times, transport)
               : solve_device_rows<double>(communicator, problem, config, options.quiet, report,
                                           info, times, transport);
  else
    x = single ? solve_in_precision<float>(communicator, problem, config, options.quiet, report,
                                           info, times, transport)
               : solve_in_precision<double>(communicator, problem, config, options.quiet, report,
                                            info, times, transport);
  if (problem.exact_solution)
    report.solution_error = solution_error(communicator, x, *problem.exact_solution);
  setup.setup_s = report.setup.setup_s;
  setup.phases = report.setup.phases;
  setup.set_memory(report.setup.memory);
  DistributedRun run = gather_distributed_run(communicator, info, times, setup);
  run.partition = to_string(config.distributed.partition);
  run.rows_made = rows_made_on_gpu ? "gpu" : "host";
  run.transport = transport;
  run.overlap = config.distributed.overlap;
  run.host_threads = host_threads;
  run.global_rows = problem.partition.global_rows();
  run.global_nnz = report.stats.nnz;
  report.distributed = std::move(run);
  write_outputs(communicator, config, report, x, problem.partition);
  return exit_code_for(overall_status(report));
}

}  // namespace spk::app
