#pragma once
// A^T of a device CSR matrix: the entries stably sorted by column (CUB's radix sort of the
// column indices, carrying each entry's position), so each row of A^T lists its columns (A's
// rows) in increasing order: the pattern of the host's transpose
// (solver/amg/sparse_product.hpp), and the same for every run. compute() (new values of A,
// same pattern) sorts again and gathers: the permutation is not kept (4 bytes an entry of P
// for the hierarchy's life, more than the 400^3 one-GPU setup can spare).
//
// Written here rather than with cusparseCsr2cscEx2: on a 32 x 34 prolongator (CUDA 13.0 on an
// H100) that call gave the last entry the row index 32, past the end, unless launches were
// blocking (tests/gpu/test_amg_device_galerkin.cpp keeps the matrix).
//
// Used by the GPU setup for R = P^T (solver/amg/device_galerkin_product.hpp and the
// distributed coarse product), for the transposed strong connections
// (solver/amg/device_strength.hpp) and for the members of each aggregate
// (solver/amg/device_tentative_prolongator.hpp).
#include "solver/amg/device_csr_matrix.hpp"

namespace spk {

class DeviceTranspose {
 public:
  // t = A^T (allocated here), asynchronous on the context's stream. A matrix without values
  // (a pattern) gives a pattern.
  DeviceTranspose(const DeviceCsrMatrix<double>& a, DeviceCsrMatrix<double>& t,
                  const DeviceSetupContext& context);

  // t's values for new values of A (same pattern, t as the constructor left it).
  void compute(const DeviceCsrMatrix<double>& a, DeviceCsrMatrix<double>& t);

 private:
  // t's values: t's entry j is A's entry source[j].
  void gather(const DeviceBuffer<index_t>& source, const DeviceCsrMatrix<double>& a,
              DeviceCsrMatrix<double>& t) const;

  const DeviceSetupContext& context_;
};

}  // namespace spk
