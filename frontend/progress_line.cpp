#include "frontend/progress_line.hpp"

#include <unistd.h>

#include <cstdio>

namespace spk::app {

ProgressLine::ProgressLine(bool enabled) : enabled_(enabled && isatty(STDERR_FILENO) == 1) {}

ProgressLine::~ProgressLine() {
  clear();
}

ProgressCallback ProgressLine::callback() {
  if (!enabled_) return {};
  return [this](const Progress& progress) {
    if (progress.elapsed_s < 1.0 || progress.elapsed_s - last_print_s_ < 0.2) return;
    last_print_s_ = progress.elapsed_s;
    std::fprintf(stderr, "\r  iteration %d  residual %.3e (target %.3e)  %.0f it/s   ",
                 progress.iteration, progress.residual, progress.threshold,
                 progress.iteration / progress.elapsed_s);
    std::fflush(stderr);
    shown_ = true;
  };
}

void ProgressLine::clear() {
  if (!shown_) return;
  std::fprintf(stderr, "\r%80s\r", "");
  std::fflush(stderr);
  shown_ = false;
}

}  // namespace spk::app
