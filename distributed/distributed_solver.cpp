// spk::DistributedSolver<T> (include/spkrylov/distributed.hpp): the choice of path, the CPU
// path itself, and the public calls. The CPU path runs the same KrylovIteration as one
// process, on a DistributedSpace<HostSpace<T>> and the overlapped DistributedOperator over
// host CSR blocks and MPI. The GPU path is device_distributed_solver.cu.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <string>

#include "core/device.hpp"
#include "distributed/amg/distributed_amg_build.hpp"
#include "distributed/amg/distributed_level_operator.hpp"
#include "distributed/device_rows_solver.hpp"
#include "distributed/diagonal_block.hpp"
#include "distributed/distributed_solver_impl.hpp"
#include "distributed/distributed_space.hpp"
#include "distributed/host_blocks.hpp"
#include "distributed/mpi_check.hpp"
#include "distributed/process_threads.hpp"
#include "distributed/same_on_every_process.hpp"
#include "solver/amg/host_amg_build.hpp"
#include "solver/amg/host_level_operator.hpp"
#include "solver/host_factors.hpp"
#include "solver/host_space.hpp"
#include "solver/host_threads.hpp"
#include "solver/krylov_driver.hpp"
#include "solver/preconditioner_factory.hpp"

namespace spk {

namespace {

template <class T>
using HostDistributedSpace = DistributedSpace<HostSpace<T>>;

double host_median_ms(int repetitions, const std::function<void()>& work) {
  std::vector<double> times;
  work();  // warm-up
  for (int i = 0; i < std::max(1, repetitions); ++i) {
    const auto start = std::chrono::steady_clock::now();
    work();
    times.push_back(1e3 * seconds_since(start));
  }
  std::nth_element(times.begin(), times.begin() + static_cast<std::ptrdiff_t>(times.size() / 2),
                   times.end());
  return times[times.size() / 2];
}

// The distributed AMG's level operators on the CPU path: host CSR blocks and MPI (every format
// is cpu-csr).
LevelOperatorFactories<DistributedLevel> host_distributed_level_operators(MPI_Comm comm,
                                                                          FaultWatch& watch) {
  return distributed_level_operator_factories(
      comm, [comm, &watch](Format) { return host_blocks<double>(comm, &watch); },
      [comm, &watch](Format) { return host_blocks<float>(comm, &watch); }, Format::csr, false);
}

template <class T>
class HostDistributedSolver final : public DistributedSolver<T>::Impl {
 public:
  using Space = HostDistributedSpace<T>;

