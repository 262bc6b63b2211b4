#pragma once
// DistributedSpace<Inner>: a vector space (solver/vector_space.hpp) whose vectors are split
// across the processes of a communicator, each holding its rows in an Inner space (HostSpace
// on the CPU path, DeviceSpace on the GPU path). Everything elementwise is Inner's, on the
// local part; what reads the whole vector is summed over the processes, so CG, BiCGSTAB, the
// driver and the preconditioners run on it unchanged:
//
//   dot, cg_update    the local part, then the sum over processes (cg_update: its two sums in
//                     one reduction; start_sums/finish_sums: pipelined CG's three, begun before
//                     its product and waited for after it). Without an in-place sum every
//                     process gathers all partial sums (MPI_Allgather; pipelined CG's:
//                     MPI_Iallgather) and adds them in rank order, so each
//                     gets the bit-identical total and takes the same stopping decision at
//                     the same iteration. (MPI_Allreduce does not promise identical results
//                     on every process, nor the same order from run to run.) The total is a
//                     sum of per-process ordered sums, not the single-process order, so it can
//                     differ in the last bits from a one-process run: iteration counts may
//                     differ by one, which is what the tests allow.
//   norm              dot + square_root (vector_space.hpp), hence global too
//   basis_dots, basis_combine   GMRES's: the local part, then one sum of all the dots (or
//                     of ||y||^2) over processes, then the step that reads them;
//                     global_count: the rows of every process
//   gershgorin_bound  the maximum over processes (exact in any order)
//   any_process       a host decision (the time limit) taken when any process takes it
//   first_global_index  this process's first row, so the Lanczos start vector is the same
//                     global vector whatever the partition
//   run_repeated      as a CUDA graph only with an in-place sum and allow_graphs (MPI calls
//                     cannot be captured)
//
// Every MPI step goes through the solver's FaultWatch (fault_watch.hpp): the same collective,
// waited on so that another process's failure ends the wait with RankFailed.
//
// Inner's scalars live in Inner (host or device memory). Without an in-place sum a dot result
// is read from there, summed over MPI and written back (host-staged on a device Inner, one
// synchronization per dot). With one (use_in_place_sum: NCCL's allreduce on the stream, which
// leaves the same sum on every process) the sum stays on the device, nothing synchronizes,
// and the iteration may be captured in a CUDA graph (allow_graphs).
#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <tuple>
#include <utility>
#include <vector>

#include "distributed/fault_injection.hpp"
#include "distributed/fault_watch.hpp"
#include "distributed/mpi_check.hpp"
#include "solver/amg/amg_build.hpp"
#include "solver/incomplete_factorization.hpp"
#include "solver/local_block.hpp"
#include "solver/vector_space.hpp"
#include "spkrylov/errors.hpp"
#include "spmv/host/csr_matrix.hpp"
#include "spmv/linear_operator.hpp"

namespace spk {

struct FineRows;  // distributed/amg/distributed_amg_build.hpp

// A sum over processes computed where the scalar lives, asynchronously, leaving the same value
// on every process (NCCL's in-place allreduce).
template <class T>
class InPlaceSum {
 public:
  virtual ~InPlaceSum() = default;
  virtual void sum(T* value, int count) = 0;  // value[0..count)
  // The same sum split in two (DistributedSpace::start_sums): begun, then waited for, the work
  // queued between them overlapping it where the implementation can; one at a time. By
  // default the whole sum at the start.
  virtual void start(T* value, int count) { sum(value, count); }
  virtual void finish() {}
};

// DistributedSpace::with_precision's constructor tag.
struct PrecisionTwin {
  const FineRows* fine_rows = nullptr;
};

template <class Inner>
class DistributedSpace : public Inner {
 public:
  using T = typename Inner::value_type;

  // watch (the solver's communicator) must outlive the space; first_global_index: this
  // process's first row.
  template <class... InnerArguments>
  DistributedSpace(FaultWatch& watch, global_index_t first_global_index,
                   InnerArguments&&... inner_arguments)
      : Inner(std::forward<InnerArguments>(inner_arguments)...),
        watch_(watch),
        first_global_index_(first_global_index),
        processes_(watch.processes()) {}

