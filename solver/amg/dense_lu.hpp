#pragma once
// The coarsest level's direct solve: LU factorization with partial pivoting, P A = L U
// (Golub & Van Loan, "Matrix Computations", 4th ed., Algorithm 3.4.1), of the small Galerkin
// matrix stored dense, and its explicit inverse U^-1 L^-1 P, which the V-cycle applies as one
// matrix-vector product (solver/amg/amg_preconditioner.hpp says why).
//
// A pivot with |u_kk| <= max(n, 100) * eps * max_ij |a_ij| means A is singular to working
// precision; the factorization then throws BadInput instead of producing a solve with
// Inf/NaN or huge entries. This is where a singular A ends, e.g. a pure-Neumann Laplacian
// (constants in its null space; SA keeps them on every level, since B = ones): PyAMG's
// default coarse solver, a pseudo-inverse, would return the minimum-norm solution there; a
// dense SVD for it is not written here.
#include <string>
#include <vector>

#include "spmv/host/csr_matrix.hpp"

namespace spk {

class DenseLu {
 public:
  // Factors the square matrix `a`; `where` names it in errors ("amg coarsest level 3").
  DenseLu(const CsrMatrix<double>& a, const std::string& where);

  // x = A^-1 b.
  std::vector<double> solve(const std::vector<double>& b) const;
  // A^-1 as a dense n x n CSR matrix (every entry stored).
  CsrMatrix<double> inverse() const;
  // min_k |u_kk| / max_ij |a_ij|: how close A came to the singularity test.
  double smallest_pivot_ratio() const { return smallest_pivot_ratio_; }

 private:
  // Columns [begin, end) of the n x width row-major Y become U^-1 L^-1 Y.
  void substitute(double* y, std::size_t width, std::size_t begin, std::size_t end) const;

  index_t n_ = 0;
  std::vector<double> lu_;            // row-major; L below the diagonal (unit), U on and above
  std::vector<index_t> permutation_;  // row k of P A is row permutation_[k] of A
  double smallest_pivot_ratio_ = 0.0;
};

}  // namespace spk
