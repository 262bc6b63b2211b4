#include "spkrylov/options.hpp"

namespace spk {

const char* to_string(Method method) {
  switch (method) {
    case Method::cg: return "cg";
    case Method::bicgstab: return "bicgstab";
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

const char* to_string(Preconditioner preconditioner) {
  switch (preconditioner) {
    case Preconditioner::none: return "none";
    case Preconditioner::jacobi: return "jacobi";
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