  // A mixed-precision preconditioner's inner space (solver/single_precision_preconditioner.hpp:
  // AMG's fp32 cycle): the same processes, fault watch, first row and matrix distribution over
  // Inner's space of precision U (on a GPU the same stream and handles). Its sums over
  // processes go through MPI: the cycle itself sums nothing (its coarsest solve is a product),
  // only its setup's Lanczos estimates do. Its products and sums are not counted in this
  // space's.
  template <class U>
  auto with_precision() {
    using InnerU = decltype(std::declval<Inner&>().template with_precision<U>());
    return std::apply(  // the spaces are not movable: built in place from Inner's resources
        [this](auto&&... arguments) {
          return DistributedSpace<InnerU>(PrecisionTwin{fine_rows_}, watch_, first_global_index_,
                                          std::forward<decltype(arguments)>(arguments)...);
        },
        Inner::twin_arguments());
  }
  // with_precision's: a twin with the matrix distribution of the space it comes from.
  template <class... InnerArguments>
  DistributedSpace(PrecisionTwin twin, FaultWatch& watch, global_index_t first_global_index,
                   InnerArguments&&... inner_arguments)
      : DistributedSpace(watch, first_global_index,
                         std::forward<InnerArguments>(inner_arguments)...) {
    fine_rows_ = twin.fine_rows;
  }

  FaultWatch& watch() { return watch_; }
  // The first global row of the vectors this space holds now: the distributed AMG setup's
  // space holds one level's vectors after another (its Lanczos start vector follows it).
  void set_first_global_index(global_index_t first) { first_global_index_ = first; }
  // The solver's matrix distribution, for the distributed AMG setup (not owned; set by the
  // distributed solvers before they make the preconditioner).
  void set_fine_rows(const FineRows* rows) { fine_rows_ = rows; }
  const FineRows& fine_rows() const {
    if (fine_rows_ == nullptr)
      throw NotSupported("amg: this distributed space was given no matrix distribution");
    return *fine_rows_;
  }

  // *result = (x, y) over every process
  void dot(std::size_t n, const T* x, const T* y, T* result) {
    Inner::dot(n, x, y, result);  // this process's rows
    sum_over_processes(result);
  }

  // value[0..count) (in Inner's memory) = the sums of every process's, the same everywhere:
  // one reduction for all of them
  void sum_over_processes(T* value, int count = 1) {
    fault_point(FaultPoint::sum_over_processes);
    ++reductions_;
    if (in_place_sum_ != nullptr) {
      in_place_sum_->sum(value, count);
      return;
    }
    const std::vector<T> mine = this->template download<T>(value, static_cast<std::size_t>(count));
    const double begin = MPI_Wtime();
    partial_sums_.resize(static_cast<std::size_t>(count * processes_));
    watch_.allgather(mine.data(), count, mpi_datatype<T>(), partial_sums_.data());
    const std::vector<T> totals = rank_order_totals(count);
    reduction_s_ += MPI_Wtime() - begin;
    this->upload(totals, value);
  }

  // A sum over processes split in two (vector_space.hpp; pipelined CG's three sums, begun
  // before its product and preconditioner and waited for after them): NCCL's allreduce on a
  // stream of its own (InPlaceSum::start), or MPI_Iallgather of the values, added in rank
  // order at the end as sum_over_processes adds them. pipecg_update, the pass whose sums these
  // are, is Inner's: this process's rows only. reduction_seconds() counts the wait at the end
  // only, the part the overlap did not hide.
  void start_sums(T* sums, int count) {
    fault_point(FaultPoint::sum_over_processes);
    ++reductions_;
    pending_sums_ = sums;
    pending_count_ = count;
    if (in_place_sum_ != nullptr) {
      in_place_sum_->start(sums, count);
      return;
    }
    const std::vector<T> mine = this->template download<T>(sums, static_cast<std::size_t>(count));
    watch_.start_allgather(mine.data(), count, mpi_datatype<T>());
  }
  void finish_sums() {
    if (in_place_sum_ != nullptr) {
      in_place_sum_->finish();
      return;
    }
    const double begin = MPI_Wtime();
    partial_sums_.resize(static_cast<std::size_t>(pending_count_ * processes_));
    watch_.finish_allgather(partial_sums_.data());
    this->upload(rank_order_totals(pending_count_), pending_sums_);
    reduction_s_ += MPI_Wtime() - begin;
  }

