#pragma once
// `ellpack`: plain ELLPACK/ITPACK on the GPU (Bell & Garland's ELL; reviewed in the
// ELLPACK-R paper, seed /work/shared/seeds/ellpack-r.txt, section 3).
//
// Layout: ellpack_layout.hpp. Every row is padded to the longest row; values and column
// indices are column-major with a pitch aligned to 32 elements; padding slots hold column -1
// and value 0. Conversion refuses (BadInput, giving the fill ratio and suggesting hyb or
// ellpack-r) when rows * width > spmv.max_ell_fill * nnz and rows * width > 1e5 slots, and
// when the padded arrays would not fit the device memory.
//
// Thread mapping: one thread per row, all `width` slots read, padding skipped by its -1
// column (ell_kernels.cuh). x is read through spmv.x_cache (x_access.cuh).
//
// bytes_per_spmv = rows * width * (sizeof(T) + 4)   every slot's value and column, padding
//                                                   included (the pitch rows past `rows` are
//                                                   never read)
//                + cols * sizeof(T) + rows * sizeof(T)   x read once, y written once.
// device_bytes   = pitch * width * (sizeof(T) + 4).
#include <cuda_runtime.h>

#include <memory>

#include "spkrylov/options.hpp"
#include "spmv/host/csr_matrix.hpp"
#include "spmv/spmv_backend.hpp"

namespace spk {

// Throws BadInput (fill or size refusal, bad spmv.block_size / spmv.max_ell_fill, texture
// limits), NoDevice, CudaError/OutOfDeviceMemory.
template <class T>
std::unique_ptr<SpmvBackend<T>> make_ellpack(const CsrMatrix<T>& matrix, const SpmvOptions& options,
                                             cudaStream_t stream);

}  // namespace spk
