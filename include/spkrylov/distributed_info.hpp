#pragma once
/// @file
/// The plain types of spk::DistributedSolver (<spkrylov/distributed.hpp>), without MPI, so
/// that code which does not link MPI (reports, matrix builders) can use them:
/// spk::DistributedCsrArrays (the rows a process hands over), spk::ProcessInfo (what it
/// holds) and spk::CommunicationTimes (how long it communicated).
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
};

/// Communication time of one process since the last solve began (or time_spmv_ms).
struct CommunicationTimes {
  double halo_start_s = 0.0;  ///< posting receives, packing and posting sends
  double halo_wait_s = 0.0;   ///< waiting for the halo after the local product: not hidden
  double reduction_s = 0.0;   ///< inner products' sums over processes (MPI_Allgather)
  long long exchanges = 0;
  long long reductions = 0;
  /// Time the overlap did not hide: everything but the posted transfers that ran behind the
  /// local product.
  double not_hidden_s() const { return halo_start_s + halo_wait_s + reduction_s; }
};

}  // namespace spk
