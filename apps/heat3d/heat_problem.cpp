#include "heat_problem.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace heat3d {

namespace {
constexpr double pi = 3.14159265358979323846;
}

HeatProblem::HeatProblem(int n, double dt, double period)
    : n_(n), h_(1.0 / (n + 1)), dt_(dt), period_(period) {
  if (n < 1 || n > 1000)
    throw std::invalid_argument("heat3d: n must be in 1..1000, got " + std::to_string(n));
  if (!(dt > 0.0)) throw std::invalid_argument("heat3d: dt must be positive");
  row_offsets_.reserve(static_cast<std::size_t>(rows()) + 1);
  row_offsets_.push_back(0);
  source_.assign(static_cast<std::size_t>(rows()), 0.0);
  for (int z = 0; z < n; ++z)
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x) {
        const int row = (z * n + y) * n + x;
        // neighbours in increasing column order: -z, -y, -x, self, +x, +y, +z
        if (z > 0) columns_.push_back(row - n * n);
        if (y > 0) columns_.push_back(row - n);
        if (x > 0) columns_.push_back(row - 1);
        columns_.push_back(row);
        if (x < n - 1) columns_.push_back(row + 1);
        if (y < n - 1) columns_.push_back(row + n);
        if (z < n - 1) columns_.push_back(row + n * n);
        row_offsets_.push_back(static_cast<int>(columns_.size()));
        const double cx = (x + 1) * h_ - 0.5, cy = (y + 1) * h_ - 0.5, cz = (z + 1) * h_ - 0.5;
        if (cx * cx + cy * cy + cz * cz < 0.04) source_[static_cast<std::size_t>(row)] = 100.0;
      }
}

double HeatProblem::conductivity(double x, double y, double z, double t) const {
  return 1.0 + 0.9 * std::sin(2.0 * pi * t / period_) * std::sin(pi * x) * std::sin(pi * y) *
                   std::sin(pi * z);
}

std::vector<double> HeatProblem::values_at(double t) const {
  std::vector<double> values(columns_.size());
  const double scale = dt_ / (h_ * h_);
  for (int z = 0; z < n_; ++z)
    for (int y = 0; y < n_; ++y)
      for (int x = 0; x < n_; ++x) {
        const int row = (z * n_ + y) * n_ + x;
        const double px = (x + 1) * h_, py = (y + 1) * h_, pz = (z + 1) * h_;
        double diagonal = 1.0;
        int k = row_offsets_[static_cast<std::size_t>(row)];
        int self = -1;
        // Faces toward every neighbour, boundary faces included (Dirichlet u = 0 there).
        const double face[6] = {
            conductivity(px, py, pz - h_ / 2, t), conductivity(px, py - h_ / 2, pz, t),
            conductivity(px - h_ / 2, py, pz, t), conductivity(px + h_ / 2, py, pz, t),
            conductivity(px, py + h_ / 2, pz, t), conductivity(px, py, pz + h_ / 2, t)};
        const bool inside[6] = {z > 0, y > 0, x > 0, x < n_ - 1, y < n_ - 1, z < n_ - 1};
        for (int f = 0; f < 6; ++f) {
          diagonal += scale * face[f];
          if (f == 3) self = k++;  // the diagonal sits between -x and +x
          if (inside[f]) values[static_cast<std::size_t>(k++)] = -scale * face[f];
        }
        values[static_cast<std::size_t>(self)] = diagonal;
      }
  return values;
}

std::vector<double> HeatProblem::right_hand_side(const std::vector<double>& u) const {
  std::vector<double> b(u.size());
  for (std::size_t i = 0; i < u.size(); ++i) b[i] = u[i] + dt_ * source_[i];
  return b;
}

}  // namespace heat3d
