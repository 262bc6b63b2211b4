#pragma once
// A^T of a device CSR matrix with cuSPARSE (cusparseCsr2cscEx2, CUSPARSE_CSR2CSC_ALG1): the
// CSC arrays of A are the CSR arrays of A^T. The conversion is a stable sort of the entries by
// column, so each row of A^T lists its columns (A's rows) in increasing order: the pattern of
// the host's transpose (solver/amg/sparse_product.hpp), and the same for every run.
//
// Used by the GPU setup for R = P^T (solver/amg/device_galerkin_product.hpp), for the
// transposed strong connections (solver/amg/device_strength.hpp) and for the members of each
// aggregate (solver/amg/device_tentative_prolongator.hpp). The constructor finds the pattern
// and the values; compute() refreshes the values for new values of A (the same conversion,
// with the workspace kept).
#include "solver/amg/device_csr_matrix.hpp"

namespace spk {

class DeviceTranspose {
 public:
  // t = A^T (allocated here), asynchronous on the context's stream.
  DeviceTranspose(const DeviceCsrMatrix<double>& a, DeviceCsrMatrix<double>& t,
                  const DeviceSetupContext& context);

  // t's values for new values of A (same pattern, t as the constructor left it).
  void compute(const DeviceCsrMatrix<double>& a, DeviceCsrMatrix<double>& t);

 private:
  const DeviceSetupContext& context_;
  DeviceBuffer<unsigned char> workspace_;
};

}  // namespace spk
