#pragma once
// One human line describing how a solve ended.
#include <string>

#include "spkrylov/options.hpp"
#include "spkrylov/result.hpp"

namespace spk {

std::string describe_outcome(const SolveResult& result, const SolverOptions& options);

}  // namespace spk
