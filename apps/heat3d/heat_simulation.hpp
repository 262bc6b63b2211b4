#pragma once
// The time loop of the heat3d example, written against the public spkrylov API only: one
// Solver built at the first step and reused, with update_values at every later step.
#include <memory>
#include <spkrylov/spkrylov.hpp>
#include <string>
#include <vector>

#include "heat_problem.hpp"

namespace heat3d {

struct StepReport {
  int step = 0;
  double time = 0.0;
  int iterations = 0;
  std::string status;
  double relative_residual = 0.0;  // true ||b - A u|| / ||b|| reported by the solver
  double assemble_ms = 0.0;        // the example's own host work: values and right-hand side
  double update_ms = 0.0;          // spkrylov: Solver setup (step 1) or update_values
  double solve_ms = 0.0;           // the solve itself
  double step_ms = 0.0;            // everything in the step
  double outside_share() const { return step_ms > 0.0 ? 1.0 - solve_ms / step_ms : 0.0; }
};

class HeatSimulation {
 public:
  HeatSimulation(HeatProblem problem, double dt, const spk::Options& options);
  // Advances one implicit Euler step; throws spk::Error on bad input, returns the status
  // (a non-converged step is reported, the caller decides).
  StepReport step();
  const std::vector<double>& temperature() const { return u_; }
  const spk::Solver<double>* solver() const { return solver_.get(); }

 private:
  HeatProblem problem_;
  double dt_;
  spk::Options options_;
  std::unique_ptr<spk::Solver<double>> solver_;
  std::vector<double> u_;
  int step_ = 0;
};

}  // namespace heat3d
