#include "solver/amg/device_galerkin_product.hpp"

namespace spk {

DeviceGalerkinProduct::DeviceGalerkinProduct(const DeviceCsrMatrix<double>& a,
                                             const DeviceCsrMatrix<double>& p,
                                             DeviceCsrMatrix<double>& coarse,
                                             const DeviceSetupContext& context, int first_attempt)
    : transpose_(p, restriction_, context),                               // R = P^T
      ap_(a, p, product_ap_, context, first_attempt),                     // A P
      rap_(restriction_, product_ap_, coarse, context, first_attempt) {}  // A_c = R (A P)

void DeviceGalerkinProduct::compute(const DeviceCsrMatrix<double>& a,
                                    const DeviceCsrMatrix<double>& p,
                                    DeviceCsrMatrix<double>& coarse) {
  transpose_.compute(p, restriction_);              // R = P^T
  ap_.compute(a, p, product_ap_);                   // A P
  rap_.compute(restriction_, product_ap_, coarse);  // A_c = R (A P)
}

std::string DeviceGalerkinProduct::algorithms() const {
  return "A P: " + ap_.algorithm() + ", R (A P): " + rap_.algorithm();
}

}  // namespace spk
