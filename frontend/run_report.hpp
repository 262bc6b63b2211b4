#pragma once
// The report of one `spkrylov solve` run: text on stdout, JSON on request.
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "frontend/config/run_config.hpp"
#include "spkrylov/distributed_info.hpp"
#include "spkrylov/result.hpp"
#include "spkrylov/solver.hpp"
#include "spmv/host/matrix_stats.hpp"

namespace spk::app {

// One process's way to its first iteration (seconds), in order: the launch, its rows, the
// report's matrix statistics, and the solver's setup by phase (SetupInfo::phases).
struct ProcessSetup {
  double start_s = -1.0;    // process start to MPI_Init: program, plugin, libraries (10 ms
                            // steps, from /proc); < 0: unknown
  double mpi_init_s = 0.0;  // MPI_Init (0 when MPI was up already)
  double load_s = 0.0;      // its rows and b: generated, or read whole and sent (rank 0)
  double stats_s = 0.0;     // the matrix statistics combined over the processes
  double setup_s = 0.0;     // the solver's setup (SetupInfo::setup_s): the phases below
  SetupPhases phases;
  // GPU: its device's memory at setup (SetupInfo::memory without the largest array's name, so
  // that the struct stays plain numbers, gathered as bytes); all 0 on the CPU.
  std::size_t memory_total_bytes = 0;
  std::size_t memory_free_bytes = 0;
  std::size_t memory_free_after_bytes = 0;
  std::size_t memory_peak_bytes = 0;
  std::size_t memory_steady_bytes = 0;
  std::size_t memory_largest_bytes = 0;

  void set_memory(const DeviceMemoryUse& memory) {
    memory_total_bytes = memory.total_bytes;
    memory_free_bytes = memory.free_bytes;
    memory_free_after_bytes = memory.free_after_bytes;
    memory_peak_bytes = memory.peak_bytes;
    memory_steady_bytes = memory.steady_bytes;
    memory_largest_bytes = memory.largest_bytes;
  }
};

// A run over several processes (mpirun): what each process held and how long it spent
// communicating during the solve, in rank order. The matrix statistics of the RunReport are
// then combined over the processes, without the symmetry (no process holds the whole matrix).
struct DistributedRun {
  std::string partition;  // "nnz" | "rows" (distributed.partition)
  // Where each process's rows were made: "gpu" (a grid kind generated on the device) or "host"
  std::string rows_made = "host";
  std::string transport;  // "mpi" (CPU), "nccl" or "mpi (host-staged)" (GPU)
  bool overlap = true;    // distributed.overlap
  int host_threads =
      0;  // OpenMP threads per process (distributed/process_threads.hpp); 0: not known
  global_index_t global_rows = 0;
  long long global_nnz = 0;
  std::vector<ProcessInfo> processes;
  std::vector<CommunicationTimes> times;
  std::vector<ProcessSetup> setups;  // empty where not measured

  // The largest share of the solve time any process spent communicating without overlap.
  double not_hidden_share(double solve_s) const;
};

// One step of a time loop (config `steps`, frontend/time_steps.hpp) after the first solve.
struct StepReport {
  int step = 0;                      // 2, 3, ...: the first solve is RunReport::result
  double update_s = 0.0;             // update_values: the new values in the format and the re-setup
  double values_to_device_s = -1.0;  // step_values: device, the copy before it; < 0: host values
  SolveStatus status = SolveStatus::running;
  int iterations = 0;
  double relative_true_residual = 0.0;
  double solve_s = 0.0;
};

struct RunReport {
  std::string resolved_config;  // YAML
  std::string config_origin;    // the config file (or built-in default) and where to see it all
  std::string problem_name;
  MatrixStats stats;
  std::string precision;  // "double" | "single"
  SetupInfo setup;
  SolverOptions solver;
  SolveResult result;
  double load_s = 0.0;
  double spmv_ms = 0.0;                  // one SpMV alone (median), 0 when not measured
  std::optional<double> solution_error;  // ||x - x_true|| / ||x_true||
  std::optional<DistributedRun> distributed;
  // compare: on the CPU path, where every format runs the same CSR product: the format this
  // row was asked for (the run itself is shared by the rows); empty otherwise.
  std::string requested_format;
  std::vector<StepReport> steps;  // steps 2..N of a time loop; empty for one solve
  double loop_s = 0.0;            // the whole loop: the first solve and every step after it
};

// The status the run exits with: the first solve's, or the first step's that did not converge.
SolveStatus overall_status(const RunReport& report);

// What a compare row is called: the operator that ran, or on the CPU path the format asked
// for with the operator that stood in for it ("ellpack-r (cpu-csr)").
std::string compare_row_name(const RunReport& run);
// The note a CPU-path compare carries in its table, plot title and JSON report.
inline constexpr const char* cpu_compare_note =
    "CPU path: every format runs the same CSR product; one solve stands for every row";

void print_text_report(std::ostream& out, const RunReport& report);
// The JSON report of `runs`: one run, its object; several (compare:), {"compare": [<one run
// object as above>, ...]}. To a file (output.report), a stream or a string.
void write_json_report(const std::string& path, const std::vector<RunReport>& runs);
void write_json_report(std::ostream& out, const std::vector<RunReport>& runs);
std::string json_report_text(const std::vector<RunReport>& runs);
// The report's "preconditioner" object alone (name, its details, setup times, AMG's levels):
// what the Python module's setup_info()["preconditioner"] holds, from the same writer.
std::string preconditioner_json_text(const PreconditionerInfo& info);
void write_history_csv(const std::string& path, const SolveResult& result);

}  // namespace spk::app
