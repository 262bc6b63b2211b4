#include "distributed/distributed_setup.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <sstream>

#include "core/device.hpp"
#include "core/step_trace.hpp"
#include "distributed/agreed_errors.hpp"
#include "distributed/mpi_check.hpp"
#include "solver/amg/near_nullspace.hpp"
#include "solver/host_space.hpp"
#include "solver/jacobi.hpp"
#include "solver/jacobi_entry.hpp"
#include "spkrylov/errors.hpp"

namespace spk {

std::string iteration_options_text(const SolverOptions& options) {
  const ChebyshevOptions& chebyshev = options.preconditioner_options.chebyshev;
  std::ostringstream text;
  text.precision(17);
  text << "method " << to_string(options.method) << "\ntolerance " << options.tolerance
       << "\ntolerance_mode " << to_string(options.tolerance_mode) << "\nmax_iterations "
       << options.max_iterations << "\npreconditioner " << to_string(options.preconditioner)
       << "\ndivergence_factor " << options.divergence_factor << "\ntime_limit_s "
       << options.time_limit_s << "\ncheck_every " << options.check_every << "\nkeep_history "
       << options.keep_history << "\ncuda_graph " << options.cuda_graph << "\nvector_ops "
       << to_string(options.vector_ops) << "\nrestart " << options.restart << "\nchebyshev degree "
       << chebyshev.degree << " estimate " << to_string(chebyshev.eigen_estimate) << " steps "
       << chebyshev.estimate_iterations << " upper_factor " << chebyshev.upper_factor
       << " lower_ratio " << chebyshev.lower_ratio << "\nblock_jacobi local "
       << to_string(options.preconditioner_options.local) << "\n";
  return text.str();
}

void check_supported(const SolverOptions& options, int processes) {
  const Preconditioner preconditioner = options.preconditioner;
  const bool block_local =
      preconditioner == Preconditioner::ic0 || preconditioner == Preconditioner::ilu0;
  if (block_local && processes > 1)
    throw NotSupported(std::string("solver.preconditioner ") + to_string(preconditioner) +
                       " runs on one process only; with " + std::to_string(processes) +
                       " processes use preconditioner: block_jacobi with "
                       "preconditioner_options.local: " +
                       to_string(preconditioner) +
                       " (on each process's diagonal block), or none, jacobi, chebyshev or amg");
}

template <class T>
void check_finite(const T* values, std::size_t count, global_index_t first, const char* what) {
  const auto entries = static_cast<std::int64_t>(count);
  std::int64_t bad = entries;  // the first non-finite entry
#pragma omp parallel for schedule(static) reduction(min : bad)
  for (std::int64_t k = 0; k < entries; ++k)
    if (!std::isfinite(values[k])) bad = std::min(bad, k);
  if (bad < entries)
    throw BadInput(std::string(what) + " has a non-finite value at entry " +
                   std::to_string(first + bad) + " (0-based)");
}

template <class T>
void check_diagonal(const CsrMatrix<T>& pattern, const T* values, global_index_t first_row,
                    Preconditioner preconditioner) {
  if (preconditioner != Preconditioner::jacobi && preconditioner != Preconditioner::chebyshev)
    return;
  HostSpace<T> host;  // its loops on this process's OpenMP threads
  std::vector<index_t> positions(static_cast<std::size_t>(pattern.rows));
  host.find_diagonal_positions(pattern.rows, pattern.row_offsets.data(), pattern.columns.data(),
                               positions.data());
  check_diagonal_at(positions, values, first_row);
}

template <class T>
void check_diagonal_at(const std::vector<index_t>& positions, const T* values,
                       global_index_t first_row) {
  HostSpace<T> host;
  std::vector<T> inverse(positions.size());
  std::uint64_t fault = diagonal_fault::no_fault;  // 4 * (local row) + reason, as Jacobi's
  host.invert_entries(positions.size(), values, positions.data(), inverse.data(), &fault);
  if (fault != diagonal_fault::no_fault)  // named as Jacobi names it, with the global row
    throw_diagonal_fault("jacobi", fault + 4 * static_cast<std::uint64_t>(first_row));
}

namespace {

// The caller's arrays are CSR arrays of finite values (read in place by the split: no copy).
template <class T>
void check_rows(const DistributedCsrArrays<T>& arrays) {
  if (arrays.rows < 0)
    throw BadInput("DistributedCsrArrays: negative row count " + std::to_string(arrays.rows));
  if (arrays.row_offsets == nullptr)
    throw BadInput("DistributedCsrArrays: row_offsets is a null pointer");
  const index_t nnz = arrays.row_offsets[arrays.rows];
  if (arrays.row_offsets[0] != 0 || nnz < 0)
    throw BadInput("DistributedCsrArrays: row_offsets must start at 0 and end at nnz >= 0");
  if (nnz > 0 && (arrays.columns == nullptr || arrays.values == nullptr))
    throw BadInput("DistributedCsrArrays: columns or values is a null pointer");
  check_finite(arrays.values, static_cast<std::size_t>(nnz), 0,
               "the matrix (this process's entries)");
}

// AMG for systems: this process's rows are whole nodes (block_size dofs each: aggregates
// never split a node), and its near-null-space inputs (coordinates or vectors) are its rows'
// slice. Checked here, in an agreed step, rather than in the hierarchy's setup, where an error
// on one process would leave the others in a collective call.
void check_systems_rows(const SolverOptions& options, index_t rows) {
  const AmgOptions& amg = options.preconditioner_options.amg;
  if (options.preconditioner != Preconditioner::amg || !is_systems_amg(amg)) return;
  if (amg.block_size > 1 && rows % amg.block_size != 0)
    throw BadInput("amg: this process's " + std::to_string(rows) +
                   " rows are not a multiple of matrix.block_size " +
                   std::to_string(amg.block_size) +
                   ": the row partition must cut at node boundaries");
  fine_near_nullspace(amg, rows);  // throws BadInput for a wrong-sized slice
}

}  // namespace

namespace {

// The options every partition checks (agreed), and the blocks in rank order from every
// process's row count.
RowPartition checked_partition(const Communicator& communicator, index_t rows,
                               const Options& options,
                               const std::function<void()>& check_caller_rows) {
  const MPI_Comm c = communicator.get();
  on_every_process(c, [&] {
    validate_solver_options(options.solver);
    validate_spmv_options(options.spmv);
    if (options.spmv.matrix_values != MatrixValues::solver)
      throw BadInput(
          "precision mixed (spmv.matrix_values single) is single-process only for now: its fp64 "
          "true-residual operator has no distributed form yet; use precision: double");
    check_supported(options.solver, communicator.size());
    check_caller_rows();
    check_systems_rows(options.solver, rows);
  });
  std::vector<global_index_t> counts(static_cast<std::size_t>(communicator.size()));
  const global_index_t mine = rows;
  SPK_MPI_CHECK(MPI_Allgather(&mine, 1, MPI_INT64_T, counts.data(), 1, MPI_INT64_T, c));
  RowPartition partition = partition_from_counts(counts);
  if (partition.global_rows() == 0) throw BadInput("the matrix is empty (0 rows on every process)");
  return partition;
}

}  // namespace

template <class T>
RowPartition partition_caller_rows(const Communicator& communicator,
                                   const DistributedCsrArrays<T>& arrays, const Options& options) {
  return checked_partition(communicator, arrays.rows, options, [&] { check_rows(arrays); });
}

RowPartition partition_device_rows(const Communicator& communicator, index_t rows,
                                   global_index_t first_row, const Options& options) {
  RowPartition partition = checked_partition(communicator, rows, options, [] {});
  on_every_process(communicator.get(), [&] {
    if (partition.first_row(communicator.rank()) != first_row)
      throw Error("rank " + std::to_string(communicator.rank()) + ": its device rows start at " +
                  std::to_string(first_row) + ", the partition's block at " +
                  std::to_string(partition.first_row(communicator.rank())) + " (internal error)");
  });
  return partition;
}

bool solves_on_gpu(MPI_Comm comm, Device device) {
  if (device == Device::cpu) return false;
  if (device == Device::gpu) return true;
  const int mine = device_available() ? 1 : 0;
  int all = 0;
  SPK_MPI_CHECK(MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, comm));
  return all == 1;
}

