#include "frontend/convergence_plot.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>

#include "core/printable_text.hpp"
#include "frontend/number_text.hpp"
#include "spkrylov/errors.hpp"

namespace spk::app {

namespace {

constexpr double panel_width = 460.0;
constexpr double panel_height = 320.0;
constexpr double margin_left = 70.0;
constexpr double margin_top = 50.0;
constexpr double panel_gap = 90.0;
constexpr double legend_row = 18.0;

const char* const palette[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                               "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};

std::string number(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.2f", value);
  return buffer;
}

std::string escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '&')
      out += "&amp;";
    else
      out += c;
  }
  return out;
}

struct Axis {
  double min = 0.0, max = 1.0;
  double step = 1.0;  // linear axes: distance between ticks; log axes: decades between labels
  bool log = false;
  double map(double value, double length) const {
    const double v = log ? std::log10(value) : value;
    return (v - min) / (max - min) * length;
  }
};

// The smallest of 1, 2, 5 x 10^k that splits [0, extent] into at most `intervals` steps.
double nice_step(double extent, int intervals) {
  const double raw = extent / intervals;
  const double decade = std::pow(10.0, std::floor(std::log10(raw)));
  for (const double multiple : {1.0, 2.0, 5.0, 10.0})
    if (multiple * decade >= raw * (1.0 - 1e-12)) return multiple * decade;
  return 10.0 * decade;
}

// A linear axis from 0 to a whole number of nice steps covering `extent`.
Axis linear_axis(double extent, int intervals) {
  Axis axis;
  axis.step = nice_step(extent > 0.0 ? extent : 1.0, intervals);
  axis.max = axis.step * std::ceil(extent / axis.step - 1e-9);
  if (axis.max <= 0.0) axis.max = axis.step;
  return axis;
}

// One panel: x = iteration or time, y = log10 residual.
void draw_panel(std::ostringstream& svg, double left, const std::string& x_label,
                const Axis& x_axis, const Axis& y_axis, const std::string& y_label,
                const std::vector<PlotSeries>& series, bool use_time, double time_scale) {
  const double top = margin_top;
  svg << "<rect x='" << number(left) << "' y='" << number(top) << "' width='" << panel_width
      << "' height='" << panel_height << "' fill='white' stroke='#444'/>\n";
  // y: a grid line every decade, a label every y_axis.step decades
  const int label_every = static_cast<int>(y_axis.step);
  for (int decade = static_cast<int>(std::ceil(y_axis.min));
       decade <= static_cast<int>(std::floor(y_axis.max)); ++decade) {
    const double y =
        top + panel_height - (decade - y_axis.min) / (y_axis.max - y_axis.min) * panel_height;
    svg << "<line x1='" << number(left) << "' x2='" << number(left + panel_width) << "' y1='"
        << number(y) << "' y2='" << number(y) << "' stroke='#e4e4e4'/>\n";
    if ((decade - static_cast<int>(y_axis.min)) % label_every == 0)
      svg << "<text x='" << number(left - 6) << "' y='" << number(y + 4)
          << "' text-anchor='end' font-size='11'>1e" << decade << "</text>\n";
  }
  // x: ticks at whole multiples of the nice step
  const int x_ticks = static_cast<int>(std::lround(x_axis.max / x_axis.step));
  for (int tick = 0; tick <= x_ticks; ++tick) {
    const double value = x_axis.step * tick;
    const double x = left + x_axis.map(value, panel_width);
    svg << "<line x1='" << number(x) << "' x2='" << number(x) << "' y1='" << number(top) << "' y2='"
        << number(top + panel_height) << "' stroke='#eee'/>\n";
    svg << "<text x='" << number(x) << "' y='" << number(top + panel_height + 16)
        << "' text-anchor='middle' font-size='11'>" << number_text("%g", value) << "</text>\n";
  }
  // the convergence target of each run: a dashed line (one per distinct target)
  std::vector<double> targets;
  for (const auto& line : series)
    if (line.target > 0.0 &&
        std::find(targets.begin(), targets.end(), line.target) == targets.end())
      targets.push_back(line.target);
  for (const double target : targets) {
    if (std::log10(target) < y_axis.min || std::log10(target) > y_axis.max) continue;
    const double y = top + panel_height - y_axis.map(target, panel_height);
    svg << "<line class='target' x1='" << number(left) << "' x2='" << number(left + panel_width)
        << "' y1='" << number(y) << "' y2='" << number(y)
        << "' stroke='#333' stroke-dasharray='6,4' stroke-width='1'/>\n";
    // At the left end: the curves start above the target there and reach it at the right.
    svg << "<text class='target-label' x='" << number(left + 4) << "' y='" << number(y - 4)
        << "' text-anchor='start' font-size='10' fill='#333'>target</text>\n";
  }
  svg << "<text x='" << number(left + panel_width / 2) << "' y='" << number(top + panel_height + 36)
      << "' text-anchor='middle' font-size='13'>" << x_label << "</text>\n";
  svg << "<text transform='translate(" << number(left - 48) << "," << number(top + panel_height / 2)
      << ") rotate(-90)' text-anchor='middle' font-size='13'>" << escape(y_label) << "</text>\n";
  for (std::size_t s = 0; s < series.size(); ++s) {
    std::ostringstream points;
    const auto& line = series[s];
    for (std::size_t k = 0; k < line.residual.size(); ++k) {
      const double r = line.residual[k];
      if (!(r > 0.0) || !std::isfinite(r)) continue;
      const double xv = use_time ? time_scale * line.elapsed_s[k] : static_cast<double>(k);
      const double x = left + x_axis.map(xv, panel_width);
      const double y = top + panel_height - y_axis.map(r, panel_height);
      points << number(x) << "," << number(y) << " ";
    }
    svg << "<polyline fill='none' stroke-width='1.6' stroke='" << palette[s % 10] << "' points='"
        << points.str() << "'/>\n";
  }
}

}  // namespace

