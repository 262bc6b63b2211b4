#include "heat_simulation.hpp"

#include <chrono>
#include <utility>

namespace heat3d {

namespace {
using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}
}  // namespace

HeatSimulation::HeatSimulation(HeatProblem problem, double dt, const spk::Options& options)
    : problem_(std::move(problem)),
      dt_(dt),
      options_(options),
      u_(static_cast<std::size_t>(problem_.rows()), 0.0) {}

StepReport HeatSimulation::step() {
  const auto start = Clock::now();
  StepReport report;
  report.step = ++step_;
  report.time = step_ * dt_;
  const std::vector<double> values = problem_.values_at(report.time);
  const std::vector<double> b = problem_.right_hand_side(u_);
  report.assemble_ms = ms_since(start);
  const auto update_start = Clock::now();
  if (!solver_) {
    const spk::CsrArrays<double> matrix{problem_.rows(), problem_.rows(),
                                        problem_.row_offsets().data(), problem_.columns().data(),
                                        values.data()};
    solver_ = std::make_unique<spk::Solver<double>>(matrix, options_);
  } else {
    solver_->update_values(values);
  }
  report.update_ms = ms_since(update_start);
  const spk::SolveResult result = solver_->solve(b, u_);  // u_m is the initial guess
  report.iterations = result.iterations;
  report.status = spk::to_string(result.status);
  report.relative_residual = result.relative_true_residual;
  report.solve_ms = 1e3 * result.solve_s;
  report.step_ms = ms_since(start);
  return report;
}

}  // namespace heat3d
