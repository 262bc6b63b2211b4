#pragma once
// csr-vector (also registered as "csr"): CSR with a sub-warp of 2, 4, 8, 16 or 32 threads per
// row, reduced with warp shuffles.
//
// Layout: plain CSR (DeviceCsr: row_offsets, columns, values), uploaded unchanged.
// Thread mapping: lanes [g*w, g*w + w) of a warp (w = threads per row) compute one row: lane
// j reads entries j, j+w, j+2w, ... of the row, so a sub-warp reads a contiguous run of
// values and column indices (coalesced), several runs in flight per lane (unrolled by 4);
// the w partial sums are reduced with __shfl_down_sync over the sub-warp and its first lane
// writes y. With w = 32 and a row longer than 32 entries the walk starts at the row's first
// entry rounded down to a multiple of 32 (lanes before the row start sit out the first step),
// so every later warp load is 128-byte aligned (CUSP's aligned start).
// Grid: exact, ceil(rows * w / block_size) blocks, one sub-warp per row and no grid-stride
// loop: each block does a fixed amount of work and the hardware block scheduler balances rows
// of unequal length, which Baskaran & Bordawekar found better than a fixed grid with a loop.
// w comes from spmv.threads_per_row or from the mean row length (csr_launch_policy.hpp) and is
// reported in details(). x is read through spmv.x_cache (none | ldg | texture).
// Long rows: a row of more than 32 w entries is left out by the row kernel and computed by
// two more kernels (only launched when such rows exist): whole warps compute chunks of 1024
// entries of it into partial sums, then one warp per long row adds its partials in a fixed
// order and writes y (csr_long_rows.hpp). A power-law row of 10^5 entries thus spreads over
// ~100 warps instead of holding one sub-warp for the whole kernel. The number of long rows
// and chunks is reported in details().
// Byte model: the CSR model (device_csr.hpp) plus, with long rows, the split's index arrays
// (read once) and the partial sums (written once, read once).
//
// Sources: Bell & Garland, "Efficient sparse matrix-vector multiplication on CUDA" (NVIDIA
// NVR-2008-004), CSR-vector kernel; the sub-warp width choice follows seeds/
// autotuning-spmv-cuda-parameters.txt (16 or 32 threads per row) extended to 2..32.
#include <cuda_runtime.h>

#include <memory>

#include "spmv/host/csr_matrix.hpp"
#include "spmv/spmv_backend.hpp"

namespace spk {

template <class T>
std::unique_ptr<SpmvBackend<T>> make_csr_vector(const CsrMatrix<T>& matrix,
                                                const SpmvOptions& options, cudaStream_t stream);

}  // namespace spk