  // CG's fused pass on this process's rows, then both sums over processes in one reduction
  // The fused reductions: the local part, the sum over processes, then `then`, the solver's
  // next scalar step (after the sum, which the local space cannot fold into its kernel).
  template <class Step = NoScalarStep>
  void fused_dot(std::size_t n, const T* x, const T* y, T* result, const Step& then = {}) {
    Inner::fused_dot(n, x, y, result);
    sum_over_processes(result);
    Inner::scalar_step(then);
  }
  // y = A x (the distributed operator: halo exchange included), then the sums over processes
  // (apply_then_dots): the dots cannot be folded into a product whose halo part adds to y
  // after the local kernel.
  void apply_dots(const LinearOperator<T>& matrix, const T* x, T* y, const T* w, T* sums,
                  int count) {
    apply_then_dots(*this, matrix, x, y, w, sums, count);
  }
  template <class Coefficient, class Step = NoScalarStep>
  void cg_update(std::size_t n, const Coefficient& alpha, const T* p, const T* ap, T* x, T* r,
                 const T* inverse_diagonal, T* z, T* sums, const Step& then = {}) {
    Inner::cg_update(n, alpha, p, ap, x, r, inverse_diagonal, z, sums);
    sum_pair(sums);
    Inner::scalar_step(then);
  }
  void sum_pair(T* sums) { sum_over_processes(sums, 2); }
  // BiCGSTAB's fused passes on this process's rows, then their sums in one reduction
  template <class Coefficient, class Step = NoScalarStep>
  void bicgstab_update(std::size_t n, const Coefficient& coefficient, const T* u, const T* w, T* x,
                       T* r, const T* inverse_diagonal, T* z, const T* r_hat, T* sums,
                       const Step& then = {}) {
    Inner::bicgstab_update(n, coefficient, u, w, x, r, inverse_diagonal, z, r_hat, sums);
    sum_over_processes(sums, r_hat != nullptr ? 2 : 1);
    Inner::scalar_step(then);
  }
  template <class Step = NoScalarStep>
  void dot_pair(std::size_t n, const T* t, const T* r, T* sums, const Step& then = {}) {
    Inner::dot_pair(n, t, r, sums);
    sum_pair(sums);
    Inner::scalar_step(then);
  }

  // GMRES's basis operations (vector_space.hpp) on this process's rows, then their sums over
  // processes: the j+1 dots of a Gram-Schmidt pass (and ||w||^2) in one reduction of max_count
  // (+ 1) values (a fixed count, so an in-place sum can be captured), ||y||^2 in one, and then
  // the step, which every process takes on the same sums.
  template <class Step = NoScalarStep>
  void basis_dots(std::size_t n, const T* basis, std::size_t ld, const int* count, int max_count,
                  const T* w, T* result, bool with_norm = false, const Step& then = {}) {
    Inner::basis_dots(n, basis, ld, count, max_count, w, result, with_norm);
    sum_over_processes(result, max_count + (with_norm ? 1 : 0));
    Inner::scalar_step(then);
  }
  template <class Step = NoScalarStep>
  void basis_combine(std::size_t n, const T* basis, std::size_t ld, const int* count,
                     const T* coefficients, T alpha, T* y, bool assign, T* norm_square,
                     const ColumnStore<T>& store = {}, const Step& then = {}) {
    Inner::basis_combine(n, basis, ld, count, coefficients, alpha, y, assign, norm_square, store);
    if (norm_square != nullptr) sum_over_processes(norm_square);
    Inner::scalar_step(then);
  }
  // the rows of the whole vector (GMRES's restart is clipped to it on every process alike)
  std::size_t global_count(std::size_t n) {
    const unsigned long long mine = n;
    unsigned long long total = 0;
    watch_.allreduce(&mine, &total, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM);
    return static_cast<std::size_t>(total);
  }

  // max over processes of max_i sum_j |a_ij| / |a_ii|
  double gershgorin_bound(std::size_t n, const index_t* row_offsets, const T* values,
                          const index_t* positions) {
    const double local = Inner::gershgorin_bound(n, row_offsets, values, positions);
    double global = 0.0;
    watch_.allreduce(&local, &global, 1, MPI_DOUBLE, MPI_MAX);
    return global;
  }

