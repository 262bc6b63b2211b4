#pragma once
// The smoothed-aggregation hierarchy, built on the host in double precision (Vanek, Mandel &
// Brezina, Computing 56, 1996; the defaults of PyAMG's smoothed_aggregation_solver). Per
// level l, from A_0 = A:
//   1. D_l^-1 (a missing, zero or non-finite a_ii is an error naming the row);
//   2. stop here when rows(A_l) <= max_coarse_rows or l + 1 == max_levels: the coarsest level;
//   3. S_l: the strength graph (solver/amg/strength.hpp);
//   4. aggregates of S_l by MIS(2) (solver/amg/aggregation.hpp); stop here when they keep
//      more than 90% of the rows (coarsening stalled);
//   5. lambda_l ~ lambda_max(D_l^-1 A_l) (solver/eigen_estimate.hpp, as the Chebyshev
//      preconditioner estimates it: AmgOptions::chebyshev), for P and the smoother;
//   6. T_l from the aggregates and the near-null-space vector B_l (B_0 = ones, B_{l+1} the
//      coarse vector T_l gives; solver/amg/tentative_prolongator.hpp),
//      P_l = (I - omega/lambda_l D_l^-1 A_l) T_l;
//   7. R_l = P_l^T, A_{l+1} = R_l A_l P_l (solver/amg/galerkin_product.hpp).
// The coarsest level is factored (solver/amg/dense_lu.hpp) and inverted.
//
// update_values() keeps the aggregates, T and every pattern and recomputes the numbers: D^-1,
// lambda, P, R, A_{l+1}, the coarsest factorization (AmgX's resetup with all structure
// reused; PETSc GAMG's reuse_interpolation keeps P too, here P follows the new values).
//
// Everything here runs on the host, also for the GPU solver (which downloads the fine values
// and uploads the levels): building the hierarchy on the GPU (aggregation rounds, SpGEMM with
// cuSPARSE's reuse API) is not done yet.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "solver/amg/aggregation.hpp"
#include "solver/amg/galerkin_product.hpp"
#include "solver/amg/smoothed_prolongator.hpp"
#include "solver/eigen_estimate.hpp"
#include "spkrylov/options.hpp"
#include "spmv/host/csr_matrix.hpp"

namespace spk {

struct AmgLevel {
  CsrMatrix<double> matrix;              // A_l
  std::vector<double> inverse_diagonal;  // D_l^-1
  std::vector<double> candidates;        // B_l, the near-null-space vector (B_0 = ones)
  // Levels above the coarsest only:
  EigenBound bound;  // lambda_max(D_l^-1 A_l) before any safety factor
  Aggregates aggregates;
  std::unique_ptr<SmoothedProlongator> prolongator;  // T_l and P_l
  std::unique_ptr<GalerkinProduct> galerkin;         // R_l (and A_{l+1}, stored in level l+1)

  const CsrMatrix<double>& prolongation() const { return prolongator->matrix(); }
  const CsrMatrix<double>& restriction() const { return galerkin->restriction(); }
};

using PhaseTimes = std::vector<std::pair<std::string, double>>;  // (phase, seconds)

class AmgHierarchy {
 public:
  // Builds the hierarchy of `fine` (square). Throws BadDiagonal for a bad a_ii of A (naming
  // the row), BadInput for other unusable input (a singular coarsest matrix, a coarsest level
  // too large for the dense solve).
  AmgHierarchy(CsrMatrix<double> fine, const AmgOptions& options);

  // New values of A (CSR order, same pattern): the numbers of every level again.
  void update_values(const std::vector<double>& fine_values);

  std::size_t size() const { return levels_.size(); }
  const AmgLevel& level(std::size_t index) const { return levels_[index]; }
  const AmgLevel& coarsest() const { return levels_.back(); }
  // A_coarsest^-1, dense, stored as CSR.
  const CsrMatrix<double>& coarse_inverse() const { return coarse_inverse_; }
  double coarse_pivot_ratio() const { return coarse_pivot_ratio_; }
  // Why the coarsening stopped: "max_coarse_rows", "max_levels" or "coarsening stalled".
  const std::string& stop_reason() const { return stop_reason_; }
  // sum nnz(A_l) / nnz(A_0) and sum rows(A_l) / rows(A_0).
  double operator_complexity() const;
  double grid_complexity() const;
  // Seconds per phase of the constructor and of the last update_values.
  const PhaseTimes& setup_phases() const { return setup_phases_; }
  const PhaseTimes& update_phases() const { return update_phases_; }

  // Largest coarsest level the dense solve accepts: max(max_coarse_rows, 2000).
  static index_t dense_row_limit(const AmgOptions& options);

 private:
  void compute_coarse_inverse(PhaseTimes& phases);

  AmgOptions options_;
  std::vector<AmgLevel> levels_;
  CsrMatrix<double> coarse_inverse_;
  double coarse_pivot_ratio_ = 0.0;
  std::string stop_reason_;
  PhaseTimes setup_phases_, update_phases_;
};

}  // namespace spk
