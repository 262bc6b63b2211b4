#pragma once
// DistributedSolver<T>::Impl: what the CPU path (distributed_solver.cpp) and the GPU path
// (device_distributed_solver.cu) share: the communicator and its fault watch, the matrix's
// blocks and exchange, the agreed checks of solve and update_values, and the reports. Each
// path adds its space, its iteration and the memory b and x live in, behind the virtual steps
// below. Every public collective call runs through watch.run (fault_watch.hpp): a failure of
// one process inside it ends the call on every process, and the solver is then unusable.
#include <cuda_runtime.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/cuda_check.hpp"
#include "core/step_trace.hpp"
#include "distributed/agreed_errors.hpp"
#include "distributed/communicator.hpp"
#include "distributed/distributed_matrix.hpp"
#include "distributed/distributed_setup.hpp"
#include "distributed/fault_watch.hpp"
#include "solver/csr_input.hpp"
#include "solver/pointer_location.hpp"
#include "spkrylov/distributed.hpp"

namespace spk {

template <class T>
struct DeviceSplitRows;  // distributed/device_split_rows.hpp

template <class T>
class DistributedSolver<T>::Impl {
 public:
  Impl(MPI_Comm comm, const SolverOptions& solver_options, bool watch_faults)
      : communicator(comm), watch(communicator.get(), watch_faults), options(solver_options) {}
  virtual ~Impl() = default;

  // b, x: this process's rows (sizes given by the caller), both host arrays or, on the GPU path,
  // both device arrays (a GPU simulation's vectors: checked on the device, copied there, no
  // host copy); the CPU path copies device arrays to the host and x back.
  SolveResult solve(const T* b, T* x, std::size_t b_size, std::size_t x_size,
                    const ProgressCallback& progress) {
    return watch.run("solve", [&] {
      const auto n = static_cast<std::size_t>(rows());
      bool on_device = false;
      std::vector<T> host_b, host_x;  // device arrays of the CPU path, on the host
      on_every_process(watch, [&] {
        if (b_size != n || x_size != n)
          throw BadInput("solve: b has " + std::to_string(b_size) + " and x " +
                         std::to_string(x_size) + " entries, this process's rows " +
                         std::to_string(n));
        if (n > 0 && (b == nullptr || x == nullptr))
          throw BadInput("solve: b or x is a null pointer");
        on_device = n > 0 && host_cannot_read(b);
        if (n > 0 && host_cannot_read(x) != on_device)
          throw BadInput("solve: b and x must both be host arrays or both device arrays");
        if (on_device && device < 0) {
          host_b = copy_to_host(b, n, true, "solve: b");
          host_x = copy_to_host(x, n, true, "solve: x");
        }
        if (on_device && device >= 0) {
          check_device_finite(b, n, "the right-hand side");
          check_device_finite(x, n, "the initial guess");
        } else {
          check_finite(host_b.empty() ? b : host_b.data(), n, first_row(), "the right-hand side");
          check_finite(host_x.empty() ? x : host_x.data(), n, first_row(), "the initial guess");
        }
        check_preconditioner();
      });
      matrix->exchange().reset_times();
      reset_space_times();
      SolveResult result = host_b.empty() ? run_solve(b, x, progress)
                                          : run_solve(host_b.data(), host_x.data(), progress);
      if (!host_x.empty())
        SPK_CUDA_CHECK(cudaMemcpy(x, host_x.data(), n * sizeof(T), cudaMemcpyHostToDevice));
      times = collect_times();
      return result;
    });
  }

