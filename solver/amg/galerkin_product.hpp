#pragma once
// The Galerkin coarse operator of a multigrid level: restriction R = P^T (explicit transpose)
// and A_c = R (A P), computed as two host sparse products (solver/amg/sparse_product.hpp).
// The patterns of R, A P and A_c are found once; compute() refreshes the values for new
// values of A and P (same patterns), the re-setup of update_values.
#include <string>
#include <vector>

#include "spmv/host/csr_matrix.hpp"

namespace spk {

class GalerkinProduct {
 public:
  // The patterns for `a` (n x n) and `p` (n x m); coarse receives A_c's pattern (m x m), and
  // every value is computed.
  GalerkinProduct(const CsrMatrix<double>& a, const CsrMatrix<double>& p,
                  CsrMatrix<double>& coarse);

  // R's and A_c's values for new values of A and P; coarse holds A_c's pattern.
  void compute(const CsrMatrix<double>& a, const CsrMatrix<double>& p, CsrMatrix<double>& coarse);

  const CsrMatrix<double>& restriction() const { return restriction_; }
  // How the products are computed (the report's sparse_products; the GPU's names its SpGEMM
  // algorithms).
  static std::string algorithms() { return "host (Gustavson, rows in parallel)"; }

 private:
  std::vector<index_t> transpose_source_;  // R's entry k is P's entry transpose_source_[k]
  CsrMatrix<double> restriction_;          // R = P^T
  CsrMatrix<double> product_ap_;           // A P
};

}  // namespace spk
