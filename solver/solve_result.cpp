#include "spkrylov/result.hpp"

namespace spk {

const char* to_string(SolveStatus status) {
  switch (status) {
    case SolveStatus::running: return "running";
    case SolveStatus::converged: return "converged";
    case SolveStatus::max_iterations: return "max_iterations";
    case SolveStatus::breakdown: return "breakdown";
    case SolveStatus::diverged: return "diverged";
    case SolveStatus::non_finite: return "non_finite";
    case SolveStatus::stagnated: return "stagnated";
    case SolveStatus::time_limit: return "time_limit";
    case SolveStatus::interrupted: return "interrupted";
    case SolveStatus::no_progress: return "no_progress";
  }
  return "?";
}

const char* to_string(BreakdownQuantity quantity) {
  switch (quantity) {
    case BreakdownQuantity::none: return "none";
    case BreakdownQuantity::p_ap: return "(p,Ap)";
    case BreakdownQuantity::r_z: return "(r,z)";
    case BreakdownQuantity::rho: return "rho=(r_hat,r)";
    case BreakdownQuantity::rhat_v: return "(r_hat,v)";
    case BreakdownQuantity::omega: return "omega";
  }
  return "?";
}

}  // namespace spk
