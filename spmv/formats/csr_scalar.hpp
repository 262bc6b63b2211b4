#pragma once
// csr-scalar: CSR with one thread per row.
//
// Layout: plain CSR (DeviceCsr: row_offsets, columns, values), uploaded unchanged.
// Thread mapping: thread t of the grid computes row t on its own, walking the row's entries
// in order; an exact grid of ceil(rows / block_size) blocks. Neighbouring threads read
// addresses a whole row apart, so the loads do not coalesce: this is the naive kernel of
// Baskaran & Bordawekar (seeds/baskaran-bordawekar-optimizing-spmv-on-gpus.md, variant 1) and
// Bell & Garland's "CSR scalar", kept as the baseline the other formats are measured against.
// x is read through spmv.x_cache (none | ldg | texture).
#include <cuda_runtime.h>

#include <memory>

#include "spmv/host/csr_matrix.hpp"
#include "spmv/spmv_backend.hpp"

namespace spk {

template <class T>
std::unique_ptr<SpmvBackend<T>> make_csr_scalar(const CsrMatrix<T>& matrix,
                                                const SpmvOptions& options, cudaStream_t stream);

}  // namespace spk