std::string convergence_svg(const std::string& title, const std::string& residual_label,
                            const std::vector<PlotSeries>& series) {
  Axis residual;
  residual.log = true;
  double r_min = std::numeric_limits<double>::infinity(), r_max = 0.0, t_max = 0.0;
  std::size_t k_max = 1;
  for (const auto& line : series) {
    k_max = std::max(k_max, line.residual.size() > 0 ? line.residual.size() - 1 : 0);
    for (std::size_t k = 0; k < line.residual.size(); ++k) {
      const double r = line.residual[k];
      if (r > 0.0 && std::isfinite(r)) {
        r_min = std::min(r_min, r);
        r_max = std::max(r_max, r);
      }
      t_max = std::max(t_max, line.elapsed_s[k]);
    }
  }
  if (!(r_max > 0.0)) {
    r_min = 1e-10;
    r_max = 1.0;
  }
  for (const auto& line : series)
    if (line.target > 0.0) {
      r_min = std::min(r_min, line.target);
      r_max = std::max(r_max, line.target);
    }
  residual.min = std::floor(std::log10(r_min));
  residual.max = std::ceil(std::log10(r_max));
  if (residual.max <= residual.min) residual.max = residual.min + 1.0;
  // at most ~10 decade labels: residual histories can span 40 decades
  residual.step = std::max(1.0, std::ceil((residual.max - residual.min) / 10.0));
  const Axis iterations = linear_axis(static_cast<double>(std::max<std::size_t>(k_max, 1)), 6);
  // time in ms below 2 s: "0.0135 s" reads worse than "13.5 ms"
  const bool milliseconds = t_max < 2.0;
  const double time_scale = milliseconds ? 1e3 : 1.0;
  const Axis time = linear_axis(t_max > 0.0 ? time_scale * t_max : 1.0, 6);

  const double width = margin_left + 2 * panel_width + panel_gap + 30;
  const double legend_top = margin_top + panel_height + 60;
  const double height = legend_top + legend_row * static_cast<double>(series.size()) + 20;
  std::ostringstream svg;
  svg << "<svg xmlns='http://www.w3.org/2000/svg' width='" << number(width) << "' height='"
      << number(height) << "' font-family='sans-serif'>\n";
  svg << "<rect width='100%' height='100%' fill='#fafafa'/>\n";
  svg << "<text x='" << number(width / 2) << "' y='28' text-anchor='middle' font-size='16'>"
      << escape(title) << "</text>\n";
  draw_panel(svg, margin_left, "iteration", iterations, residual, residual_label, series, false,
             1.0);
  draw_panel(svg, margin_left + panel_width + panel_gap, milliseconds ? "time (ms)" : "time (s)",
             time, residual, residual_label, series, true, time_scale);
  for (std::size_t s = 0; s < series.size(); ++s) {
    const double y = legend_top + legend_row * static_cast<double>(s);
    svg << "<line x1='" << number(margin_left) << "' x2='" << number(margin_left + 28) << "' y1='"
        << number(y - 4) << "' y2='" << number(y - 4) << "' stroke-width='3' stroke='"
        << palette[s % 10] << "'/>\n";
    svg << "<text x='" << number(margin_left + 36) << "' y='" << number(y) << "' font-size='12'>"
        << escape(series[s].label) << "</text>\n";
  }
  svg << "</svg>\n";
  return svg.str();
}

void write_convergence_svg(const std::string& path, const std::string& title,
                           const std::string& residual_label,
                           const std::vector<PlotSeries>& series) {
  const std::string svg = convergence_svg(title, residual_label, series);
  std::ofstream file(path);
  if (!file) throw BadInput(shown_name(path) + ": cannot open the plot for writing");
  file << svg;
}

}  // namespace spk::app
