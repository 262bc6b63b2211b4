#include "solver/amg/device_galerkin_product.hpp"

namespace spk {

DeviceGalerkinProduct::DeviceGalerkinProduct(const DeviceCsrMatrix<double>& a,
                                             const DeviceCsrMatrix<double>& p,
                                             DeviceCsrMatrix<double>& coarse,
                                             const DeviceSetupContext& context, int first_attempt)
    : transpose_(p, restriction_, context),                              // R = P^T
      ap_(a, p, product_ap_, context, first_attempt),                    // A P
      rap_(restriction_, product_ap_, coarse, context, first_attempt) {  // A_c = R (A P)
  release_product();
}

void DeviceGalerkinProduct::release_product() {
  // A P is needed again only by a re-setup, which can find it again when neither product
  // keeps a plan on its arrays (the row hash): then it holds no memory between setups.
  if (!rap_.holds_arrays()) ap_.release(product_ap_);
}

void DeviceGalerkinProduct::compute(const DeviceCsrMatrix<double>& a,
                                    const DeviceCsrMatrix<double>& p,
                                    DeviceCsrMatrix<double>& coarse) {
  transpose_.compute(p, restriction_);              // R = P^T
  ap_.compute(a, p, product_ap_);                   // A P
  rap_.compute(restriction_, product_ap_, coarse);  // A_c = R (A P)
  release_product();
}

std::string DeviceGalerkinProduct::algorithms() const {
  return "A P: " + ap_.algorithm() + ", R (A P): " + rap_.algorithm();
}

}  // namespace spk
