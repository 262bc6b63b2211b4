#pragma once
/// @file
/// spk::DistributedSolver<T>: CG, BiCGSTAB, GMRES or pipelined CG over the processes of an MPI
/// communicator. Each process hands over its own rows of the matrix (contiguous blocks in rank
/// order: rank 0 the first rows, and so on), with global column indices; b and x are split the
/// same way.
/// Installed, with the spkrylov::distributed target, when spkrylov is built with MPI
/// (SPK_WITH_MPI); the single-process library (spkrylov::spkrylov) needs no MPI.
///
/// @code
///   #include <spkrylov/distributed.hpp>
///   // this rank's rows: local row offsets, global (64-bit) columns, values
///   spk::DistributedCsrArrays<double> rows{local_rows, offsets.data(), columns.data(),
///                                          values.data()};
///   spk::Options options;
///   options.solver.preconditioner = spk::Preconditioner::jacobi;
///   spk::DistributedSolver<double> solver(MPI_COMM_WORLD, rows, options);  // collective
///   std::vector<double> x_local(local_rows, 0.0);
///   spk::SolveResult result = solver.solve(b_local, x_local);  // collective
///   solver.update_values(new_values.data());                    // collective
/// @endcode
///
/// Every call is collective: all processes of the communicator make it, in the same order.
/// Every process gets the same SolveResult (status, iterations, residuals of the whole
/// system): the inner products are summed in the same order everywhere, so every process
/// stops at the same iteration. The matrix product overlaps the halo exchange (the entries of
/// x other processes own) with the product of the local block.
///
/// Where: Device::gpu solves on one GPU per process (DistributedOptions: which device, NCCL or
/// host-staged MPI, overlap); Device::cpu on the CPU over MPI; Device::automatic on GPUs when
/// every process has one, else on the CPU. The blocks use the SpMV format of
/// options.spmv (`auto` tunes each block on its own; a halo block the format refuses, e.g. an
/// ellpack one past max_ell_fill, is stored as csr). Preconditioners none, jacobi and
/// chebyshev, amg, and block_jacobi (ic0 and ilu0 on each process's diagonal block; on their
/// own, one process only: NotSupported on several).
///
/// Host threads: each call runs its host work (checks, the split, the setup's host steps) on
/// this process's share of its machine's CPUs (the CPUs over the processes on the machine),
/// unless OMP_NUM_THREADS is set; the caller's OpenMP thread count is put back after the call.
///
/// Errors: bad input on any process (a column out of range, a non-finite value, a zero Jacobi
/// pivot, options that differ from rank 0's) is thrown on EVERY process, the same type and
/// message ("rank R: ..." with several processes; BadDiagonal names the global row), so no
/// process is left waiting, and the solver stays usable.
///
/// A process that fails alone inside a call (its ProgressCallback throws, a device fault,
/// memory running out, a failed MPI call: spk::CommunicationError naming the call and rank)
/// gets its own exception back, unchanged; every other process's call ends at its next wait
/// (a halo, an inner product's sum, a check block's read-back) with spk::RankFailed naming
/// that rank and its message, on one line:
///
///   rank 1 failed in solve: <its message> (this DistributedSolver is unusable now: make a new one)
///
/// The solver is then unusable on every process: each later call (solve, multiply,
/// update_values, time_phases, time_spmv_ms) throws RankFailed at once ("this DistributedSolver
/// is unusable since rank 1 failed in solve (...); make a new solver"). Catch the errors,
/// destroy it, and make a new DistributedSolver over the same communicator if you want to go
/// on; MPI_Finalize ends normally. Two processes that fail at once each get their own error;
/// the others name one of them. DistributedOptions::watch_faults = false turns this off (plain
/// blocking waits: a failure then leaves the others waiting, call MPI_Abort). Not covered: a
/// failure inside the constructor's NCCL init (call MPI_Abort), and a process that dies
/// outright (a signal, MPI_Abort) rather than throwing.
#include <mpi.h>

#include <memory>
#include <spkrylov/csr_arrays.hpp>
#include <spkrylov/distributed_info.hpp>
#include <spkrylov/errors.hpp>
#include <spkrylov/options.hpp>
#include <spkrylov/result.hpp>
#include <spkrylov/setup_info.hpp>
#include <vector>

namespace spk {

struct DistributedSolverAccess;

template <class T>
class DistributedSolver {
 public:
  /// Collective over `comm` (which is duplicated: spkrylov's messages never match yours).
  DistributedSolver(MPI_Comm comm, const DistributedCsrArrays<T>& rows, const Options& options,
                    const DistributedOptions& distributed = {});
  ~DistributedSolver();
  DistributedSolver(DistributedSolver&&) noexcept;
  DistributedSolver& operator=(DistributedSolver&&) noexcept;

  /// b and x: this process's rows() entries; x is the initial guess and gets the solution.
  SolveResult solve(const std::vector<T>& b, std::vector<T>& x,
                    const ProgressCallback& progress = {});
  /// The same with pointers: both in host memory, or both in device memory (a GPU
  /// simulation's vectors: on the GPU path checked and copied on the device, no host copy; the
  /// CPU path copies them to the host and x back).
  SolveResult solve(const T* b, T* x, const ProgressCallback& progress = {});

  /// y = A x for this process's rows (x: its rows() entries of the whole x). Collective.
  void multiply(const T* x, T* y);

  /// New coefficients, same pattern: this process's nnz values in the order given at
  /// construction, in host memory, or in device memory on the GPU path (a GPU simulation's
  /// values: checked and split on the device, no upload; the CPU path copies them to the host).
  /// Checked on every process before anything changes (a non-finite value or a zero Jacobi
  /// pivot anywhere throws everywhere and keeps the old system). AMG keeps its aggregates and
  /// recomputes its levels' values (solver.preconditioner_options.resetup).
  void update_values(const T* values);
  void update_values(const std::vector<T>& values);

  /// Median time of one distributed product (with its halo exchange), in ms. Collective.
  double time_spmv_ms(int repetitions);
  /// This process's phases (product, local, halo, exchange, one scalar sum), medians of
  /// `repetitions` each; also kept in communication_times().phases. Collective.
  CommunicationPhases time_phases(int repetitions);
  /// "mpi" (CPU), "nccl" or "mpi (host-staged)" (GPU).
  const char* transport() const;

  /// This process's setup: what it built, and its time by phase (SetupInfo::phases).
  const SetupInfo& setup_info() const;
  const SolverOptions& options() const;
  ProcessInfo process_info() const;
  CommunicationTimes communication_times() const;
  int rank() const;
  int processes() const;
  index_t rows() const;
  global_index_t first_row() const;
  global_index_t global_rows() const;

  class Impl;

 private:
  friend struct DistributedSolverAccess;  // the library's own ways to make one (internal)
  explicit DistributedSolver(std::unique_ptr<Impl> impl);

  std::unique_ptr<Impl> impl_;
};

}  // namespace spk
