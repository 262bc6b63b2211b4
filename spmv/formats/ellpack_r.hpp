#pragma once
// `ellpack-r`: ELLPACK-R (Vázquez, Fernández, Garzón et al., Concurrency Computat.: Pract.
// Exper. 2010; seed /work/shared/seeds/ellpack-r.txt, notes
// /work/shared/notes/seeds-ellpack-r-and-csr-report.md).
//
// Layout: ellpack_r_layout.hpp. The ELLPACK arrays (column-major, pitch aligned to 32
// elements, padded to the longest row with column -1 / value 0) plus rl[], the length of each
// row. Storage guard: no fill-ratio refusal (the kernel never reads padding, so
// spmv.max_ell_fill does not apply); the padded arrays must fit the device memory (BadInput
// before conversion), and a failing allocation throws OutOfDeviceMemory. details() reports the
// fill ratio so a wasteful layout is visible.
//
// Thread mapping: one thread per row; thread i reads rl[i] and walks slots 0 .. rl[i]-1 only
// (no branch per slot, no padding traffic); a warp takes as long as its longest row
// (ell_kernels.cuh). x is read through spmv.x_cache (x_access.cuh).
//
// bytes_per_spmv = nnz * (sizeof(T) + 4)   values and columns actually read (padding is not)
//                + rows * 4                rl[]
//                + cols * sizeof(T) + rows * sizeof(T)   x read once, y written once.
// device_bytes   = pitch * width * (sizeof(T) + 4) + rows * 4.
#include <cuda_runtime.h>

#include <memory>

#include "spkrylov/options.hpp"
#include "spmv/host/csr_matrix.hpp"
#include "spmv/spmv_backend.hpp"

namespace spk {

template <class T>
std::unique_ptr<SpmvBackend<T>> make_ellpack_r(const CsrMatrix<T>& matrix,
                                               const SpmvOptions& options, cudaStream_t stream);

}  // namespace spk
