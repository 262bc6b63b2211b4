#pragma once
// The smoothed prolongator of smoothed aggregation (Vanek, Mandel & Brezina 1996, eq. (3.5)):
// one damped-Jacobi step applied to the tentative prolongator T,
//   P = (I - (omega / lambda) D^-1 A) T,
// with omega = AmgOptions::prolongator_weight (4/3) and lambda = lambda_max(D^-1 A), so that
// the step damps the high end of D^-1 A's spectrum. omega = 0 gives P = T (unsmoothed
// aggregation). The pattern of P is that of A T (T's own entries are in it: a_ii is stored,
// solver/amg/hierarchy.cpp checks it), found once; compute() refreshes the values, row by row
// with the rule the GPU's version (solver/amg/device_smoothed_prolongator.hpp) uses too
// (solver/amg/prolongator_rules.hpp).
#include <vector>

#include "spmv/host/csr_matrix.hpp"

namespace spk {

class SmoothedProlongator {
 public:
  // The pattern of P for `a` (square, every a_ii stored) and `tentative`.
  SmoothedProlongator(const CsrMatrix<double>& a, CsrMatrix<double> tentative, double weight);

  // P's values for A's values (same pattern), D^-1 and lambda_max(D^-1 A) > 0.
  void compute(const CsrMatrix<double>& a, const std::vector<double>& inverse_diagonal,
               double lambda_max);

  const CsrMatrix<double>& matrix() const { return weight_ == 0.0 ? tentative_ : prolongator_; }
  const CsrMatrix<double>& tentative() const { return tentative_; }

 private:
  CsrMatrix<double> tentative_;
  double weight_;
  CsrMatrix<double> prolongator_;            // pattern of A T (empty when weight_ == 0)
  std::vector<index_t> tentative_position_;  // per entry of T: where it sits in P
};

}  // namespace spk
