#pragma once
// One human line describing how a solve ended.
#include <string>

#include "spkrylov/result.hpp"
#include "solver/solver_options.hpp"

namespace spk {

std::string describe_outcome(const SolveResult& result, const SolverOptions& options);

}  // namespace spk
