#include "solver/solve_outcome.hpp"

#include <cstdio>

#include "core/printable_text.hpp"

namespace spk {

namespace {

std::string target_text(const SolveResult& result, const SolverOptions& options) {
  std::string text = "target " + scientific_text(result.threshold) + " = tolerance " +
                     scientific_text(options.tolerance);
  switch (options.tolerance_mode) {
    case ToleranceMode::rhs: return text + " x ||b||";
    case ToleranceMode::initial: return text + " x ||r0||";
    case ToleranceMode::absolute: return text + " (absolute)";
  }
  return text;
}

std::string breakdown_explanation(BreakdownQuantity quantity) {
  switch (quantity) {
    case BreakdownQuantity::p_ap:
      return "(p,Ap) <= 0: the matrix is not symmetric positive definite (try method: bicgstab)";
    case BreakdownQuantity::r_z:
      return "(r,z) <= 0: the preconditioned system is not SPD (negative diagonal entries?)";
    case BreakdownQuantity::rho:
      return "rho = (r_hat,r) ~ 0: the shadow residual became orthogonal to r";
    case BreakdownQuantity::rhat_v: return "(r_hat,v) ~ 0: alpha is undefined";
    case BreakdownQuantity::omega: return "omega ~ 0: the stabilizing step makes no progress";
    case BreakdownQuantity::none: break;
  }
  return "unknown quantity";
}

}  // namespace

std::string describe_outcome(const SolveResult& result, const SolverOptions& options) {
  const std::string at = " at iteration " + std::to_string(result.iterations);
  const std::string residuals = "true residual " + scientific_text(result.true_residual) +
                                ", recursive " + scientific_text(result.recursive_residual);
  switch (result.status) {
    case SolveStatus::converged:
      return "converged in " + std::to_string(result.iterations) + " iterations: " + residuals +
             " <= " + target_text(result, options);
    case SolveStatus::max_iterations:
      return "not converged: reached max_iterations = " + std::to_string(options.max_iterations) +
             " with " + residuals + "; " + target_text(result, options);
    case SolveStatus::breakdown:
      return "breakdown" + at + ": " + breakdown_explanation(result.breakdown) +
             (result.breakdown_restarts > 0
                  ? " (after " + std::to_string(result.breakdown_restarts) +
                        (options.method == Method::pipecg ? " restart(s) from r = b - Ax"
                                                          : " restart(s) from r_hat = r") +
                        ", solver.breakdown_restarts)"
                  : "") +
             "; " + residuals;
    case SolveStatus::diverged:
      return "diverged" + at + ": residual " + scientific_text(result.recursive_residual) + " > " +
             scientific_text(options.divergence_factor) +
             " x ||r0|| = " + scientific_text(options.divergence_factor * result.initial_residual);
    case SolveStatus::non_finite:
      return "non-finite values (NaN/Inf)" + at +
             "; the answer is not usable (check the matrix scaling, or use precision: double)";
    case SolveStatus::stagnated:
      return "stagnated" + at + ": the recursive residual met the target but the " + residuals +
             " does not (" + target_text(result, options) + ", after " +
             std::to_string(result.residual_replacements) + " residual replacements)";
    case SolveStatus::time_limit:
      return "stopped by time_limit_s = " + scientific_text(options.time_limit_s) + at + " with " +
             residuals;
    case SolveStatus::interrupted: return "interrupted by the caller" + at + " with " + residuals;
    case SolveStatus::no_progress:
      return "no progress" + at + ": a GMRES cycle of " + std::to_string(options.restart) +
             " steps (or a Krylov space that ended) did not reduce the residual, so restarting "
             "cannot either (A singular with b outside its range, or solver.restart too short); " +
             residuals;
    case SolveStatus::running: break;
  }
  return "solver ended in an unknown state";
}

}  // namespace spk
