#pragma once
// The heat equation u_t = div(k(x, t) grad u) + f on the unit cube, u = 0 on the boundary,
// discretized with the 7-point finite-volume stencil on an n^3 grid of interior points and
// implicit Euler in time:
//
//   (I + dt A(t_{m+1})) u_{m+1} = u_m + dt f,    (A u)_i = sum_faces k_face (u_i - u_j) / h^2
//
// The conductivity changes with time, so the matrix values change every step while the
// sparsity pattern does not: the case Solver::update_values is for. k at a face is
// evaluated at the face midpoint:  k(x, y, z, t) = 1 + 0.9 sin(2 pi t / period) sin(pi x)
// sin(pi y) sin(pi z), always >= 0.1, so the matrix is SPD and diagonally dominant.
#include <vector>

namespace heat3d {

class HeatProblem {
 public:
  HeatProblem(int n, double dt, double period);

  int rows() const { return n_ * n_ * n_; }
  // The fixed CSR pattern (0-based, sorted columns).
  const std::vector<int>& row_offsets() const { return row_offsets_; }
  const std::vector<int>& columns() const { return columns_; }
  // The values of I + dt A(t), in the pattern's order.
  std::vector<double> values_at(double t) const;
  // u_m + dt f: a heat source in the middle of the cube.
  std::vector<double> right_hand_side(const std::vector<double>& u) const;

 private:
  double conductivity(double x, double y, double z, double t) const;

  int n_;
  double h_;
  double dt_;
  double period_;
  std::vector<int> row_offsets_;
  std::vector<int> columns_;
  std::vector<double> source_;
};

}  // namespace heat3d
