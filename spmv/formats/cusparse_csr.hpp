#pragma once
// cusparse: the vendor baseline, cusparseSpMV on the CSR matrix (DeviceCsr, uploaded
// unchanged) with 32-bit indices, y = alpha A x + beta y in host pointer mode (apply_scaled
// passes its alpha and beta through; apply is alpha = 1, beta = 0).
//
// spmv.cusparse_algorithm picks the algorithm: alg1 = CUSPARSE_SPMV_CSR_ALG1 (default of
// this project), alg2 = CUSPARSE_SPMV_CSR_ALG2, default = CUSPARSE_SPMV_ALG_DEFAULT.
// At setup the backend creates its own cuSPARSE handle bound to the backend's stream, the
// matrix and dense-vector descriptors, and calls cusparseSpMV_bufferSize and
// cusparseSpMV_preprocess once; the workspace is kept for the backend's lifetime. The
// preprocessing depends on the matrix only (not on x or y), so each apply() just points the
// cached x and y descriptors at the vectors it is given (cusparseDnVecSetValues) and calls
// cusparseSpMV with the same workspace. update_values() copies the new values and runs the
// preprocessing again. A matrix with no rows or no entries never reaches cuSPARSE (which
// rejects some empty shapes): apply() then only writes y = beta y (empty_product.hpp).
// spmv.x_cache does not apply.
#include <cuda_runtime.h>

#include <memory>
#include <string>

#include "spmv/host/csr_matrix.hpp"
#include "spmv/spmv_backend.hpp"

namespace spk {

template <class T>
std::unique_ptr<SpmvBackend<T>> make_cusparse_csr(const CsrMatrix<T>& matrix,
                                                  const SpmvOptions& options, cudaStream_t stream);

}  // namespace spk
