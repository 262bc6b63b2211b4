// spk::DistributedSolver<T> (include/spkrylov/distributed.hpp): the CPU reference path over
// MPI. The same KrylovIteration as one process runs, on a DistributedSpace<HostSpace<T>> and
// the overlapped DistributedOperator. Setup steps that can fail on one process only run as
// agreed steps (agreed_errors.hpp), so a bad input anywhere is thrown everywhere.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <sstream>
#include <string>

#include "distributed/agreed_errors.hpp"
#include "distributed/communicator.hpp"
#include "distributed/distributed_matrix.hpp"
#include "distributed/distributed_space.hpp"
#include "distributed/mpi_check.hpp"
#include "distributed/same_on_every_process.hpp"
#include "solver/amg/host_amg_build.hpp"
#include "solver/amg/host_level_operator.hpp"
#include "solver/host_factors.hpp"
#include "solver/host_space.hpp"
#include "solver/krylov_driver.hpp"
#include "solver/preconditioner_factory.hpp"
#include "spkrylov/distributed.hpp"

namespace spk {

namespace {

template <class T>
using Space = DistributedSpace<HostSpace<T>>;

// The options that decide the iteration, as text: every process must run the same one.
std::string iteration_options_text(const SolverOptions& options) {
  const ChebyshevOptions& chebyshev = options.preconditioner_options.chebyshev;
  std::ostringstream text;
  text.precision(17);
  text << "method " << to_string(options.method) << "\ntolerance " << options.tolerance
       << "\ntolerance_mode " << to_string(options.tolerance_mode) << "\nmax_iterations "
       << options.max_iterations << "\npreconditioner " << to_string(options.preconditioner)
       << "\ndivergence_factor " << options.divergence_factor << "\ntime_limit_s "
       << options.time_limit_s << "\ncheck_every " << options.check_every << "\nkeep_history "
       << options.keep_history << "\nchebyshev degree " << chebyshev.degree << " estimate "
       << to_string(chebyshev.eigen_estimate) << " steps " << chebyshev.estimate_iterations
       << " upper_factor " << chebyshev.upper_factor << " lower_ratio " << chebyshev.lower_ratio
       << "\n";
  return text.str();
}

void check_supported(const Options& options, int processes) {
  if (options.device == Device::gpu)
    throw NotSupported(
        "device: gpu is not implemented yet for a distributed solve; use device: cpu (or auto)");
  const Preconditioner preconditioner = options.solver.preconditioner;
  const bool block_local = preconditioner == Preconditioner::ic0 ||
                           preconditioner == Preconditioner::ilu0 ||
                           preconditioner == Preconditioner::amg;
  if (block_local && processes > 1)
    throw NotSupported(std::string("solver.preconditioner ") + to_string(preconditioner) +
                       " runs on one process only; with " + std::to_string(processes) +
                       " processes use none, jacobi or chebyshev");
}

template <class T>
void check_finite(const T* values, std::size_t count, global_index_t first, const char* what) {
  for (std::size_t k = 0; k < count; ++k)
    if (!std::isfinite(values[k]))
      throw BadInput(std::string(what) + " has a non-finite value at entry " +
                     std::to_string(first + static_cast<global_index_t>(k)) + " (0-based)");
}

// The caller's rows as a RowBlock (first_row is set once the partition is known).
template <class T>
RowBlock<T> copy_rows(const DistributedCsrArrays<T>& arrays) {
  if (arrays.rows < 0)
    throw BadInput("DistributedCsrArrays: negative row count " + std::to_string(arrays.rows));
  if (arrays.row_offsets == nullptr)
    throw BadInput("DistributedCsrArrays: row_offsets is a null pointer");
  RowBlock<T> block;
  block.rows = arrays.rows;
  block.row_offsets.assign(arrays.row_offsets, arrays.row_offsets + arrays.rows + 1);
  const index_t nnz = block.row_offsets.back();
  if (block.row_offsets.front() != 0 || nnz < 0)
    throw BadInput("DistributedCsrArrays: row_offsets must start at 0 and end at nnz >= 0");
  if (nnz > 0 && (arrays.columns == nullptr || arrays.values == nullptr))
    throw BadInput("DistributedCsrArrays: columns or values is a null pointer");
  block.columns.assign(arrays.columns, arrays.columns + nnz);
  block.values.assign(arrays.values, arrays.values + nnz);
  check_finite(block.values.data(), block.values.size(), 0, "the matrix (this process's entries)");
  return block;
}

// A preconditioner that divides by a_ii finds every diagonal usable, checked here on the
// host before it is built: a fault then fails an agreed step on every process, instead of
// throwing on one process inside a collective setup (Chebyshev's Lanczos steps). Rows named
// are global.
template <class T>
void check_diagonal(const CsrMatrix<T>& pattern, const T* values, global_index_t first_row,
                    Preconditioner preconditioner) {
  if (preconditioner != Preconditioner::jacobi && preconditioner != Preconditioner::chebyshev)
    return;
  const std::vector<index_t> positions =
      diagonal_positions(pattern.rows, pattern.row_offsets, pattern.columns);
  std::vector<T> inverse(positions.size());
  std::uint64_t fault = diagonal_fault::no_fault;  // 4 * (local row) + reason, as Jacobi's
  HostSpace<T>().invert_entries(positions.size(), values, positions.data(), inverse.data(), &fault);
  if (fault != diagonal_fault::no_fault)  // named as Jacobi names it, with the global row
    throw_diagonal_fault("jacobi", fault + 4 * static_cast<std::uint64_t>(first_row));
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

template <class T>
class DistributedSolver<T>::Impl {
 public:
  Impl(MPI_Comm comm, const DistributedCsrArrays<T>& arrays, const Options& options)
      : communicator_(comm), options_(options.solver) {
    const auto start = std::chrono::steady_clock::now();
    const MPI_Comm c = communicator_.get();
    require_same_as_rank0(c, iteration_options_text(options.solver), "the solver options");
    RowBlock<T> block;
    on_every_process(c, [&] {
      validate_solver_options(options.solver);
      validate_spmv_options(options.spmv);
      check_supported(options, communicator_.size());
      block = copy_rows(arrays);
    });
    // The blocks in rank order: every process's row count.
    std::vector<global_index_t> counts(static_cast<std::size_t>(communicator_.size()));
    const global_index_t mine = block.rows;
    SPK_MPI_CHECK(MPI_Allgather(&mine, 1, MPI_INT64_T, counts.data(), 1, MPI_INT64_T, c));
    const RowPartition partition = partition_from_counts(counts);
    if (partition.global_rows() == 0)
      throw BadInput("the matrix is empty (0 rows on every process)");
    block.first_row = partition.first_row(communicator_.rank());
    block.global_rows = partition.global_rows();

    SplitRows<T> split;
    on_every_process(c, [&] {
      split = split_local_and_halo(block, partition, communicator_.rank());
      check_diagonal(split.pattern, split.pattern.values.data(), block.first_row,
                     options_.preconditioner);
    });
    matrix_ = std::make_unique<DistributedMatrix<T>>(c, std::move(split));
    space_ = std::make_unique<Space<T>>(c, block.first_row);
    const SplitRows<T>& rows = matrix_->split();
    iteration_ = std::make_unique<KrylovIteration<Space<T>>>(
        *space_, matrix_->op(), options_,
        timed_preconditioner<Space<T>>(setup_.preconditioner, [&] {
          return make_preconditioner(
              options_, *space_, matrix_->op(),
              SpacePattern{rows.pattern.rows, rows.pattern.cols, rows.pattern.row_offsets.data(),
                           rows.pattern.columns.data()},
              rows.pattern.values.data(), host_level_operators<T>());
        }));
    global_rows_ = partition.global_rows();
    setup_.device = Device::cpu;
    setup_.device_name = "CPU (" + std::to_string(omp_get_max_threads()) + " thread" +
                         (omp_get_max_threads() > 1 ? "s" : "") + " per process, " +
                         std::to_string(communicator_.size()) + " process" +
                         (communicator_.size() > 1 ? "es" : "") + ")";
    setup_.operator_name = matrix_->op().name();
    setup_.bytes_per_spmv =
        rows.pattern.values.size() * (sizeof(T) + sizeof(index_t)) +
        (rows.local.row_offsets.size() + rows.halo.row_offsets.size()) * sizeof(index_t) +
        (2 * static_cast<std::size_t>(rows.local.rows) + rows.halo_columns.size()) * sizeof(T);
    setup_.setup_s = seconds_since(start);
  }

  SolveResult solve(const T* b, T* x, std::size_t b_size, std::size_t x_size,
                    const ProgressCallback& progress) {
    const auto n = static_cast<std::size_t>(rows());
    on_every_process(communicator_.get(), [&] {
      if (b_size != n || x_size != n)
        throw BadInput("solve: b has " + std::to_string(b_size) + " and x " +
                       std::to_string(x_size) + " entries, this process's rows " +
                       std::to_string(n));
      if (n > 0 && (b == nullptr || x == nullptr))
        throw BadInput("solve: b or x is a null pointer");
      check_finite(b, n, first_row(), "the right-hand side");
      check_finite(x, n, first_row(), "the initial guess");
      iteration_->check_preconditioner();
    });
    reset_times();
    return iteration_->solve(b, x, progress);
  }

  void multiply(const T* x, T* y) { matrix_->op().apply(x, y); }

  void update_values(const T* values) {
    const SplitRows<T>& rows = matrix_->split();
    on_every_process(communicator_.get(), [&] {
      if (values == nullptr && rows.pattern.nnz() > 0)
        throw BadInput("update_values: null pointer");
      check_finite(values, rows.pattern.values.size(), 0, "update_values: this process's values");
      check_diagonal(rows.pattern, values, first_row(), options_.preconditioner);
    });
    matrix_->update_values(values);
    iteration_->update_preconditioner(rows.pattern.values.data());
    iteration_->check_preconditioner();  // checked above: cannot fail here
  }

  double time_spmv_ms(int repetitions) {
    const auto n = static_cast<std::size_t>(rows());
    std::vector<T> x(n, T(1)), y(n);
    std::vector<double> times;
    for (int i = 0; i < std::max(1, repetitions); ++i) {
      const auto start = std::chrono::steady_clock::now();
      matrix_->op().apply(x.data(), y.data());
      times.push_back(1e3 * seconds_since(start));
    }
    std::nth_element(times.begin(), times.begin() + static_cast<std::ptrdiff_t>(times.size() / 2),
                     times.end());
    return times[times.size() / 2];
  }

  ProcessInfo process_info() const {
    const SplitRows<T>& rows = matrix_->split();
    const HaloExchange<T>& exchange = matrix_->exchange();
    ProcessInfo info;
    info.rank = communicator_.rank();
    info.first_row = rows.first_row;
    info.rows = rows.local.rows;
    info.local_nnz = rows.local.nnz();
    info.halo_nnz = rows.halo.nnz();
    info.nnz = info.local_nnz + info.halo_nnz;
    info.halo_size = exchange.halo_size();
    info.send_size = exchange.send_size();
    info.neighbours = exchange.neighbours();
    return info;
  }

  CommunicationTimes communication_times() const {
    const ExchangeTimes& exchange = matrix_->exchange().times();
    CommunicationTimes times;
    times.halo_start_s = exchange.start_s;
    times.halo_wait_s = exchange.wait_s;
    times.exchanges = exchange.exchanges;
    times.reduction_s = space_->reduction_seconds();
    times.reductions = space_->reductions();
    return times;
  }

  void reset_times() {
    matrix_->exchange().reset_times();
    space_->reset_times();
  }

  index_t rows() const { return matrix_->split().local.rows; }
  global_index_t first_row() const { return matrix_->split().first_row; }

  Communicator communicator_;
  SolverOptions options_;
  SetupInfo setup_;
  global_index_t global_rows_ = 0;
  std::unique_ptr<DistributedMatrix<T>> matrix_;
  std::unique_ptr<Space<T>> space_;
  std::unique_ptr<KrylovIteration<Space<T>>> iteration_;
};

template <class T>
DistributedSolver<T>::DistributedSolver(MPI_Comm comm, const DistributedCsrArrays<T>& rows,
                                        const Options& options)
    : impl_(std::make_unique<Impl>(comm, rows, options)) {}
template <class T>
DistributedSolver<T>::~DistributedSolver() = default;
template <class T>
DistributedSolver<T>::DistributedSolver(DistributedSolver&&) noexcept = default;
template <class T>
DistributedSolver<T>& DistributedSolver<T>::operator=(DistributedSolver&&) noexcept = default;

template <class T>
SolveResult DistributedSolver<T>::solve(const std::vector<T>& b, std::vector<T>& x,
                                        const ProgressCallback& progress) {
  return impl_->solve(b.data(), x.data(), b.size(), x.size(), progress);
}
template <class T>
SolveResult DistributedSolver<T>::solve(const T* b, T* x, const ProgressCallback& progress) {
  const auto n = static_cast<std::size_t>(impl_->rows());
  return impl_->solve(b, x, n, n, progress);
}
template <class T>
void DistributedSolver<T>::multiply(const T* x, T* y) {
  impl_->multiply(x, y);
}
template <class T>
void DistributedSolver<T>::update_values(const T* values) {
  impl_->update_values(values);
}
template <class T>
void DistributedSolver<T>::update_values(const std::vector<T>& values) {
  const std::size_t nnz = impl_->matrix_->split().pattern.values.size();
  on_every_process(impl_->communicator_.get(), [&] {
    if (values.size() != nnz)
      throw BadInput("update_values: " + std::to_string(values.size()) +
                     " values given, this process's rows have " + std::to_string(nnz) + " entries");
  });
  impl_->update_values(values.data());
}
template <class T>
double DistributedSolver<T>::time_spmv_ms(int repetitions) {
  return impl_->time_spmv_ms(repetitions);
}
template <class T>
const SetupInfo& DistributedSolver<T>::setup_info() const {
  return impl_->setup_;
}
template <class T>
const SolverOptions& DistributedSolver<T>::options() const {
  return impl_->options_;
}
template <class T>
ProcessInfo DistributedSolver<T>::process_info() const {
  return impl_->process_info();
}
template <class T>
CommunicationTimes DistributedSolver<T>::communication_times() const {
  return impl_->communication_times();
}
template <class T>
int DistributedSolver<T>::rank() const {
  return impl_->communicator_.rank();
}
template <class T>
int DistributedSolver<T>::processes() const {
  return impl_->communicator_.size();
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
  return impl_->global_rows_;
}

template class DistributedSolver<float>;
template class DistributedSolver<double>;

}  // namespace spk