  HostDistributedSolver(MPI_Comm comm, const DistributedCsrArrays<T>& arrays,
                        const Options& all_options, const DistributedOptions& distributed)
      : DistributedSolver<T>::Impl(comm, all_options.solver, distributed.watch_faults) {
    const auto start = std::chrono::steady_clock::now();
    PhaseClock clock;
    SetupPhases& phases = this->setup.phases;
    PartitionedRows<T> rows = split_caller_rows(this->communicator, arrays, all_options);
    const MPI_Comm c = this->communicator.get();
    this->matrix = std::make_unique<DistributedMatrix<T>>(
        c, std::move(rows.split), host_blocks<T>(c, &this->watch), distributed.overlap);
    clock.lap(phases.partition_s);  // the split and the halo plan (host blocks: no copies)
    const SplitRows<T>& split = this->matrix->split();
    space_ = std::make_unique<Space>(this->watch, split.first_row);
    space_->watch_products(&this->matrix->exchange().times().exchanges);
    fine_rows_.partition = rows.partition;
    fine_rows_.halo_columns = split.halo_columns;
    fine_rows_.agglomerate_rows = all_options.solver.preconditioner_options.amg.agglomerate_rows;
    space_->set_fine_rows(&fine_rows_);
    clock.lap(phases.layouts_s);
    const LocalBlock<HostSpace<T>> block = diagonal_block(split);
    iteration_ = std::make_unique<KrylovIteration<Space>>(
        *space_, this->matrix->op(), this->options,
        agreed_setup(this->watch, this->options.preconditioner, [&] {
          return timed_preconditioner<Space>(this->setup.preconditioner, [&] {
            return make_preconditioner(
                this->options, *space_, this->matrix->op(),
                SpacePattern{split.pattern.rows, split.pattern.cols,
                             split.pattern.row_offsets.data(), split.pattern.columns.data()},
                split.pattern.values.data(), host_distributed_level_operators(c, this->watch),
                &block);
          });
        }));
    clock.lap(phases.preconditioner_s);
    this->global_rows = rows.partition.global_rows();
    const int threads = omp_get_max_threads();
    const int processes = this->communicator.size();
    this->setup.device = Device::cpu;
    this->setup.device_name = "CPU (" + std::to_string(threads) + " thread" +
                              (threads > 1 ? "s" : "") + " per process, " +
                              std::to_string(processes) + " process" + (processes > 1 ? "es" : "") +
                              ")";
    this->setup.operator_name = this->matrix->op().name();
    this->setup.bytes_per_spmv =
        split.pattern.values.size() * (sizeof(T) + sizeof(index_t)) +
        (split.local.row_offsets.size() + split.halo.row_offsets.size()) * sizeof(index_t) +
        (2 * static_cast<std::size_t>(split.local.rows) + split.halo_columns.size()) * sizeof(T);
    this->setup.setup_s = seconds_since(start);
  }

  const char* transport() const override { return "mpi"; }

 protected:
  void run_multiply(const T* x, T* y) override { this->matrix->op().apply(x, y); }

  double run_time_spmv(int repetitions) override {
    const auto n = static_cast<std::size_t>(this->rows());
    std::vector<T> x(n, T(1)), y(n);
    return host_median_ms(repetitions, [&] { this->matrix->op().apply(x.data(), y.data()); });
  }

  void check_preconditioner() override { iteration_->check_preconditioner(); }
  void reset_space_times() override { space_->reset_times(); }
  SolveResult run_solve(const T* b, T* x, const ProgressCallback& progress) override {
    return iteration_->solve(b, x, progress);
  }
  CommunicationTimes collect_times() const override {
    const ExchangeTimes& exchange = this->matrix->exchange().times();
    CommunicationTimes solve_times;
    solve_times.halo_start_s = exchange.start_s;
    solve_times.halo_wait_s = exchange.wait_s;
    solve_times.exchanges = exchange.exchanges;
    solve_times.reduction_s = space_->reduction_seconds();
    solve_times.reductions = space_->reductions();
    return solve_times;
  }
  // update_values copies a device array to the host first on this path
  void check_device_values(const T*) override {
    throw Error("DistributedSolver: device values on the CPU path (internal error)");
  }
  void check_device_finite(const T*, std::size_t, const char*) override {
    throw Error("DistributedSolver: a device vector on the CPU path (internal error)");
  }
  void update_device_values(const T*) override {
    throw Error("DistributedSolver: device values on the CPU path (internal error)");
  }
  void refresh_preconditioner() override {
    iteration_->update_preconditioner(this->matrix->split().pattern.values.data());
    iteration_->check_preconditioner();
    // the report's preconditioner (resetup_ms and the re-setup phases), as on one process
    iteration_->refresh_preconditioner_info(this->setup.preconditioner);
  }
  CommunicationPhases run_time_phases(int repetitions) override {
    const auto n = static_cast<std::size_t>(this->rows());
    std::vector<T> x(n, T(1)), y(n);
    T scalar = T(0);
    return measure_phases<T>(
        this->watch, *this->matrix, x.data(), y.data(),
        [&] { space_->sum_over_processes(&scalar); }, host_median_ms, repetitions);
  }

