#include <cmath>
#include <string>

#include "spkrylov/errors.hpp"
#include "spkrylov/options.hpp"

namespace spk {

void validate_solver_options(const SolverOptions& options) {
  if (!(options.tolerance > 0.0) || !std::isfinite(options.tolerance))
    throw BadInput("solver.tolerance must be a positive number");
  if (options.max_iterations < 0) throw BadInput("solver.max_iterations must be >= 0");
  if (options.restart < 1)
    throw BadInput("solver.restart must be >= 1 (GMRES steps per cycle), got " +
                   std::to_string(options.restart));
  if (options.breakdown_restarts < 0) throw BadInput("solver.breakdown_restarts must be >= 0");
  const double shift = options.preconditioner_options.factorization.shift_value;
  if (!(shift >= 0.0) || !std::isfinite(shift))
    throw BadInput("solver.preconditioner_options.shift must be auto, none or a number >= 0");
  const Preconditioner local = options.preconditioner_options.local;
  if (options.preconditioner == Preconditioner::block_jacobi &&
      (local == Preconditioner::none || local == Preconditioner::block_jacobi))
    throw BadInput(std::string("solver.preconditioner_options.local must be ilu0, ic0, amg, "
                               "chebyshev or jacobi, not ") +
                   to_string(local));
}

const char* to_string(Method method) {
  switch (method) {
    case Method::cg: return "cg";
    case Method::bicgstab: return "bicgstab";
    case Method::gmres: return "gmres";
    case Method::fgmres: return "fgmres";
    case Method::pipecg: return "pipecg";
  }
  return "?";
}

const char* to_string(ToleranceMode mode) {
  switch (mode) {
    case ToleranceMode::rhs: return "rhs";
    case ToleranceMode::initial: return "initial";
    case ToleranceMode::absolute: return "absolute";
  }
  return "?";
}

const char* to_string(VectorOps ops) {
  return ops == VectorOps::fused ? "fused" : "cublas";
}

const char* to_string(Orthogonalization orthogonalization) {
  return orthogonalization == Orthogonalization::cgs2 ? "cgs2" : "selective";
}

const char* to_string(FactorShift shift) {
  switch (shift) {
    case FactorShift::automatic: return "auto";
    case FactorShift::none: return "none";
    case FactorShift::fixed: return "fixed";
  }
  return "?";
}

const char* to_string(Preconditioner preconditioner) {
  switch (preconditioner) {
    case Preconditioner::none: return "none";
    case Preconditioner::jacobi: return "jacobi";
    case Preconditioner::chebyshev: return "chebyshev";
    case Preconditioner::ic0: return "ic0";
    case Preconditioner::ilu0: return "ilu0";
    case Preconditioner::amg: return "amg";
    case Preconditioner::block_jacobi: return "block_jacobi";
  }
  return "?";
}

const char* to_string(EigenEstimate estimate) {
  switch (estimate) {
    case EigenEstimate::lanczos: return "lanczos";
    case EigenEstimate::gershgorin: return "gershgorin";
  }
  return "?";
}

const char* to_string(AmgPrecision precision) {
  switch (precision) {
    case AmgPrecision::solver: return "solver";
    case AmgPrecision::single: return "single";
  }
  return "?";
}

const char* to_string(NearNullspace space) {
  switch (space) {
    case NearNullspace::constant: return "constant";
    case NearNullspace::rigid_body: return "rigid_body";
    case NearNullspace::vectors: return "vectors";
  }
  return "?";
}

const char* to_string(AmgResetup resetup) {
  switch (resetup) {
    case AmgResetup::full: return "full";
    case AmgResetup::galerkin: return "galerkin";
    case AmgResetup::rebuild: return "rebuild";
  }
  return "?";
}

const char* to_string(AmgSmoother smoother) {
  switch (smoother) {
    case AmgSmoother::chebyshev: return "chebyshev";
    case AmgSmoother::jacobi: return "jacobi";
  }
  return "?";
}

const char* to_string(Device device) {
  switch (device) {
    case Device::automatic: return "auto";
    case Device::gpu: return "gpu";
    case Device::cpu: return "cpu";
  }
  return "?";
}

}  // namespace spk
