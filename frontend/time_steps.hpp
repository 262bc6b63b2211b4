#pragma once
// run_time_steps: the config's `steps` (a simulation's time loop, the third way users run the
// solver): after the run's first solve, steps - 1 more, each after new values of the matrix.
// Step k (2, 3, ...) scales every value by 1 + 0.01 (k - 1), the pattern unchanged (a changing
// coefficient, as an implicit time step with a varying time step size or material sees),
// calls update_values (the format's values and the preconditioner's re-setup: AMG keeps its
// aggregates, IC(0)/ILU(0) refactor) and solves again from x = 0 with the same b. Scaling keeps
// the condition number, so every step is a full solve of the first one's difficulty (a shifted
// diagonal would make later steps easier, and the loop would measure that instead). Each step's
// update and solve times, iterations and true residual go in the report (RunReport::steps); a step
// that does not converge sets the exit status (overall_status).
//
// Generic over the solver: spk::Solver<T> (one process) and spk::DistributedSolver<T> (each
// process passes its own rows; update_values and solve are collective).
//
// values_on_device (config step_values: device): the values a GPU simulation would hand over,
// already on the device. Each step's values are copied into one device array first (timed
// apart: values_to_device_s, the simulation's part) and update_values takes that array, so the
// update's time is the library's alone (no host checks, no upload). b and x live on the device
// too, as such a simulation's vectors do: the solves take device arrays (no host copies of b
// and x each step: 40-80 ms at 16M rows a process).
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/cuda_check.hpp"
#include "core/device_buffer.hpp"
#include "frontend/run_report.hpp"
#include "spkrylov/errors.hpp"

namespace spk::app {

// Steps 2..steps after the first solve (report.result). report.loop_s: the first solve's time
// and every step's wall time; the report's preconditioner then shows the last re-setup.
// `values` are the solver's values of this process's rows.
template <class SolverType, class T>
void run_time_steps(SolverType& solver, int steps, const std::vector<T>& values,
                    const std::vector<T>& b, RunReport& report, bool values_on_device = false) {
  using Clock = std::chrono::steady_clock;
  const auto seconds = [](Clock::time_point from) {
    return std::chrono::duration<double>(Clock::now() - from).count();
  };
  double loop_s = report.result.solve_s;
  std::vector<T> changed = values;
  std::vector<T> x(values_on_device ? 0 : b.size());
  if (values_on_device && solver.setup_info().device != Device::gpu)
    throw BadInput("step_values: device: the solve runs on the CPU (device values need a GPU)");
  DeviceBuffer<T> device_values, device_b, device_x;
  if (values_on_device) {
    device_values = DeviceBuffer<T>(values.size(), "the steps' values");
    device_b = DeviceBuffer<T>(b, "the steps' right-hand side b");
    device_x = DeviceBuffer<T>(b.size(), "the steps' solution x");
  }
  for (int step = 2; step <= steps; ++step) {
    const double factor = 1.0 + 0.01 * (step - 1);  // A_k = (1 + 0.01 (k - 1)) A
#pragma omp parallel for schedule(static)
    for (std::int64_t k = 0; k < static_cast<std::int64_t>(values.size()); ++k)
      changed[static_cast<std::size_t>(k)] =
          static_cast<T>(values[static_cast<std::size_t>(k)] * factor);
    StepReport done;
    done.step = step;
    if (values_on_device) {
      const auto copy_start = Clock::now();
      device_values.copy_from_host(changed);  // synchronous: the values are there
      done.values_to_device_s = seconds(copy_start);
    }
    const auto update_start = Clock::now();
    if (values_on_device)
      solver.update_values(device_values.data());
    else
      solver.update_values(changed);
    done.update_s = seconds(update_start);
    SolveResult result;
    if (values_on_device) {
      if (device_x.size() > 0) SPK_CUDA_CHECK(cudaMemset(device_x.data(), 0, device_x.bytes()));
      result = solver.solve(device_b.data(), device_x.data());
    } else {
#pragma omp parallel for schedule(static)  // x = 0 (16M entries a process at 400^3 on 4 GPUs)
      for (std::int64_t k = 0; k < static_cast<std::int64_t>(x.size()); ++k)
        x[static_cast<std::size_t>(k)] = T(0);
      result = solver.solve(b, x);
    }
    done.status = result.status;
    done.iterations = result.iterations;
    done.relative_true_residual = result.relative_true_residual;
    done.solve_s = result.solve_s;
    loop_s += seconds(update_start);  // the step's wall time, the solve's checks included
    report.steps.push_back(done);
  }
  report.loop_s = loop_s;
  report.setup.preconditioner = solver.setup_info().preconditioner;  // the last re-setup's times
}

}  // namespace spk::app
