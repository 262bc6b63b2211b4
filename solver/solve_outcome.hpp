#pragma once
// One human line describing how a solve ended, and the process exit code for it.
#include <string>

#include "solver/solve_result.hpp"
#include "solver/solver_options.hpp"

namespace spk {

std::string describe_outcome(const SolveResult& result, const SolverOptions& options);

// 0 converged, 2 anything else (not converged, breakdown, ...). Bad input is 1 (main).
int exit_code_for(SolveStatus status);

}  // namespace spk
