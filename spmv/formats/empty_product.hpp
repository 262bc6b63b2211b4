#pragma once
// write_empty_product: apply_scaled for a matrix without entries, where A x = 0 and so
// y = beta y. beta == 0 clears y with cudaMemsetAsync (y is never read); otherwise a small
// kernel scales y in place. x is never read (it may be empty). Asynchronous on `stream`.
// Used by every backend, hand-written or cuSPARSE (which rejects some empty shapes).
#include <cuda_runtime.h>

#include "spmv/host/csr_matrix.hpp"

namespace spk {

template <class T>
void write_empty_product(T* y, index_t rows, T beta, cudaStream_t stream);

}  // namespace spk
