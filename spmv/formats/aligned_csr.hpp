#pragma once
// aligned-csr: Baskaran & Bordawekar's CSR kernel with "optimized thread mapping" (a sub-warp
// of g threads per row, g = 16 by default, 2..32 by spmv.threads_per_row) and "aligned global
// memory access" by padding (their solution 2).
// Source: M. M. Baskaran, R. Bordawekar, "Optimizing Sparse Matrix-Vector Multiplication on
// GPUs" (seeds/baskaran-bordawekar-optimizing-spmv-on-gpus.md; notes/seeds-baskaran-and-
// autotuning.md, section 1.1, variants 3-5).
//
// Layout (AlignedCsrLayout, aligned_csr_layout.hpp): CSR whose rows are zero-padded to start
// on a multiple of g entries and to be a multiple of g entries long. cudaMalloc returns
// 256-byte aligned arrays, so every sub-warp load of g values or g column indices is aligned to
// g * sizeof(element) bytes and touches the fewest 32-byte sectors possible. Aligning rows to
// 128-byte segments instead was considered and not done: since Fermi, DRAM and L2 move 32-byte
// sectors, so 128-byte alignment of a 64-byte half-warp load only adds padding (up to 31
// entries per row for float) and saves no sector. The padding overhead (padded entries / nnz -
// 1) is reported in details().
//
// Thread mapping: lanes [j*g, j*g + g) of a warp compute one row; lane l reads entries
// l, l+g, l+2g, ... of the padded row. Every lane of the sub-warp makes the same number of
// steps (padded length / g): no bounds check and no divergence inside a row; loads are
// unrolled by 4 so several are in flight. The g partial sums are reduced with
// __shfl_down_sync (the paper used a shared-memory reduction) and the first lane writes y.
// Grid: exact, ceil(rows * g / block_size) blocks and no grid-stride loop, as in the paper
// (which measured a fixed grid with a loop over rows to be slower). x is read through
// spmv.x_cache; texture is the paper's texture-cached input vector.
#include <cuda_runtime.h>

#include <memory>

#include "spmv/host/csr_matrix.hpp"
#include "spmv/spmv_backend.hpp"

namespace spk {

template <class T>
std::unique_ptr<SpmvBackend<T>> make_aligned_csr(const CsrMatrix<T>& matrix,
                                                 const SpmvOptions& options, cudaStream_t stream);

}  // namespace spk
