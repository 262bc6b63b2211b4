#pragma once
/// @file
/// spk::SetupInfo: what a Solver's setup built (device, format, memory, the `auto` tuning),
/// for reports: Solver::setup_info().
#include <cstddef>
#include <spkrylov/options.hpp>
#include <string>
#include <utility>
#include <vector>

namespace spk {

/// What `spmv.format: auto` did at setup (SetupInfo::tuning): the candidates it timed or
/// skipped, the choice, and the tuning cache.
struct TuningTrial {
  std::string label;  // candidate_label(options), e.g. "hyb bs=256 ldg exact"
  SpmvOptions options;
  double spmv_ms = -1.0;  // median SpMV time; < 0 when it was not timed
  std::string outcome;    // "timed", "refused: ...", "skipped: ..." (pre-filter or budget)
};

struct TuningReport {
  bool used = false;                     // the format was `auto`
  bool from_cache = false;               // the choice came from the cache: nothing was timed
  std::string cache_path;                // "" when the cache is off
  std::vector<std::string> cache_notes;  // unreadable cache lines, failed writes (one line each)
  std::vector<TuningTrial> trials;       // in the order they were considered
  SpmvOptions chosen;
  std::string chosen_label;
  double chosen_ms = -1.0;    // the chosen setup's SpMV time as measured while tuning (or cached)
  double baseline_ms = -1.0;  // `csr` (the default format) measured in the same tuning run
  double tuning_ms = 0.0;     // wall-clock time spent tuning (conversions and timings)
};

/// One level of a multilevel preconditioner (AMG), finest first.
struct PreconditionerLevel {
  long long rows = 0;
  long long nnz = 0;
  std::string format;  ///< the SpMV operator of the level, e.g. "ellpack-r/ldg" or "cpu-csr"
};

/// What the preconditioner's setup built (SetupInfo::preconditioner).
struct PreconditionerInfo {
  std::string name = "none";  ///< "none", "jacobi", "chebyshev", "amg", ...
  /// Its numbers as (name, value) text, e.g. {"lambda_max", "1.98"}, {"bounds", "lanczos"}.
  std::vector<std::pair<std::string, std::string>> details;
  std::vector<PreconditionerLevel> levels;  ///< AMG: every level, finest first
  /// Setup time by phase (seconds), e.g. {"aggregation", 0.12}; empty when not split.
  std::vector<std::pair<std::string, double>> setup_phases_s;
  double setup_s = 0.0;  ///< the preconditioner's whole setup
};

/// A DistributedSolver's setup on one process, by phase, in the order they run (seconds;
/// together about SetupInfo::setup_s). A phase that waits in a collective call holds the time
/// it waited for the slowest process. 0 where it does not apply (context and communicator on
/// the CPU path, and every phase of a one-process Solver).
struct SetupPhases {
  double partition_s = 0.0;       ///< the rows' checks, the local/halo split (GPU: the rows' upload
                                  ///< and the split on the device), the halo plan
  double context_s = 0.0;         ///< GPU: binding (cudaSetDevice), context, streams, cuBLAS
  double communicator_s = 0.0;    ///< GPU: the transport's choice and NCCL's communicator
  double layouts_s = 0.0;         ///< the blocks' SpMV formats, exchange buffers, diagonal check
  double preconditioner_s = 0.0;  ///< the preconditioner's setup and the iteration's vectors
  double warm_up_s = 0.0;         ///< GPU: one product and one sum (NCCL's connections)
};

/// The library's device arrays of one name (DeviceMemoryUse's breakdowns), e.g. "SpGEMM
/// buffer 4", 7.2e9 bytes in 3 arrays (one per level).
struct MemoryHolding {
  std::string what;
  std::size_t bytes = 0;
  std::size_t arrays = 0;
};

/// A GPU setup's device memory (SetupInfo::memory), in bytes: the device's as cudaMemGetInfo
/// sees it (every user: CUDA libraries, other processes) before and after setup, and the
/// library's own arrays (each device allocation it makes, counted) during setup. All 0 on the
/// CPU path.
struct DeviceMemoryUse {
  std::size_t total_bytes = 0;       ///< the device's memory
  std::size_t free_bytes = 0;        ///< free when setup began
  std::size_t free_after_bytes = 0;  ///< free when setup ended
  /// The most the library's arrays rose above their level when setup began (the matrix, its
  /// format's conversion, the preconditioner's intermediates such as AMG's SpGEMM products):
  /// setup fits when this is below free_bytes.
  std::size_t peak_bytes = 0;
  std::size_t steady_bytes = 0;   ///< what they hold after setup (matrix, preconditioner, vectors)
  std::size_t largest_bytes = 0;  ///< the largest single array allocated during setup
  std::string largest;            ///< its name, e.g. "AMG A_0 values" ("" when none)
  /// What the library held at (within 2% of) the peak, and when setup ended, by array name,
  /// largest first (at most 16 names each; the matrix's arrays from before setup included).
  std::vector<MemoryHolding> at_peak;
  std::vector<MemoryHolding> after;
};

/// What setup built, for reports.
struct SetupInfo {
  Device device = Device::cpu;  ///< where the solver runs: gpu or cpu
  std::string device_name;      ///< GPU name, or "CPU (N threads)"
  std::string operator_name;    ///< e.g. "ellpack-r/texture" or "cpu-csr"
  std::vector<std::pair<std::string, std::string>> format_details;
  std::size_t device_bytes = 0;       ///< matrix storage on the device
  std::size_t bytes_per_spmv = 0;     ///< minimal DRAM traffic of one SpMV
  double setup_s = 0.0;               ///< conversion + upload + handles + preconditioner
  TuningReport tuning;                ///< spmv.format auto: candidates, times, choice, cache
  PreconditionerInfo preconditioner;  ///< what the preconditioner built (bounds, levels)
  SetupPhases phases;                 ///< DistributedSolver: this process's setup by phase
  DeviceMemoryUse memory;             ///< GPU: device memory before, during and after setup
};

}  // namespace spk