 private:
  // block_jacobi: this process's diagonal block, on the host (its positions kept here).
  LocalBlock<HostSpace<T>> diagonal_block(const SplitRows<T>& split) {
    LocalBlock<HostSpace<T>> block;
    if (this->options.preconditioner != Preconditioner::block_jacobi) return block;
    block_positions_ = diagonal_block_positions(split);
    block_operator_ =
        std::make_unique<JoinedLocalOperator<T>>(this->matrix->local(), this->matrix->exchange());
    block.matrix = block_operator_.get();
    block.pattern = SpacePattern{split.local.rows, split.local.cols, split.local.row_offsets.data(),
                                 split.local.columns.data()};
    block.values = split.local.values.data();
    block.nnz = static_cast<index_t>(split.local.columns.size());
    block.positions = block_positions_.data();
    block.first_row = split.first_row;
    block.rank = this->communicator.size() > 1 ? this->communicator.rank() : -1;
    block.level_operators = host_level_operator_factories();
    return block;
  }

  FineRows fine_rows_;  // the matrix's distribution, for the distributed AMG setup
  std::unique_ptr<Space> space_;
  std::vector<index_t> block_positions_;                    // block_jacobi
  std::unique_ptr<JoinedLocalOperator<T>> block_operator_;  // block_jacobi: A_local
  std::unique_ptr<KrylovIteration<Space>> iteration_;
};

// The checks every constructor starts with (agreed options), then the path's Impl from
// `make(on_gpu)` on this process's share of the host's threads.
template <class T, class Make>
std::unique_ptr<typename DistributedSolver<T>::Impl> make_impl(
    MPI_Comm comm, const Options& options, const DistributedOptions& distributed,
    const Make& make) {
  require_same_as_rank0(comm, iteration_options_text(options.solver), "the solver options");
  // Blocking and nonblocking collectives do not match: every process watches, or none.
  require_same_as_rank0(
      comm,
      std::string(distributed.watch_faults ? "watch_faults true" : "watch_faults false") +
          ", nccl_channels " + std::to_string(distributed.nccl_channels),
      "the distributed options");
  if (distributed.nccl_channels < 0 || distributed.nccl_channels > 64)  // the same everywhere
    throw BadInput("distributed nccl_channels " + std::to_string(distributed.nccl_channels) +
                   " is out of range 0..64 (0: NCCL's own choice)");
  const int threads = threads_per_process(comm);  // this process's share of the host's CPUs
  const ScopedHostThreads scope(threads);
  std::unique_ptr<typename DistributedSolver<T>::Impl> impl =
      make(solves_on_gpu(comm, options.device));
  impl->host_threads = threads;
  return impl;
}

}  // namespace

// The private constructor from an Impl, for the library's own paths (include/spkrylov/
// distributed.hpp names this struct its friend).
struct DistributedSolverAccess {
  template <class T>
  static DistributedSolver<T> make(std::unique_ptr<typename DistributedSolver<T>::Impl> impl) {
    return DistributedSolver<T>(std::move(impl));
  }
};

template <class T>
DistributedSolver<T> distributed_solver_of_device_rows(MPI_Comm comm, DeviceSplitRows<T>&& rows,
                                                       const Options& options,
                                                       const DistributedOptions& distributed) {
  return DistributedSolverAccess::make<T>(make_impl<T>(
      comm, options, distributed,
      [&](bool on_gpu) -> std::unique_ptr<typename DistributedSolver<T>::Impl> {
        if (!on_gpu)
          throw Error(
              std::string(
                  "DistributedSolver: rows on the device but a solve on the CPU (device: ") +
              to_string(options.device) + "; internal error)");
        return make_device_distributed_solver<T>(comm, std::move(rows), options, distributed);
      }));
}

template DistributedSolver<float> distributed_solver_of_device_rows(MPI_Comm,
                                                                    DeviceSplitRows<float>&&,
                                                                    const Options&,
                                                                    const DistributedOptions&);
template DistributedSolver<double> distributed_solver_of_device_rows(MPI_Comm,
                                                                     DeviceSplitRows<double>&&,
                                                                     const Options&,
                                                                     const DistributedOptions&);

template <class T>
DistributedSolver<T>::DistributedSolver(MPI_Comm comm, const DistributedCsrArrays<T>& rows,
                                        const Options& options,
                                        const DistributedOptions& distributed)
    : impl_(make_impl<T>(
          comm, options, distributed,
          [&](bool on_gpu) -> std::unique_ptr<typename DistributedSolver<T>::Impl> {
            if (on_gpu) return make_device_distributed_solver<T>(comm, rows, options, distributed);
            return std::make_unique<HostDistributedSolver<T>>(comm, rows, options, distributed);
          })) {}
template <class T>
DistributedSolver<T>::DistributedSolver(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
template <class T>
DistributedSolver<T>::~DistributedSolver() = default;
template <class T>
DistributedSolver<T>::DistributedSolver(DistributedSolver&&) noexcept = default;
template <class T>
DistributedSolver<T>& DistributedSolver<T>::operator=(DistributedSolver&&) noexcept = default;

template <class T>
SolveResult DistributedSolver<T>::solve(const std::vector<T>& b, std::vector<T>& x,
                                        const ProgressCallback& progress) {
  const ScopedHostThreads threads(impl_->host_threads);
  return impl_->solve(b.data(), x.data(), b.size(), x.size(), progress);
}
template <class T>
SolveResult DistributedSolver<T>::solve(const T* b, T* x, const ProgressCallback& progress) {
  const ScopedHostThreads threads(impl_->host_threads);
  const auto n = static_cast<std::size_t>(impl_->rows());
  return impl_->solve(b, x, n, n, progress);
}
template <class T>
void DistributedSolver<T>::multiply(const T* x, T* y) {
  const ScopedHostThreads threads(impl_->host_threads);
  impl_->multiply(x, y);
}
template <class T>
void DistributedSolver<T>::update_values(const T* values) {
  const ScopedHostThreads threads(impl_->host_threads);
  impl_->update_values(values);
}
template <class T>
void DistributedSolver<T>::update_values(const std::vector<T>& values) {
  const ScopedHostThreads threads(impl_->host_threads);
  impl_->update_values(values.data(), values.size());
}
template <class T>
double DistributedSolver<T>::time_spmv_ms(int repetitions) {
  const ScopedHostThreads threads(impl_->host_threads);
  return impl_->time_spmv_ms(repetitions);
}
template <class T>
CommunicationPhases DistributedSolver<T>::time_phases(int repetitions) {
  const ScopedHostThreads threads(impl_->host_threads);
  return impl_->time_phases(repetitions);
}
template <class T>
const char* DistributedSolver<T>::transport() const {
  return impl_->transport();
}
template <class T>
const SetupInfo& DistributedSolver<T>::setup_info() const {
  return impl_->setup;
}
template <class T>
const SolverOptions& DistributedSolver<T>::options() const {
  return impl_->options;
}
template <class T>
ProcessInfo DistributedSolver<T>::process_info() const {
  return impl_->process_info();
}
template <class T>
CommunicationTimes DistributedSolver<T>::communication_times() const {
  return impl_->times;
}
template <class T>
int DistributedSolver<T>::rank() const {
  return impl_->communicator.rank();
}
template <class T>
int DistributedSolver<T>::processes() const {
  return impl_->communicator.size();
}
template <class T>
index_t DistributedSolver<T>::rows() const {
  return impl_->rows();
}
template <class T>
global_index_t DistributedSolver<T>::first_row() const {
  return impl_->first_row();
}
template <class T>
global_index_t DistributedSolver<T>::global_rows() const {
  return impl_->global_rows;
}

template class DistributedSolver<float>;
template class DistributedSolver<double>;

}  // namespace spk
