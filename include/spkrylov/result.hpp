#pragma once
/// @file
/// spk::SolveStatus and spk::SolveResult: what a solve reports. A solve that does not
/// converge is a status with a one-line message, never an exception. spk::Progress: what
/// a solve reports at each convergence check (at most solver.check_every iterations apart).
///
/// @code
///   const spk::SolveResult result = solver.solve(b, x);
///   if (result.status == spk::SolveStatus::breakdown)
///     std::cerr << "broke down on " << spk::to_string(result.breakdown) << "\n";
///   std::cout << result.message << " (" << result.ms_per_iteration() << " ms/iteration)\n";
///   solver.solve(b, x, [](const spk::Progress& p) { std::cerr << p.iteration << "\r"; });
/// @endcode
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace spk {

enum class SolveStatus : int {
  running = 0,     // internal: the iteration is still going
  converged,       // the TRUE residual ||b - Ax|| meets the tolerance
  max_iterations,  // iteration limit reached first
  breakdown,       // a Krylov quantity vanished (see BreakdownQuantity)
  diverged,        // ||r|| > divergence_factor * ||r0||
  non_finite,      // NaN or Inf appeared in a residual or a scalar
  stagnated,       // the recursive residual met the tolerance but the true one did not
  time_limit,      // solver.time_limit_s passed
  interrupted,     // the progress callback asked the solve to stop (Progress::request_stop)
  no_progress,     // GMRES: a restart cycle (or an exhausted Krylov space) did not reduce the
                   // residual: restarted GMRES stagnates on this system (A singular on the
                   // Krylov space, b not in its range, or solver.restart too short)
};

enum class BreakdownQuantity : int {
  none = 0,
  p_ap,    // CG: (p, Ap) <= 0, the matrix is not SPD
  r_z,     // PCG: (r, z) <= 0, the preconditioned matrix is not SPD
  rho,     // BiCGSTAB: rho = (r_hat, r) ~ 0
  rhat_v,  // BiCGSTAB: (r_hat, v) ~ 0, alpha undefined
  omega,   // BiCGSTAB: omega = (t, s) / (t, t) ~ 0
};

const char* to_string(SolveStatus status);
const char* to_string(BreakdownQuantity quantity);

struct ResidualHistory {
  std::vector<double> residual;   // ||r_k|| (recursive), k = 0 .. iterations
  std::vector<double> elapsed_s;  // time since the solve started, at iteration k
};

struct SolveResult {
  SolveStatus status = SolveStatus::running;
  BreakdownQuantity breakdown = BreakdownQuantity::none;
  std::string message;            // one line, human readable
  int iterations = 0;             // iterations that produced the returned x
  int iterations_executed = 0;    // loop iterations the device ran (>= iterations)
  int residual_replacements = 0;  // restarts from r = b - A x after a false convergence
  int breakdown_restarts = 0;     // BiCGSTAB: restarts from r_hat = r = b - A x after a breakdown
  int second_passes = 0;          // GMRES: Arnoldi steps that took Gram-Schmidt's second pass
  double threshold = 0.0;         // the absolute residual norm the tolerance asked for
  double b_norm = 0.0;
  double initial_residual = 0.0;        // ||r0||
  double recursive_residual = 0.0;      // final ||r_k|| from the recurrence
  double true_residual = 0.0;           // final ||b - A x||
  double relative_true_residual = 0.0;  // ||b - A x|| / ||b|| (or absolute when b = 0)
  double solve_s = 0.0;                 // wall time of the iteration, setup excluded
  ResidualHistory history;

  bool converged() const { return status == SolveStatus::converged; }
  double ms_per_iteration() const {
    return iterations_executed > 0 ? 1e3 * solve_s / iterations_executed : 0.0;
  }
};

struct Progress {
  int iteration = 0;
  double residual = 0.0;
  double threshold = 0.0;
  double elapsed_s = 0.0;
  /// Asks the solve to stop here: it returns at once with status `interrupted` and the
  /// current x (a Ctrl-C handler, a GUI's stop button). Every process of a distributed solve
  /// stops at the same check when any asks.
  void request_stop() const { stop_requested_ = true; }
  bool stop_requested() const { return stop_requested_; }
  /// Copies the current iterate x (this process's rows() values of the solver's type T) to
  /// host memory at `destination`: one device-to-host copy on a GPU, made only when asked
  /// (SciPy's callback(xk) in the Python module).
  void copy_iterate(void* destination) const {
    if (iterate_copier) iterate_copier(destination);
  }
  std::function<void(void*)> iterate_copier;  ///< set by the solver

 private:
  mutable bool stop_requested_ = false;
};
using ProgressCallback = std::function<void(const Progress&)>;

}  // namespace spk
