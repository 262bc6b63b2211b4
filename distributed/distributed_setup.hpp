#pragma once
// The steps of a DistributedSolver's setup and measurement that do not depend on where the
// vectors live (host or GPU): the agreed checks of the caller's rows and options, the
// partition and local/halo split, the per-process facts, and the phase timings. Each check
// that can fail on one process runs as an agreed step (agreed_errors.hpp).
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "distributed/communicator.hpp"
#include "distributed/distributed_matrix.hpp"
#include "distributed/fault_watch.hpp"
#include "distributed/local_halo_split.hpp"
#include "distributed/row_partition.hpp"
#include "spkrylov/distributed_info.hpp"
#include "spkrylov/options.hpp"

namespace spk {

// The options that decide the iteration, as text: every process must run the same one.
std::string iteration_options_text(const SolverOptions& options);

// NotSupported for what the distributed solver cannot do with `processes` processes.
void check_supported(const SolverOptions& options, int processes);

// BadInput naming the first non-finite entry (numbered from `first`).
template <class T>
void check_finite(const T* values, std::size_t count, global_index_t first, const char* what);

// A preconditioner that divides by a_ii finds every diagonal usable, checked on the host
// before it is built, so a fault fails an agreed step on every process instead of throwing
// on one inside a collective setup (Chebyshev's Lanczos steps). Rows named are global.
template <class T>
void check_diagonal(const CsrMatrix<T>& pattern, const T* values, global_index_t first_row,
                    Preconditioner preconditioner);
// The same with a_ii's positions in `values` known (row i's at positions[i]).
template <class T>
void check_diagonal_at(const std::vector<index_t>& positions, const T* values,
                       global_index_t first_row);

// The caller's rows checked (the options, the CSR arrays, finite values, systems AMG's node
// cut) and the row partition (blocks in rank order) from every process's count; every step
// agreed. Collective. Both paths start here; the GPU path then splits on the device.
template <class T>
RowPartition partition_caller_rows(const Communicator& communicator,
                                   const DistributedCsrArrays<T>& arrays, const Options& options);

// The same for rows that already exist on the device (generated there: device_grid_rows.hpp):
// the options checked, and the partition from every process's count, whose block for this
// process must start at `first_row` (Error otherwise: the caller's rows are the partition's).
RowPartition partition_device_rows(const Communicator& communicator, index_t rows,
                                   global_index_t first_row, const Options& options);

// Whether the solve runs on the GPU path: Device::gpu, or automatic where every process has a
// GPU (agreed). Collective.
bool solves_on_gpu(MPI_Comm comm, Device device);

// The caller's rows, checked, partitioned and split into local and halo parts on the host (the
// CPU path); every step agreed. Collective.
template <class T>
struct PartitionedRows {
  RowPartition partition;
  SplitRows<T> split;
};
template <class T>
PartitionedRows<T> split_caller_rows(const Communicator& communicator,
                                     const DistributedCsrArrays<T>& arrays, const Options& options);

// What this process holds and exchanges.
template <class T>
ProcessInfo describe_process(const DistributedMatrix<T>& matrix, int rank, int device);

// The median of `repetitions` runs of `work`, in ms, as the caller's clock measures it (host
// clock on the CPU, CUDA events on a GPU).
using PhaseTimer = std::function<double(int repetitions, const std::function<void()>& work)>;

// This process's phases: the product, each block alone, the exchange alone, one scalar sum.
// x, y: vectors of this process's rows; sum_once: sums one scalar over the processes.
// Collective over watch.comm() (every process times the same sequence).
template <class T>
CommunicationPhases measure_phases(FaultWatch& watch, DistributedMatrix<T>& matrix, const T* x,
                                   T* y, const std::function<void()>& sum_once,
                                   const PhaseTimer& time_ms, int repetitions);

inline double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The setup's phases (SetupInfo::phases), timed one after another: lap(phase) adds the time
// since the last lap, or since the clock was made, to `phase`.
class PhaseClock {
 public:
  void lap(double& phase) {
    const auto now = std::chrono::steady_clock::now();
    phase += std::chrono::duration<double>(now - last_).count();
    last_ = now;
  }

 private:
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

}  // namespace spk
