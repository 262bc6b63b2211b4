#pragma once
// StepTrace: the wall time of each step of a long stretch of host code (a distributed AMG
// level's Galerkin product, the setup's warm-up), printed on stderr when the environment sets
// SPK_TRACE=1, for finding where a setup's time goes on machines without Nsight Systems. Off
// (the default), a lap costs one branch: nothing is timed, synchronized or printed.
//
//   StepTrace trace("amg galerkin level 0 (rank 2)", [&] { setup.synchronize(); });
//   ... trace.lap("ghost rows of P"); ... trace.lap("A B");
//
// Each lap first runs `settle` (waits for the device's work, so that a step's asynchronous
// kernels count in it) and then prints one line:
//   spk trace: amg galerkin level 0 (rank 2): A B 45.210 ms
#include <chrono>
#include <functional>
#include <string>
#include <utility>

namespace spk {

bool step_trace_enabled();  // SPK_TRACE=1 (read once)

class StepTrace {
 public:
  StepTrace(std::string scope, std::function<void()> settle)
      : enabled_(step_trace_enabled()), scope_(std::move(scope)), settle_(std::move(settle)) {
    if (enabled_) last_ = std::chrono::steady_clock::now();
  }
  // A trace whose scope text is made only when tracing is on (scope() returns it); off, an
  // empty trace whose laps do nothing.
  template <class Scope>
  static StepTrace when_enabled(Scope&& scope, std::function<void()> settle = {}) {
    if (!step_trace_enabled()) return StepTrace({}, {});
    return StepTrace(scope(), std::move(settle));
  }

  void lap(const char* step);
  // One line for a time measured elsewhere (a thread's work), in the laps' form; the laps'
  // clock goes on.
  void note(const char* step, double ms) const;
  bool enabled() const { return enabled_; }

 private:
  bool enabled_;
  std::string scope_;
  std::function<void()> settle_;
  std::chrono::steady_clock::time_point last_;
};

}  // namespace spk