template <class T>
PartitionedRows<T> split_caller_rows(const Communicator& communicator,
                                     const DistributedCsrArrays<T>& arrays,
                                     const Options& options) {
  const MPI_Comm c = communicator.get();
  StepTrace trace = StepTrace::when_enabled(
      [&] { return "partition (rank " + std::to_string(communicator.rank()) + ")"; });
  PartitionedRows<T> rows;
  rows.partition = partition_caller_rows(communicator, arrays, options);
  trace.lap("checks (finite values), partition");
  const global_index_t first_row = rows.partition.first_row(communicator.rank());
  on_every_process(c, [&] {
    rows.split = split_local_and_halo(arrays, first_row, rows.partition, communicator.rank());
    trace.lap("local/halo split");
    check_diagonal(rows.split.pattern, rows.split.pattern.values.data(), first_row,
                   options.solver.preconditioner);
  });
  trace.lap("diagonal checked, agreed");
  return rows;
}

template <class T>
ProcessInfo describe_process(const DistributedMatrix<T>& matrix, int rank, int device) {
  const SplitRows<T>& rows = matrix.split();
  const HaloPlan& plan = matrix.exchange().plan();
  ProcessInfo info;
  info.rank = rank;
  info.first_row = rows.first_row;
  info.rows = rows.local.rows;
  info.local_nnz = rows.local_entries;
  info.halo_nnz = rows.halo_entries;
  info.nnz = info.local_nnz + info.halo_nnz;
  info.halo_size = plan.halo_size;
  info.send_size = plan.send_size();
  info.neighbours = plan.neighbours();
  info.device = device;
  return info;
}

