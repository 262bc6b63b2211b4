#pragma once
// The CLI's process exit codes: 0 converged, 2 any other solve status (not converged,
// breakdown, ...), 1 bad input or an error (main catches every spk::Error once).
#include "spkrylov/result.hpp"

namespace spk {

constexpr int exit_bad_input = 1;

inline int exit_code_for(SolveStatus status) {
  return status == SolveStatus::converged ? 0 : 2;
}

}  // namespace spk
