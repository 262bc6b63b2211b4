#pragma once
// HaloExchange<T>: the halo of a distributed x, over MPI. Each process receives the entries
// of x its halo columns name (SplitRows::halo_columns, grouped by owner: `sources`) and
// sends its own entries that other processes' halos name.
//
// Setup (collective, once): every process tells each owner how many of its entries it needs
// (MPI_Alltoall) and which (MPI_Alltoallv of global indices); the owner keeps them as local
// row indices. Per exchange, nonblocking so the caller can compute meanwhile:
//   start(x):  post every receive (MPI_Irecv into the halo vector), pack the entries each
//              neighbour needs into one send buffer, send them (MPI_Isend);
//   finish():  wait for all of them (MPI_Waitall); returns the halo vector.
// Neighbours are visited in rank order. Both calls are timed: what finish() waits is
// communication the caller's work did not hide.
#include <mpi.h>

#include <vector>

#include "distributed/local_halo_split.hpp"

namespace spk {

// Seconds spent in the exchanges since the last reset (this process).
struct ExchangeTimes {
  double start_s = 0.0;  // posting the receives, packing and posting the sends
  double wait_s = 0.0;   // MPI_Waitall in finish(): not hidden behind the caller's work
  long long exchanges = 0;
};

// One neighbour's part of the send buffer: entries [first, first + count) go to `rank`.
struct HaloTarget {
  int rank = 0;
  index_t first = 0;
  index_t count = 0;
};

template <class T>
class HaloExchange {
 public:
  // comm: the distributed solver's communicator; sources, halo_columns: this process's halo
  // (SplitRows); [first_row, first_row + rows): the rows it owns. Collective over comm.
  HaloExchange(MPI_Comm comm, const std::vector<HaloSource>& sources,
               const std::vector<global_index_t>& halo_columns, global_index_t first_row,
               index_t rows);
  HaloExchange(const HaloExchange&) = delete;
  HaloExchange& operator=(const HaloExchange&) = delete;

  void start(const T* x);
  const T* finish();

  index_t halo_size() const { return static_cast<index_t>(halo_.size()); }
  index_t send_size() const { return static_cast<index_t>(send_rows_.size()); }
  // Processes this one receives from or sends to.
  int neighbours() const;
  const std::vector<HaloSource>& sources() const { return sources_; }
  const std::vector<HaloTarget>& targets() const { return targets_; }

  const ExchangeTimes& times() const { return times_; }
  void reset_times() { times_ = ExchangeTimes{}; }

 private:
  MPI_Comm comm_;
  std::vector<HaloSource> sources_;
  std::vector<HaloTarget> targets_;
  std::vector<index_t> send_rows_;  // local row of each send buffer entry
  std::vector<T> send_buffer_;
  std::vector<T> halo_;
  std::vector<MPI_Request> requests_;
  ExchangeTimes times_;
};

}  // namespace spk