template <class T>
CommunicationPhases measure_phases(FaultWatch& watch, DistributedMatrix<T>& matrix, const T* x,
                                   T* y, const std::function<void()>& sum_once,
                                   const PhaseTimer& time_ms, int repetitions) {
  const LinearOperator<T>& local = matrix.local();
  const LinearOperator<T>* halo = matrix.halo();
  HaloExchange<T>& exchange = matrix.exchange();
  const T* x_halo = nullptr;
  CommunicationPhases phases;
  // Each phase starts together on every process: what one measures is not another's lateness.
  watch.barrier();
  phases.product_ms = time_ms(repetitions, [&] { matrix.op().apply(x, y); });
  watch.barrier();
  phases.exchange_ms = time_ms(repetitions, [&] {
    exchange.start(x);
    x_halo = exchange.finish();
  });
  phases.local_ms = time_ms(repetitions, [&] {
    exchange.before_local();
    local.apply(x, y);
    exchange.after_local();
  });
  if (halo != nullptr)
    phases.halo_ms = time_ms(repetitions, [&] { halo->apply_scaled(T(1), x_halo, T(1), y); });
  watch.barrier();
  phases.allreduce_ms = time_ms(repetitions, sum_once);
  return phases;
}

#define SPK_INSTANTIATE(T)                                                                         \
  template void check_finite<T>(const T*, std::size_t, global_index_t, const char*);               \
  template void check_diagonal<T>(const CsrMatrix<T>&, const T*, global_index_t, Preconditioner);  \
  template void check_diagonal_at<T>(const std::vector<index_t>&, const T*, global_index_t);       \
  template RowPartition partition_caller_rows<T>(const Communicator&,                              \
                                                 const DistributedCsrArrays<T>&, const Options&);  \
  template PartitionedRows<T> split_caller_rows<T>(                                                \
      const Communicator&, const DistributedCsrArrays<T>&, const Options&);                        \
  template ProcessInfo describe_process<T>(const DistributedMatrix<T>&, int, int);                 \
  template CommunicationPhases measure_phases<T>(FaultWatch&, DistributedMatrix<T>&, const T*, T*, \
                                                 const std::function<void()>&, const PhaseTimer&,  \
                                                 int);
SPK_INSTANTIATE(float)
SPK_INSTANTIATE(double)
#undef SPK_INSTANTIATE

}  // namespace spk
