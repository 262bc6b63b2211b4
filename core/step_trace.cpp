#include "core/step_trace.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace spk {

bool step_trace_enabled() {
  static const bool enabled = [] {
    const char* value = std::getenv("SPK_TRACE");
    return value != nullptr && std::strcmp(value, "1") == 0;
  }();
  return enabled;
}

void StepTrace::lap(const char* step) {
  if (!enabled_) return;
  if (settle_) settle_();
  const auto now = std::chrono::steady_clock::now();
  const double ms = std::chrono::duration<double, std::milli>(now - last_).count();
  std::fprintf(stderr, "spk trace: %s: %s %.3f ms\n", scope_.c_str(), step, ms);
  last_ = std::chrono::steady_clock::now();  // the print is not the next step's
}

void StepTrace::note(const char* step, double ms) const {
  if (enabled_) std::fprintf(stderr, "spk trace: %s: %s %.3f ms\n", scope_.c_str(), step, ms);
}

}  // namespace spk
