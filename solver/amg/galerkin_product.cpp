#include "solver/amg/galerkin_product.hpp"

#include "solver/amg/sparse_product.hpp"

namespace spk {

GalerkinProduct::GalerkinProduct(const CsrMatrix<double>& a, const CsrMatrix<double>& p,
                                 CsrMatrix<double>& coarse)
    : restriction_(transpose(p, &transpose_source_)), product_ap_(product_pattern(a, p)) {
  coarse = product_pattern(restriction_, product_ap_);
  compute(a, p, coarse);
}

void GalerkinProduct::compute(const CsrMatrix<double>& a, const CsrMatrix<double>& p,
                              CsrMatrix<double>& coarse) {
  transpose_values(p, transpose_source_, restriction_);  // R = P^T
  product_values(a, p, product_ap_);                     // A P
  product_values(restriction_, product_ap_, coarse);     // A_c = R (A P)
}

}  // namespace spk
