#pragma once
// DistributedSpace<Inner>: a vector space (solver/vector_space.hpp) whose vectors are split
// across the processes of a communicator, each holding its rows in an Inner space (HostSpace
// today). Everything elementwise is Inner's, on the local part; what reads the whole vector
// is summed over the processes, so CG, BiCGSTAB, the driver and the preconditioners run on it
// unchanged:
//
//   dot               the local (x, y), then the sum over processes: every process gathers
//                     all partial sums (MPI_Allgather) and adds them in rank order, so each
//                     gets the bit-identical total and takes the same stopping decision at
//                     the same iteration. (MPI_Allreduce does not promise identical results
//                     on every process, nor the same order from run to run.) The total is a
//                     sum of per-process ordered sums, not the single-process order, so it can
//                     differ in the last bits from a one-process run: iteration counts may
//                     differ by one, which is what the tests allow.
//   norm              dot + square_root (vector_space.hpp), hence global too
//   gershgorin_bound  the maximum over processes (exact in any order)
//   any_process       a host decision (the time limit) taken when any process takes it
//   first_global_index  this process's first row, so the Lanczos start vector is the same
//                     global vector whatever the partition
//   run_repeated      never as a CUDA graph: MPI calls cannot be captured
//
// Inner's scalars live in Inner (host or device memory); a dot result is read from there and
// written back, so a device Inner would be host-staged.
#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

#include "distributed/mpi_check.hpp"
#include "solver/amg/amg_build.hpp"
#include "solver/incomplete_factorization.hpp"
#include "spmv/host/csr_matrix.hpp"

namespace spk {

template <class Inner>
class DistributedSpace : public Inner {
 public:
  using T = typename Inner::value_type;

  // comm must outlive the space; first_global_index: this process's first row.
  template <class... InnerArguments>
  DistributedSpace(MPI_Comm comm, global_index_t first_global_index,
                   InnerArguments&&... inner_arguments)
      : Inner(std::forward<InnerArguments>(inner_arguments)...),
        comm_(comm),
        first_global_index_(first_global_index) {
    int size = 1;
    SPK_MPI_CHECK(MPI_Comm_size(comm, &size));
    partial_sums_.resize(static_cast<std::size_t>(size));
  }

  // *result = (x, y) over every process
  void dot(std::size_t n, const T* x, const T* y, T* result) {
    Inner::dot(n, x, y, result);  // this process's rows
    *result_slot_ = this->template download<T>(result, 1)[0];
    const double begin = MPI_Wtime();
    SPK_MPI_CHECK(MPI_Allgather(result_slot_, 1, mpi_datatype<T>(), partial_sums_.data(), 1,
                                mpi_datatype<T>(), comm_));
    T total = T(0);
    for (const T partial : partial_sums_) total += partial;  // rank order
    reduction_s_ += MPI_Wtime() - begin;
    ++reductions_;
    this->upload(std::vector<T>{total}, result);
  }

  // max over processes of max_i sum_j |a_ij| / |a_ii|
  double gershgorin_bound(std::size_t n, const index_t* row_offsets, const T* values,
                          const index_t* positions) {
    const double local = Inner::gershgorin_bound(n, row_offsets, values, positions);
    double global = 0.0;
    SPK_MPI_CHECK(MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_MAX, comm_));
    return global;
  }

  bool any_process(bool flag) {
    const int mine = flag ? 1 : 0;
    int any = 0;
    SPK_MPI_CHECK(MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, comm_));
    return any != 0;
  }

  std::size_t first_global_index() const { return static_cast<std::size_t>(first_global_index_); }

  template <class Body>
  void run_repeated(int count, bool /*use_graph*/, Body&& body) {
    Inner::run_repeated(count, false, std::forward<Body>(body));
  }

  // Time in the dot products' MPI_Allgather since the last reset (nothing hides it).
  double reduction_seconds() const { return reduction_s_; }
  long long reductions() const { return reductions_; }
  void reset_times() {
    reduction_s_ = 0.0;
    reductions_ = 0;
  }

 private:
  MPI_Comm comm_;
  global_index_t first_global_index_;
  std::vector<T> partial_sums_;
  T result_slot_[1] = {T(0)};
  double reduction_s_ = 0.0;
  long long reductions_ = 0;
};

// IC(0)/ILU(0) on a distributed space are the inner space's factors of this process's block;
// the distributed solver allows them on one process only, where the block is the matrix.
template <class Inner>
struct FactorsOf<DistributedSpace<Inner>> {
  using type = typename FactorsOf<Inner>::type;
};

// AMG likewise: the inner space's hierarchy build (one process only).
template <class Inner>
struct AmgBuildOf<DistributedSpace<Inner>> {
  using type = typename AmgBuildOf<Inner>::type;
  static auto make(DistributedSpace<Inner>& space) {
    return AmgBuildOf<Inner>::make(static_cast<Inner&>(space));
  }
};

}  // namespace spk