  bool any_process(bool flag) {
    const int mine = flag ? 1 : 0;
    int any = 0;
    watch_.allreduce(&mine, &any, 1, MPI_INT, MPI_MAX);
    return any != 0;
  }

  std::size_t first_global_index() const { return static_cast<std::size_t>(first_global_index_); }

  // As Inner's, as a CUDA graph only where allow_graphs(true) said every call in the body can
  // be captured. A replayed graph runs no host code: the counts of reductions and products its
  // block made when it was recorded are added again (replayed_counts).
  template <class Body>
  void run_repeated(int count, bool use_graph, Body&& body) {
    const long long reductions_before = reductions_;
    const long long products_before = products();
    int host_calls = 0;
    Inner::run_repeated(count, use_graph && graphs_allowed_, [&] {
      ++host_calls;
      body();
    });
    // Per iteration (every iteration of a method makes the same calls): a replayed graph
    // may be of another length than the last recorded block (GMRES's cycle-end blocks).
    if (host_calls > 0) {
      block_reductions_ = (reductions_ - reductions_before) / host_calls;
      block_products_ = (products() - products_before) / host_calls;
    } else {
      reductions_ += block_reductions_ * count;
      replayed_products_ += block_products_ * count;
    }
  }

  // The sum that replaces the host-staged MPI one (not owned; null: MPI), and whether the
  // iteration may then be captured.
  void use_in_place_sum(InPlaceSum<T>* sum) { in_place_sum_ = sum; }
  void allow_graphs(bool allowed) { graphs_allowed_ = allowed; }
  // The operator's own count of products (halo exchanges), which a replayed graph misses.
  void watch_products(const long long* products) { watched_products_ = products; }

  // Time in the dot products' MPI_Allgather since the last reset (nothing hides it; zero with
  // an in-place sum, whose time is measured apart).
  double reduction_seconds() const { return reduction_s_; }
  long long reductions() const { return reductions_; }
  long long products() const {
    return (watched_products_ != nullptr ? *watched_products_ : 0) + replayed_products_;
  }
  void reset_times() {
    reduction_s_ = 0.0;
    reductions_ = 0;
    replayed_products_ = 0;
  }

 private:
  // The sums of the `count` values every process gathered into partial_sums_, in rank order.
  std::vector<T> rank_order_totals(int count) const {
    std::vector<T> totals(static_cast<std::size_t>(count), T(0));
    for (int p = 0; p < processes_; ++p)  // rank order
      for (int k = 0; k < count; ++k)
        totals[static_cast<std::size_t>(k)] +=
            partial_sums_[static_cast<std::size_t>(p * count + k)];
    return totals;
  }

  FaultWatch& watch_;
  global_index_t first_global_index_;
  const FineRows* fine_rows_ = nullptr;
  int processes_ = 1;
  std::vector<T> partial_sums_;  // every process's, in rank order
  T* pending_sums_ = nullptr;    // start_sums' values, summed by finish_sums
  int pending_count_ = 0;
  double reduction_s_ = 0.0;
  long long reductions_ = 0;
  InPlaceSum<T>* in_place_sum_ = nullptr;
  bool graphs_allowed_ = false;
  const long long* watched_products_ = nullptr;
  long long replayed_products_ = 0;
  long long block_reductions_ = 0;
  long long block_products_ = 0;
};

// IC(0)/ILU(0) on a distributed space are the inner space's factors of this process's block;
// the distributed solver allows them on one process only, where the block is the matrix.
template <class Inner>
struct FactorsOf<DistributedSpace<Inner>> {
  using type = typename FactorsOf<Inner>::type;
};

// Block Jacobi's local preconditioner (solver/block_jacobi.hpp) runs in Inner: this process's
// rows, its dot products not summed over processes.
template <class Inner>
struct LocalSpaceOf<DistributedSpace<Inner>> {
  using type = Inner;
};

// AMG's hierarchy on a distributed space is distributed too: AmgBuildOf<DistributedSpace<Inner>>
// is DistributedAmgBuild (distributed/amg/distributed_amg_build.hpp), which the solvers include.

}  // namespace spk