  // values: this process's values in its rows' order, a host array or a device array (the GPU
  // path takes them there, the CPU path copies them to the host); given: the caller's count of
  // values, where known (the std::vector overload).
  void update_values(const T* values, std::optional<std::size_t> given = std::nullopt) {
    watch.run("update_values", [&] {
      StepTrace trace = StepTrace::when_enabled(
          [&] { return "update_values (rank " + std::to_string(communicator.rank()) + ")"; });
      const SplitRows<T>& split = matrix->split();
      const auto count = static_cast<std::size_t>(split.entries());
      std::vector<T> copied;  // a device array of the CPU path, on the host
      bool on_device = false;
      on_every_process(watch, [&] {
        if (given && *given != count)
          throw BadInput("update_values: " + std::to_string(*given) +
                         " values given, this process's rows have " + std::to_string(count) +
                         " entries");
        if (values == nullptr && count > 0) throw BadInput("update_values: null pointer");
        on_device = count > 0 && host_cannot_read(values);
        if (on_device && device < 0) {
          copied = copy_to_host(values, count, true, "update_values: the values");
          values = copied.data();
          on_device = false;
        }
        if (on_device) {
          check_device_values(values);  // the same checks, on the device
        } else {
          check_finite(values, count, 0, "update_values: this process's values");
          check_host_diagonal(values);
        }
      });
      trace.lap("checks (finite values, diagonal)");
      if (on_device)
        update_device_values(values);
      else
        update_host_values(values);
      trace.lap("the blocks' values");
      if (options.preconditioner == Preconditioner::block_jacobi)  // local: fails alone, agreed
        on_every_process(watch, [&] { refresh_preconditioner(); });
      else
        refresh_preconditioner();  // checked above: cannot fail
      trace.lap("the preconditioner's re-setup");
    });
  }

  void multiply(const T* x, T* y) {  // host arrays
    watch.run("multiply", [&] { run_multiply(x, y); });
  }
  double time_spmv_ms(int repetitions) {
    return watch.run("time_spmv_ms", [&] { return run_time_spmv(repetitions); });
  }
  CommunicationPhases time_phases(int repetitions) {
    return watch.run("time_phases", [&] {
      times.phases = run_time_phases(repetitions);
      return times.phases;
    });
  }

  ProcessInfo process_info() const {
    return describe_process(*matrix, communicator.rank(), device);
  }
  index_t rows() const { return matrix->split().local.rows; }
  global_index_t first_row() const { return matrix->split().first_row; }

  virtual const char* transport() const = 0;

  Communicator communicator;
  FaultWatch watch;  // over communicator; destroyed before it
  SolverOptions options;
  SetupInfo setup;
  global_index_t global_rows = 0;
  int device = -1;       // CUDA device; -1: the CPU
  int host_threads = 1;  // OpenMP threads of this process's calls (process_threads.hpp)
  std::unique_ptr<DistributedMatrix<T>> matrix;
  CommunicationTimes times;  // of the last solve, with the last time_phases

 protected:
  virtual void check_preconditioner() = 0;
  virtual void reset_space_times() = 0;
  virtual SolveResult run_solve(const T* b, T* x, const ProgressCallback& progress) = 0;
  virtual CommunicationTimes collect_times() const = 0;
  virtual void refresh_preconditioner() = 0;
  virtual CommunicationPhases run_time_phases(int repetitions) = 0;
  virtual void run_multiply(const T* x, T* y) = 0;
  virtual double run_time_spmv(int repetitions) = 0;
  // The GPU path's update_values from a device array (values in the rows' order): the finite
  // and diagonal checks of the host path, on the device (throw BadInput / BadDiagonal), then
  // the values into the blocks and the preconditioners' pattern. The host split keeps the last
  // host update's values: the GPU path never reads them again.
  virtual void check_device_values(const T* values) = 0;
  // solve's finite check of a device vector of this process's rows (GPU path): BadInput naming
  // the first non-finite entry's global row, as check_finite does.
  virtual void check_device_finite(const T* vector, std::size_t n, const char* what) = 0;
  virtual void update_device_values(const T* values) = 0;
  // The same from a host array, after its finite check: the diagonal check (Jacobi and
  // Chebyshev) and the values into the blocks. The CPU path's split is on the host; the GPU
  // path's on the device (device_split_rows.hpp), which overrides both.
  virtual void check_host_diagonal(const T* values) {
    check_diagonal(matrix->split().pattern, values, first_row(), options.preconditioner);
  }
  virtual void update_host_values(const T* values) { matrix->update_values(values); }
};

// The GPU path (device_distributed_solver.cu). Collective; agreed failures as the CPU path's.
template <class T>
std::unique_ptr<typename DistributedSolver<T>::Impl> make_device_distributed_solver(
    MPI_Comm comm, const DistributedCsrArrays<T>& arrays, const Options& options,
    const DistributedOptions& distributed);
// The same over rows already split on this process's GPU (device_rows_solver.hpp).
template <class T>
std::unique_ptr<typename DistributedSolver<T>::Impl> make_device_distributed_solver(
    MPI_Comm comm, DeviceSplitRows<T>&& rows, const Options& options,
    const DistributedOptions& distributed);

}  // namespace spk
