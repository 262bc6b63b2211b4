#include "frontend/run_report.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "core/printable_text.hpp"
#include "frontend/json_writer.hpp"
#include "frontend/number_text.hpp"
#include "frontend/result_fields.hpp"
#include "frontend/tuning_summary.hpp"
#include "spkrylov/errors.hpp"

namespace spk::app {

namespace {

std::string megabytes(std::size_t bytes) {
  return number_text("%.1f MB", static_cast<double>(bytes) / 1e6);
}

std::string gigabytes(std::size_t bytes) {
  return number_text("%.2f GB", static_cast<double>(bytes) / 1e9);
}

// The device's memory in use at the setup's peak: what was in use before it (every user's,
// e.g. rows generated on the device before the solver) plus the library's peak above that.
std::size_t in_use_at_peak(const DeviceMemoryUse& memory) {
  const std::size_t before =
      memory.total_bytes > memory.free_bytes ? memory.total_bytes - memory.free_bytes : 0;
  return before + memory.peak_bytes;
}

// "setup memory: peak ..., steady ..., of ... free (... total; ... free after; about ... in use
// at the peak); largest array ..." (GPU setups; SetupInfo::memory).
void print_setup_memory(std::ostream& out, const DeviceMemoryUse& memory) {
  if (memory.total_bytes == 0) return;
  out << "             setup memory: peak " << gigabytes(memory.peak_bytes) << ", steady "
      << gigabytes(memory.steady_bytes) << ", of " << gigabytes(memory.free_bytes) << " free ("
      << gigabytes(memory.total_bytes) << " total; " << gigabytes(memory.free_after_bytes)
      << " free after; about " << gigabytes(in_use_at_peak(memory)) << " in use at the peak)";
  if (!memory.largest.empty())
    out << "; largest array " << memory.largest << " " << gigabytes(memory.largest_bytes);
  out << "\n";
  const auto print_holdings = [&](const char* when, const std::vector<MemoryHolding>& holdings) {
    if (holdings.empty()) return;
    out << "             " << when << ":";
    const char* separator = " ";
    for (const MemoryHolding& holding : holdings) {
      out << separator << holding.what << " " << gigabytes(holding.bytes);
      if (holding.arrays > 1) out << " (" << holding.arrays << ")";
      separator = ", ";
    }
    out << "\n";
  };
  print_holdings("held at the peak", memory.at_peak);
  print_holdings("held after setup", memory.after);
}

std::ofstream open_output(const std::string& path, const char* what) {
  std::ofstream out(path);
  if (!out) throw BadInput(shown_name(path) + ": cannot open " + what + " for writing");
  return out;
}

// "preconditioner ic0: factor_nnz=..., ...; setup 12.3 ms" (and its phases, where it has
// them), then one line per AMG level.
void print_preconditioner(std::ostream& out, const PreconditionerInfo& info) {
  if (info.name == "none") return;
  out << "             " << info.name << ": ";
  for (const auto& [name, value] : info.details) out << name << "=" << value << ", ";
  out << "setup " << number_text("%.1f ms", 1e3 * info.setup_s);
  const char* separator = " (";
  for (const auto& [phase, seconds] : info.setup_phases_s) {
    out << separator << phase << " " << number_text("%.1f", 1e3 * seconds);
    separator = ", ";
  }
  out << (info.setup_phases_s.empty() ? "" : " ms)") << "\n";
  for (std::size_t level = 0; level < info.levels.size(); ++level)
    out << "             level " << level << ": " << info.levels[level].rows << " rows, "
        << info.levels[level].nnz << " nonzeros, " << info.levels[level].format << "\n";
}

// The matrix's size and shape: the statistics, or (several processes) their combination,
// whose symmetry no process could check.
void print_matrix_shape(std::ostream& out, const RunReport& report) {
  const MatrixStats& stats = report.stats;
  out << "             ";
  if (report.distributed)
    out << report.distributed->global_rows << " x " << report.distributed->global_rows << ", "
        << report.distributed->global_nnz;
  else
    out << stats.rows << " x " << stats.cols << ", " << stats.nnz;
  out << " nonzeros, rows " << stats.min_row_length << ".." << stats.max_row_length
      << number_text(" (avg %.1f)", stats.avg_row_length)
      << (report.distributed            ? ", symmetry not checked (distributed)"
          : stats.numerically_symmetric ? ", symmetric"
                                        : ", nonsymmetric")
      << (stats.diagonally_dominant ? ", diagonally dominant" : "") << "\n";
}

// One row per process: its way to the first iteration, by phase (ProcessSetup), in ms.
void print_process_setups(std::ostream& out, const std::vector<ProcessSetup>& setups) {
  if (setups.empty()) return;
  out << "             setup per process (ms; start: process start to MPI_Init, 10 ms steps):\n"
         "             rank   start  mpi init     load   stats  partition  context  communicator"
         "  layouts  preconditioner  warm-up    setup\n";
  char line[240];
  for (std::size_t p = 0; p < setups.size(); ++p) {
    const ProcessSetup& setup = setups[p];
    const SetupPhases& phases = setup.phases;
    char start[16] = "-";
    if (setup.start_s >= 0.0) std::snprintf(start, sizeof start, "%.0f", 1e3 * setup.start_s);
    std::snprintf(line, sizeof line,
                  "             %4zu  %6s  %8.1f  %7.1f  %6.1f  %9.1f  %7.1f  %12.1f  %7.1f  %14.1f"
                  "  %7.1f  %7.1f\n",
                  p, start, 1e3 * setup.mpi_init_s, 1e3 * setup.load_s, 1e3 * setup.stats_s,
                  1e3 * phases.partition_s, 1e3 * phases.context_s, 1e3 * phases.communicator_s,
                  1e3 * phases.layouts_s, 1e3 * phases.preconditioner_s, 1e3 * phases.warm_up_s,
                  1e3 * setup.setup_s);
    out << line;
  }
  const bool on_gpus = std::any_of(setups.begin(), setups.end(), [](const ProcessSetup& setup) {
    return setup.memory_total_bytes > 0;
  });
  if (!on_gpus) return;
  out << "             device memory per process (GB; peak and steady: the library's arrays "
         "during and after setup):\n"
         "             rank     total  free before     peak   steady  free after  largest array\n";
  for (std::size_t p = 0; p < setups.size(); ++p) {
    const ProcessSetup& setup = setups[p];
    std::snprintf(line, sizeof line,
                  "             %4zu  %8.2f  %11.2f  %7.2f  %7.2f  %10.2f  %13.2f\n", p,
                  1e-9 * static_cast<double>(setup.memory_total_bytes),
                  1e-9 * static_cast<double>(setup.memory_free_bytes),
                  1e-9 * static_cast<double>(setup.memory_peak_bytes),
                  1e-9 * static_cast<double>(setup.memory_steady_bytes),
                  1e-9 * static_cast<double>(setup.memory_free_after_bytes),
                  1e-9 * static_cast<double>(setup.memory_largest_bytes));
    out << line;
  }
}

// One row per process: its rows, entries, halo, neighbours and communication during the solve.
void print_processes(std::ostream& out, const DistributedRun& run, double solve_s) {
  out << "processes    " << run.processes.size()
      << (run.host_threads > 0 ? " (" + std::to_string(run.host_threads) + " host thread" +
                                     (run.host_threads > 1 ? "s" : "") + " each)"
                               : std::string())
      << ", rows split by " << run.partition
      << (run.rows_made == "gpu" ? " (made on the GPUs)" : "") << ", " << run.transport
      << (run.overlap ? "" : ", no overlap") << "; communication not hidden by the overlap: "
      << number_text("%.1f%%", 100.0 * run.not_hidden_share(solve_s))
      << " of the solve (the largest share of any process"
      << (!run.times.empty() && run.times[0].on_device
              ? "; estimated from the phases timed after the solve)\n"
              : ")\n");
  out << "             rank        rows    nonzeros      halo     sends  neighbours  not hidden"
         "   product ms  local ms  halo ms  exchange ms  sum ms\n";
  char line[240];
  for (std::size_t p = 0; p < run.processes.size(); ++p) {
    const ProcessInfo& info = run.processes[p];
    const CommunicationTimes& times = run.times[p];
    const CommunicationPhases& phases = times.phases;
    std::snprintf(line, sizeof line,
                  "             %4d  %10d  %10lld  %8d  %8d  %10d  %9.1f%%  %11.4f  %8.4f  %7.4f"
                  "  %11.4f  %6.4f\n",
                  info.rank, info.rows, info.nnz, info.halo_size, info.send_size, info.neighbours,
                  solve_s > 0.0 ? 100.0 * times.not_hidden_s() / solve_s : 0.0, phases.product_ms,
                  phases.local_ms, phases.halo_ms, phases.exchange_ms, phases.allreduce_ms);
    out << line;
  }
  print_process_setups(out, run.setups);
}

// The time loop: one line per step after the first, and the totals.
void print_steps(std::ostream& out, const RunReport& report) {
  double update_s = 0.0, solve_s = report.result.solve_s;
  for (const StepReport& step : report.steps) {
    update_s += step.update_s;
    solve_s += step.solve_s;
  }
  out << "steps        " << report.steps.size() + 1 << " solves, each after new values (the "
      << "values times 1 + 0.01 (k - 1) at step k) and update_values: loop "
      << number_text("%.1f ms", 1e3 * report.loop_s) << " (update "
      << number_text("%.1f ms", 1e3 * update_s) << ", solve "
      << number_text("%.1f ms", 1e3 * solve_s) << ")\n";
  const bool device_values = report.steps.front().values_to_device_s >= 0.0;
  if (device_values)
    out << "             the values were on the device (step_values: device): update_values took "
           "a device array; \"to device\" is their copy before it, the simulation's part\n";
  out << "             step  status      iterations  true residual  update ms   solve ms"
      << (device_values ? "  to device ms" : "") << "\n";
  for (const StepReport& step : report.steps) {
    std::string status = to_string(step.status);
    status.resize(std::max<std::size_t>(status.size(), 10), ' ');
    out << "             " << number_text("%4.0f", step.step) << "  " << status << "  "
        << number_text("%10.0f", step.iterations) << "  "
        << number_text("%13.3e", step.relative_true_residual) << "  "
        << number_text("%9.1f", 1e3 * step.update_s) << "  "
        << number_text("%9.1f", 1e3 * step.solve_s)
        << (device_values ? "  " + number_text("%12.1f", 1e3 * step.values_to_device_s) : "")
        << "\n";
  }
}

}  // namespace

double DistributedRun::not_hidden_share(double solve_s) const {
  double largest = 0.0;
  for (const CommunicationTimes& time : times) largest = std::max(largest, time.not_hidden_s());
  return solve_s > 0.0 ? largest / solve_s : 0.0;
}

void print_text_report(std::ostream& out, const RunReport& report) {
  const SolveResult& r = report.result;
  out << "config       " << report.config_origin << "\n";
  out << "matrix       " << report.problem_name << "\n";
  print_matrix_shape(out, report);
  out << "device       " << report.setup.device_name << ", " << report.precision << " precision\n";
  out << "format       " << report.setup.operator_name;
  for (const auto& [name, value] : report.setup.format_details) out << ", " << name << "=" << value;
  out << "\n";
  if (report.setup.device == Device::gpu)
    out << "             device memory " << megabytes(report.setup.device_bytes)
        << ", bytes moved per SpMV " << megabytes(report.setup.bytes_per_spmv) << "\n";
  print_setup_memory(out, report.setup.memory);
  const bool gmres =
      report.solver.method == Method::gmres || report.solver.method == Method::fgmres;
  out << "solver       " << to_string(report.solver.method)
      << (gmres ? "(" + std::to_string(report.solver.restart) + ", " +
                      to_string(report.solver.orthogonalization) + ")"
                : std::string())
      << ", preconditioner " << to_string(report.solver.preconditioner) << ", tolerance "
      << number_text("%.1e", report.solver.tolerance) << " ("
      << to_string(report.solver.tolerance_mode) << "), max_iterations "
      << report.solver.max_iterations
      << (report.solver.vector_ops == VectorOps::fused ? ", fused vector ops" : "") << "\n";
  print_preconditioner(out, report.setup.preconditioner);
  out << "\nstatus       " << to_string(r.status) << "\n";
  out << "             " << r.message << "\n";
  out << "iterations   " << r.iterations;
  // Both paths run the iterations in blocks of at most check_every and look at the
  // residual between blocks; only the GPU has to read it back to do so.
  if (r.iterations_executed != r.iterations)
    out << " (" << r.iterations_executed << " executed: "
        << (report.setup.device == Device::gpu ? "the residual is read back after blocks of "
                                               : "the loop looks at the residual after blocks of ")
        << "at most " << report.solver.check_every << ", check_every)";
  if (r.residual_replacements > 0)
    out << ", " << r.residual_replacements << " residual replacement"
        << (r.residual_replacements > 1 ? "s" : "")
        << (report.precision == "mixed"
                ? " (fp32 matrix values: each a refinement step, restarted from x with the fp64 "
                  "residual)"
                : " (the recursive residual met the target, the true one did not: restarted "
                  "from x)");
  if (r.breakdown_restarts > 0)
    out << ", " << r.breakdown_restarts << " breakdown restart"
        << (r.breakdown_restarts > 1 ? "s" : "")
        << (report.solver.method == Method::pipecg
                ? " (r = b - Ax, fresh directions, after a breakdown)"
                : " (r_hat = r = b - Ax after a breakdown)");
  if (gmres && r.iterations > 0)
    out << ", " << r.second_passes << " with a second Gram-Schmidt pass";
  out << "\n";
  out << "residual     true ||b-Ax|| = " << number_text("%.3e", r.true_residual) << ", relative "
      << number_text("%.3e", r.relative_true_residual) << "; recursive "
      << number_text("%.3e", r.recursive_residual) << "\n";
  if (report.solution_error)
    out << "error        ||x - x_true|| / ||x_true|| = "
        << number_text("%.3e", *report.solution_error) << "\n";
  out << "times        load " << number_text("%.1f ms", 1e3 * report.load_s) << ", setup "
      << number_text("%.1f ms", 1e3 * report.setup.setup_s) << ", solve "
      << number_text("%.1f ms", 1e3 * r.solve_s) << ", "
      << number_text("%.4f ms", r.ms_per_iteration()) << " per iteration";
  if (report.spmv_ms > 0.0) out << ", SpMV alone " << number_text("%.4f ms", report.spmv_ms);
  out << "\n";
  if (report.distributed) print_processes(out, *report.distributed, r.solve_s);
  if (!report.steps.empty()) print_steps(out, report);
  print_tuning_summary(out, report.setup.tuning,
                       solve_spmv_count(report.result, report.solver.method));
}

namespace {

void write_preconditioner_object(JsonWriter& json, const PreconditionerInfo& info) {
  json.begin_object();
  json.field("name", info.name);
  for (const auto& [name, value] : info.details) json.key(name).number_or_string(value);
  json.field("setup_ms", 1e3 * info.setup_s);
  json.key("setup_phases_ms").begin_object();
  for (const auto& [phase, seconds] : info.setup_phases_s) json.field(phase, 1e3 * seconds);
  json.end_object();
  json.key("levels").begin_array();
  for (const PreconditionerLevel& level : info.levels) {
    json.begin_object();
    json.field("rows", level.rows);
    json.field("nnz", level.nnz);
    json.field("format", level.format);
    json.end_object();
  }
  json.end_array();
  json.end_object();
}

// The matrix statistics; several processes: the global sizes, and null for the symmetry.
void write_matrix_json(JsonWriter& json, const RunReport& report) {
  json.key("matrix").begin_object();
  json.field("name", report.problem_name);
  for (auto [name, value] : matrix_stats_fields(report.stats)) {
    if (report.distributed) {
      if (name == "rows" || name == "cols") value = std::to_string(report.distributed->global_rows);
      if (name == "nnz") value = std::to_string(report.distributed->global_nnz);
      if (name == "structurally_symmetric" || name == "numerically_symmetric") value = "null";
    }
    json.key(name).literal(value);
  }
  json.end_object();
}

// "device_memory": a GPU setup's memory in bytes (SetupInfo::memory); null on the CPU.
void write_device_memory_json(JsonWriter& json, const DeviceMemoryUse& memory) {
  if (memory.total_bytes == 0) {
    json.key("device_memory").null();
    return;
  }
  json.key("device_memory").begin_object();
  json.field("total_bytes", memory.total_bytes);
  json.field("free_bytes", memory.free_bytes);
  json.field("free_after_bytes", memory.free_after_bytes);
  json.field("peak_bytes", memory.peak_bytes);
  json.field("steady_bytes", memory.steady_bytes);
  json.field("in_use_at_peak_bytes", in_use_at_peak(memory));
  json.field("largest_bytes", memory.largest_bytes);
  json.field("largest", memory.largest);
  for (const auto& [name, holdings] :
       {std::pair{"at_peak", &memory.at_peak}, std::pair{"after", &memory.after}}) {
    if (holdings->empty()) continue;
    json.key(name).begin_array();
    for (const MemoryHolding& holding : *holdings) {
      json.begin_object();
      json.field("what", holding.what);
      json.field("bytes", holding.bytes);
      json.field("arrays", holding.arrays);
      json.end_object();
    }
    json.end_array();
  }
  json.end_object();
}

// A process's "setup_ms": its way to the first iteration by phase (ProcessSetup).
void write_process_setup_json(JsonWriter& json, const ProcessSetup& setup) {
  const SetupPhases& phases = setup.phases;
  json.key("setup_ms").begin_object();
  json.key("start").optional(setup.start_s >= 0.0 ? std::optional<double>(1e3 * setup.start_s)
                                                  : std::nullopt);
  json.field("mpi_init", 1e3 * setup.mpi_init_s);
  json.field("load", 1e3 * setup.load_s);
  json.field("stats", 1e3 * setup.stats_s);
  json.field("partition", 1e3 * phases.partition_s);
  json.field("context", 1e3 * phases.context_s);
  json.field("communicator", 1e3 * phases.communicator_s);
  json.field("layouts", 1e3 * phases.layouts_s);
  json.field("preconditioner", 1e3 * phases.preconditioner_s);
  json.field("warm_up", 1e3 * phases.warm_up_s);
  json.field("total", 1e3 * setup.setup_s);
  json.end_object();
}

// "steps": null for one solve, else the time loop: each step after the first, and the totals.
void write_steps_json(JsonWriter& json, const RunReport& report) {
  if (report.steps.empty()) {
    json.key("steps").null();
    return;
  }
  double update_s = 0.0, solve_s = report.result.solve_s;
  for (const StepReport& step : report.steps) {
    update_s += step.update_s;
    solve_s += step.solve_s;
  }
  json.key("steps").begin_object();
  json.field("count", report.steps.size() + 1);
  json.field("loop_ms", 1e3 * report.loop_s);
  json.field("update_ms", 1e3 * update_s);
  json.field("solve_ms", 1e3 * solve_s);
  json.key("after_the_first").begin_array();
  for (const StepReport& step : report.steps) {
    json.begin_object();
    json.field("step", step.step);
    json.field("status", to_string(step.status));
    json.field("iterations", step.iterations);
    json.field("relative_true_residual", step.relative_true_residual);
    json.field("update_ms", 1e3 * step.update_s);
    json.field("solve_ms", 1e3 * step.solve_s);
    if (step.values_to_device_s >= 0.0)
      json.field("values_to_device_ms", 1e3 * step.values_to_device_s);
    json.end_object();
  }
  json.end_array();
  json.end_object();
}

// "distributed": null for one process, else the partition and one object per process.
void write_distributed_json(JsonWriter& json, const RunReport& report) {
  if (!report.distributed) {
    json.key("distributed").null();
    return;
  }
  const DistributedRun& run = *report.distributed;
  const double solve_s = report.result.solve_s;
  json.key("distributed").begin_object();
  json.field("processes", run.processes.size());
  json.field("partition", run.partition);
  json.field("rows_made", run.rows_made);
  json.field("transport", run.transport);
  json.field("overlap", run.overlap);
  if (run.host_threads > 0) json.field("host_threads", run.host_threads);
  json.field("not_hidden_share", run.not_hidden_share(solve_s));
  json.key("per_process").begin_array();
  for (std::size_t p = 0; p < run.processes.size(); ++p) {
    const ProcessInfo& info = run.processes[p];
    const CommunicationTimes& times = run.times[p];
    json.begin_object();
    json.field("rank", info.rank);
    json.field("first_row", static_cast<long long>(info.first_row));
    json.field("rows", info.rows);
    json.field("nnz", info.nnz);
    json.field("local_nnz", info.local_nnz);
    json.field("halo_nnz", info.halo_nnz);
    json.field("halo_size", info.halo_size);
    json.field("send_size", info.send_size);
    json.field("neighbours", info.neighbours);
    json.field("halo_start_ms", 1e3 * times.halo_start_s);
    json.field("halo_wait_ms", 1e3 * times.halo_wait_s);
    json.field("reduction_ms", 1e3 * times.reduction_s);
    json.field("exchanges", times.exchanges);
    json.field("reductions", times.reductions);
    json.field("not_hidden_ms", 1e3 * times.not_hidden_s());
    json.field("not_hidden_share", solve_s > 0.0 ? times.not_hidden_s() / solve_s : 0.0);
    json.field("device", info.device);
    json.field("not_hidden_estimated", times.on_device);
    json.key("phases").begin_object();
    json.field("product_ms", times.phases.product_ms);
    json.field("local_ms", times.phases.local_ms);
    json.field("halo_ms", times.phases.halo_ms);
    json.field("exchange_ms", times.phases.exchange_ms);
    json.field("allreduce_ms", times.phases.allreduce_ms);
    json.field("exposed_exchange_ms", times.phases.exposed_exchange_ms());
    json.end_object();
    if (p < run.setups.size()) {
      const ProcessSetup& setup = run.setups[p];
      write_process_setup_json(json, setup);
      DeviceMemoryUse memory;  // the numbers gathered (the largest array's name stays local)
      memory.total_bytes = setup.memory_total_bytes;
      memory.free_bytes = setup.memory_free_bytes;
      memory.free_after_bytes = setup.memory_free_after_bytes;
      memory.peak_bytes = setup.memory_peak_bytes;
      memory.steady_bytes = setup.memory_steady_bytes;
      memory.largest_bytes = setup.memory_largest_bytes;
      write_device_memory_json(json, memory);
    }
    json.end_object();
  }
  json.end_array();
  json.end_object();
}

void write_run_object(JsonWriter& json, const RunReport& report) {
  const SolveResult& r = report.result;
  json.begin_object();
  json.field("config", report.resolved_config);
  if (!report.requested_format.empty()) {
    json.field("requested_format", report.requested_format);
    json.field("note", std::string(cpu_compare_note));
  }
  write_matrix_json(json, report);
  json.field("device", report.setup.device_name);
  json.field("space", to_string(report.setup.device));
  json.field("precision", report.precision);
  json.key("format").begin_object();
  json.field("name", report.setup.operator_name);
  for (const auto& [name, value] : report.setup.format_details)
    json.key(name).number_or_string(value);
  json.field("device_bytes", report.setup.device_bytes);
  json.field("bytes_per_spmv", report.setup.bytes_per_spmv);
  json.end_object();
  write_device_memory_json(json, report.setup.memory);
  json.key("preconditioner");
  write_preconditioner_object(json, report.setup.preconditioner);
  for_each_result_field(r, [&](const char* name, const auto& value) { json.field(name, value); });
  json.key("solution_error").optional(report.solution_error);
  json.key("times_ms").begin_object();
  json.field("load", 1e3 * report.load_s);
  json.field("setup", 1e3 * report.setup.setup_s);
  json.field("solve", 1e3 * r.solve_s);
  json.field("per_iteration", r.ms_per_iteration());
  json.key("spmv").optional(report.spmv_ms > 0.0 ? std::optional<double>(report.spmv_ms)
                                                 : std::nullopt);
  json.end_object();
  if (report.setup.tuning.used)
    write_tuning_json(json, report.setup.tuning, solve_spmv_count(r, report.solver.method));
  else
    json.key("tuning").null();
  write_distributed_json(json, report);
  write_steps_json(json, report);
  json.end_object();
}

}  // namespace

SolveStatus overall_status(const RunReport& report) {
  if (!report.result.converged()) return report.result.status;
  for (const StepReport& step : report.steps)
    if (step.status != SolveStatus::converged) return step.status;
  return report.result.status;
}

void write_json_report(std::ostream& out, const std::vector<RunReport>& runs) {
  JsonWriter json(out);
  if (runs.size() == 1) {
    write_run_object(json, runs.front());
  } else {
    json.begin_object();
    json.key("compare").begin_array();
    for (const RunReport& run : runs) write_run_object(json, run);
    json.end_array();
    json.end_object();
  }
  out << "\n";
}

void write_json_report(const std::string& path, const std::vector<RunReport>& runs) {
  std::ofstream file = open_output(path, "the JSON report");
  write_json_report(file, runs);
}

std::string compare_row_name(const RunReport& run) {
  if (run.requested_format.empty()) return run.setup.operator_name;
  return run.requested_format + " (" + run.setup.operator_name + ")";
}

std::string preconditioner_json_text(const PreconditionerInfo& info) {
  std::ostringstream text;
  JsonWriter json(text);
  write_preconditioner_object(json, info);
  return text.str();
}

std::string json_report_text(const std::vector<RunReport>& runs) {
  std::ostringstream text;
  write_json_report(text, runs);
  return text.str();
}

void write_history_csv(const std::string& path, const SolveResult& result) {
  std::ofstream file = open_output(path, "the history CSV");
  file << "iteration,residual,elapsed_s\n";
  char line[96];
  for (std::size_t k = 0; k < result.history.residual.size(); ++k) {
    std::snprintf(line, sizeof line, "%zu,%.17g,%.9f\n", k, result.history.residual[k],
                  result.history.elapsed_s[k]);
    file << line;
  }
}

}  // namespace spk::app
