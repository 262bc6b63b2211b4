#pragma once
// The Galerkin coarse operator on the GPU (the device counterpart of
// solver/amg/galerkin_product.hpp): R = P^T as an explicit transpose (cusparseCsr2cscEx2,
// solver/amg/device_transpose.hpp) and A_c = R (A P) as two cuSPARSE SpGEMMs
// (solver/amg/device_sparse_product.hpp, with their memory fallbacks). The patterns of R, A P
// and A_c are found once and equal the host's (each product is structural, each row sorted);
// compute() refreshes the values for new values of A and P: the transpose again and each
// product's numeric phase (cusparseSpGEMMreuse_compute where the reuse API fitted). When both
// products ran as the row hash (device_row_hash_product.hpp), A P is freed after each use and
// found again by the next re-setup: between setups the product holds only R and A_c.
#include <string>

#include "solver/amg/device_sparse_product.hpp"
#include "solver/amg/device_transpose.hpp"

namespace spk {

class DeviceGalerkinProduct {
 public:
  // R and A_c for `a` (n x n) and `p` (n x m); coarse receives A_c (m x m), pattern and values.
  // a, p and coarse must stay where they are for compute(). first_attempt: as for
  // DeviceSparseProduct (tests).
  DeviceGalerkinProduct(const DeviceCsrMatrix<double>& a, const DeviceCsrMatrix<double>& p,
                        DeviceCsrMatrix<double>& coarse, const DeviceSetupContext& context,
                        int first_attempt = 0);

  // R's and A_c's values for new values of A and P.
  void compute(const DeviceCsrMatrix<double>& a, const DeviceCsrMatrix<double>& p,
               DeviceCsrMatrix<double>& coarse);

  const DeviceCsrMatrix<double>& restriction() const { return restriction_; }
  // The SpGEMM algorithms that ran, "A P: reuse, R (A P): reuse".
  std::string algorithms() const;

 private:
  void release_product();  // frees A P between re-setups where it can be found again

  DeviceCsrMatrix<double> restriction_;  // R = P^T
  DeviceCsrMatrix<double> product_ap_;   // A P
  DeviceTranspose transpose_;
  DeviceSparseProduct ap_, rap_;
};

}  // namespace spk
