#pragma once
// A self-contained SVG convergence plot, made by the program itself: residual vs iteration
// (left) and residual vs time (right), log-scale residual axis, one line per run, a dashed
// line at each run's target (labelled at the left end, clear of the curves' ends), a
// legend. Ticks are at 1/2/5 x 10^k steps. The caller chooses what the residual axis shows
// (output.plot_residual: ||r|| / ||b|| or ||r||) and scales the series to it.
#include <string>
#include <vector>

namespace spk::app {

struct PlotSeries {
  std::string label;
  std::vector<double> residual;   // per iteration, in the units of the residual axis
  std::vector<double> elapsed_s;  // same length
  double target = 0.0;            // the residual the run had to reach (0: none drawn)
};

// `residual_label` names the residual axis, e.g. "recursive residual ||r|| / ||b||".
std::string convergence_svg(const std::string& title, const std::string& residual_label,
                            const std::vector<PlotSeries>& series);
// The same, written to `path` (BadInput when it cannot be).
void write_convergence_svg(const std::string& path, const std::string& title,
                           const std::string& residual_label,
                           const std::vector<PlotSeries>& series);

}  // namespace spk::app
