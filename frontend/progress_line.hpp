#pragma once
// A live one-line progress display on a terminal: iteration, residual, iterations/s.
// Silent when stderr is not a terminal, with --quiet, and for solves shorter than ~1 s.
#include "spkrylov/result.hpp"

namespace spk::app {

class ProgressLine {
 public:
  explicit ProgressLine(bool enabled);
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  ProgressCallback callback();
  void clear();

 private:
  bool enabled_;
  bool shown_ = false;
  double last_print_s_ = 0.0;
};

}  // namespace spk::app
