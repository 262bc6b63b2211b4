#pragma once
// HaloPlan: who sends which entries of x to whom in a distributed product, fixed at setup.
// Each process receives the entries of x its halo columns name (SplitRows::halo_columns,
// grouped by owner: `sources`) and sends its own entries that other processes' halos name
// (`targets`, packed from the rows `send_rows`).
//
// make_halo_plan (collective, once): every process tells each owner how many of its entries it
// needs (MPI_Alltoall) and which (MPI_Alltoallv of global indices); the owner keeps them as
// local indices of its entries of x (its own columns; its rows for a square matrix).
// Neighbours are in rank order. The same plan drives every transport (MPI from host memory,
// MPI host-staged from the GPU, NCCL), so the schedule is one.
#include <mpi.h>

#include <string>
#include <utility>
#include <vector>

#include "distributed/local_halo_split.hpp"

namespace spk {

// One neighbour's part of the send buffer: entries [first, first + count) go to `rank`.
struct HaloTarget {
  int rank = 0;
  index_t first = 0;
  index_t count = 0;
};

struct HaloPlan {
  std::vector<HaloSource> sources;  // receive: slots [first_slot, +count) from `rank`
  std::vector<HaloTarget> targets;  // send: buffer entries [first, +count) to `rank`
  std::vector<index_t> send_rows;   // own entry of x (its local row if square) of each one
  index_t halo_size = 0;            // entries received per product

  index_t send_size() const { return static_cast<index_t>(send_rows.size()); }
  // Processes this one receives from or sends to.
  int neighbours() const;
};

// comm: the solver's communicator; sources, halo_columns: this process's halo (SplitRows);
// [first_column, first_column + columns): the entries of x it owns, i.e. its columns of the
// matrix (SplitRows::first_column, local.cols): its rows for a square matrix, its block of the
// column partition for a rectangular one (P, R of AMG). Collective over comm.
HaloPlan make_halo_plan(MPI_Comm comm, const std::vector<HaloSource>& sources,
                        const std::vector<global_index_t>& halo_columns,
                        global_index_t first_column, index_t columns);

// Seconds spent in the exchanges since the last reset (this process, host clock).
struct ExchangeTimes {
  double start_s = 0.0;  // posting the receives, packing and posting the sends
  double wait_s = 0.0;   // waiting in finish(): not hidden behind the caller's work
  long long exchanges = 0;
};

// The exchange of one product, in two halves so that the caller computes in between:
//   start(x)   send this process's entries that neighbours need (x: its rows), post receives;
//   finish()   wait for the halo; returns the halo vector (halo_size entries, in the memory x
//              lives in: host or device).
// and, around the local product (which may run on a stream of its own while the exchange
// holds the solver's stream), before_local() and after_local().
template <class T>
class HaloExchange {
 public:
  virtual ~HaloExchange() = default;
  virtual void start(const T* x) = 0;
  virtual const T* finish() = 0;
  virtual void before_local() {}  // the local product may start (it reads x, writes y)
  virtual void after_local() {}   // the local product is queued: later work waits for it
  // Whether start/finish can be captured in a CUDA graph (stream-ordered, no host wait).
  virtual bool capturable() const = 0;
  virtual std::string transport() const = 0;

  const HaloPlan& plan() const { return plan_; }
  const ExchangeTimes& times() const { return times_; }
  void reset_times() { times_ = ExchangeTimes{}; }

 protected:
  explicit HaloExchange(HaloPlan plan) : plan_(std::move(plan)) {}
  HaloPlan plan_;
  ExchangeTimes times_;
};

}  // namespace spk
