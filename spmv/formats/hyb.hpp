#pragma once
// `hyb`: ELLPACK + COO (Bell & Garland's hybrid; reviewed as "HYB [13]" in the ELLPACK-R
// paper, seed /work/shared/seeds/ellpack-r.txt).
//
// Layout: hyb_layout.hpp. The first K entries of every row in a column-major, pitch-aligned
// ELL array (-1 padding); the overflow as row-sorted COO triples. K is spmv.hyb_width when
// >= 0, otherwise the documented cost rule over the row-length histogram (hyb_layout.hpp),
// which keeps small regular matrices entirely in ELL. The ELL part must fit the device
// memory (BadInput otherwise).
//
// Thread mapping: the ELL kernel (one thread per row, ell_kernels.cuh) writes y[i] for every
// row; then, on the same stream, the COO kernel (one warp per 256 triples, segmented warp
// reduction, one atomicAdd per row segment; coo_kernel.cuh) adds the overflow. The atomics
// make the float result of rows split across chunks nondeterministic in the last bits.
//
// bytes_per_spmv = rows * K * (sizeof(T) + 4)          ELL slots, padding included
//                + coo_entries * (sizeof(T) + 8)       COO triples
//                + cols * sizeof(T) + rows * sizeof(T) x read once, y written once
//                + coo_rows * 2 * sizeof(T)            y re-read and re-written by the COO
//                                                      atomics, once per overflowing row.
// device_bytes   = pitch * K * (sizeof(T) + 4) + coo_entries * (sizeof(T) + 8).
#include <cuda_runtime.h>

#include <memory>

#include "spkrylov/options.hpp"
#include "spmv/host/csr_matrix.hpp"
#include "spmv/spmv_backend.hpp"

namespace spk {

template <class T>
std::unique_ptr<SpmvBackend<T>> make_hyb(const CsrMatrix<T>& matrix, const SpmvOptions& options,
                                         cudaStream_t stream);

}  // namespace spk
