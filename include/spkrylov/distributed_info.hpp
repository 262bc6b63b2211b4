#pragma once
/// @file
/// The plain types of spk::DistributedSolver (<spkrylov/distributed.hpp>), without MPI, so
/// that code which does not link MPI (reports, matrix builders) can use them:
/// spk::DistributedCsrArrays (the rows a process hands over), spk::DistributedOptions (how
/// the processes talk), spk::ProcessInfo (what one holds) and spk::CommunicationTimes (how
/// long it communicated).
#include <algorithm>
#include <spkrylov/csr_arrays.hpp>

namespace spk {

/// This process's rows: rows + 1 local row offsets (starting at 0), nnz global column
/// indices in [0, global rows), nnz values; host pointers. Copied at construction.
template <class T>
struct DistributedCsrArrays {
  index_t rows = 0;
  const index_t* row_offsets = nullptr;
  const global_index_t* columns = nullptr;
  const T* values = nullptr;
};

/// How the processes of a GPU solve exchange halos and sum inner products (the CPU path
/// always uses MPI from host memory).
enum class Transport {
  automatic,  ///< nccl where NCCL loads and every process has a GPU of its own, else mpi
  nccl,       ///< NCCL send/recv and allreduce on the solver's stream: no host synchronization
  mpi,        ///< MPI, host-staged (device to host, MPI, host to device); GPUs may be shared
};

struct DistributedOptions {
  Transport transport = Transport::automatic;
  /// The halo exchange runs while the local block multiplies (false: exchange, then both
  /// products; to measure what the overlap hides).
  bool overlap = true;
  /// GPU: the process with local rank r (among those on its host) uses device r % devices;
  /// false: each process uses its current device (cudaSetDevice before construction).
  bool bind_device_by_local_rank = true;
  /// A process that fails inside a call (its progress callback throws, a device fault) tells
  /// the others, whose waits in that call poll for such a notice: they throw RankFailed
  /// instead of waiting forever (distributed.hpp, "Errors"). false: the plain blocking MPI
  /// waits (a failure then leaves the others waiting), to measure what the watch costs.
  bool watch_faults = true;
  /// NCCL channels (its CTAs: ncclConfig_t::maxCTAs, NCCL 2.17+) of the GPU path's
  /// communicator; 0: NCCL's own choice (up to 32 over NVLink). Each channel's connection to
  /// each peer is made at the first message to it; the halo and AMG-level messages are small,
  /// so a few channels carry them, and fewer channels make the setup's first exchanges much
  /// shorter. 4 x H100, 400^3, AMG-CG: warm-up 1.84 s with NCCL's choice, 0.48-0.63 s with
  /// 8, 0.32-0.41 s with 4; 12.2, 12.3-12.6 and 12.7 ms per iteration (Jacobi-CG: 1.50, 1.50
  /// and 1.53-1.57 ms per iteration). Must be the same on every process; ignored on the CPU
  /// path and with the mpi transport.
  int nccl_channels = 8;
};

/// What one process holds and exchanges (DistributedSolver::process_info).
struct ProcessInfo {
  int rank = 0;
  global_index_t first_row = 0;  ///< its rows are [first_row, first_row + rows)
  index_t rows = 0;
  long long nnz = 0;        ///< stored entries of its rows
  long long local_nnz = 0;  ///< of them, in its own columns (the local block)
  long long halo_nnz = 0;   ///< in other processes' columns (the halo block)
  index_t halo_size = 0;    ///< entries of x it receives per product
  index_t send_size = 0;    ///< entries of x it sends per product
  int neighbours = 0;       ///< processes it receives from or sends to
  int device = -1;          ///< the CUDA device it solves on; -1: the CPU
};

/// One process's phases of a distributed product and of an inner product's sum, timed after
/// the solve (DistributedSolver::time_phases; medians in ms; CUDA events on a GPU).
struct CommunicationPhases {
  double product_ms = 0.0;    ///< the whole product y = A x, exchange included
  double local_ms = 0.0;      ///< the local block's product alone
  double halo_ms = 0.0;       ///< the halo block's product alone
  double exchange_ms = 0.0;   ///< the halo exchange alone (pack, send, receive)
  double allreduce_ms = 0.0;  ///< one scalar summed over the processes
  /// The part of a product's time that is communication: what the overlap did not hide.
  double exposed_exchange_ms() const { return std::max(0.0, product_ms - local_ms - halo_ms); }
};

/// Communication of one process during the last solve. On the CPU path the host clock times
/// it in the solve; on a GPU it runs on the device, out of the host's sight, and the time not
/// hidden is estimated from the counts and the phases timed after the solve.
struct CommunicationTimes {
  double halo_start_s = 0.0;   ///< CPU: posting receives, packing and posting sends
  double halo_wait_s = 0.0;    ///< CPU: waiting for the halo after the local product
  double reduction_s = 0.0;    ///< CPU: inner products' sums over processes (MPI_Allgather)
  long long exchanges = 0;     ///< products (halo exchanges) in the solve
  long long reductions = 0;    ///< inner products summed over processes in the solve
  bool on_device = false;      ///< GPU path: not_hidden_s is estimated from `phases`
  CommunicationPhases phases;  ///< filled by time_phases (zero before)
  /// Time the overlap did not hide.
  double not_hidden_s() const {
    if (!on_device) return halo_start_s + halo_wait_s + reduction_s;
    return 1e-3 * (static_cast<double>(exchanges) * phases.exposed_exchange_ms() +
                   static_cast<double>(reductions) * phases.allreduce_ms);
  }
};

}  // namespace spk
