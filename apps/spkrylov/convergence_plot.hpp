#pragma once
// A self-contained SVG convergence plot, made by the program itself: residual vs iteration
// (left) and residual vs time (right), log-scale residual axis, one line per run, a dashed
// line at each run's target, a legend. Ticks are at 1/2/5 x 10^k steps.
#include <string>
#include <vector>

namespace spk::app {

struct PlotSeries {
  std::string label;
  std::vector<double> residual;   // per iteration
  std::vector<double> elapsed_s;  // same length
  double target = 0.0;            // the residual norm the run had to reach (0: none drawn)
};

void write_convergence_svg(const std::string& path, const std::string& title,
                           const std::vector<PlotSeries>& series);

}  // namespace spk::app
