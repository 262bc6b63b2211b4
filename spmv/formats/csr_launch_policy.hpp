#pragma once
// Launch shapes of the CSR-family kernels (csr-scalar, csr-vector, aligned-csr), chosen and
// validated on the host once, at setup.
//
// Threads per row. The kernels are compiled for 2, 4, 8, 16 and 32 threads per row (a
// sub-warp of consecutive lanes per row, never wider than a warp) and one of them is picked at
// runtime by a switch, so every kernel has a compile-time loop stride.
//
//   csr-vector   spmv.threads_per_row, or when it is 0 the rule below.
//                Rule: the smallest power of two >= mean row length / e, clamped to [2, 16]
//                (rows == 0 gives 2), with e = 4 entries per lane for float and 3 for double:
//                each lane gets about one unrolled step of loads of a typical row, and the
//                sub-warp stays narrow enough that few lanes idle and the shuffle reduction
//                stays short. Rows much longer than the mean go to the long-row path
//                (csr_long_rows.hpp), so the width need not grow with the longest row.
//                Measured on an H100 for every width 2..32: the rule picks the best width, or
//                one within 7% of it, on 2-D/3-D Poisson (mean 5, 7, 27), elasticity3d (mean
//                78) and power-law matrices (mean 8 and 30), in float and double; Bell &
//                Garland's "smallest power of two >= the mean" was up to 2x slower on the
//                stencils (8 lanes for 5 entries).
//   aligned-csr  spmv.threads_per_row, or when it is 0 16 (a half-warp), the choice of
//                Baskaran & Bordawekar, who found 16 better than 32 and 64 on every matrix.
//
// Block size: spmv.block_size threads per block, checked by checked_block_size
// (spmv/formats/block_size.hpp): whole warps (the kernels reduce with warp shuffles and assume
// full warps), at most 1024 (the hardware limit and the kernels' __launch_bounds__).
#include <cstddef>
#include <cstdint>
#include <string>

#include "spmv/host/csr_matrix.hpp"

namespace spk {

inline constexpr int kAlignedCsrDefaultThreadsPerRow = 16;

// Throws BadInput unless threads_per_row is 2, 4, 8, 16 or 32.
void check_threads_per_row(int threads_per_row, const std::string& format);

// csr-vector: `requested` when it is not 0 (validated), else the mean-row-length rule above
// for values of `value_bytes` bytes (4: float, 8: double).
int csr_vector_threads_per_row(index_t rows, std::int64_t nnz, int requested,
                               std::size_t value_bytes);

// aligned-csr: `requested` when it is not 0 (validated), else 16.
int aligned_csr_threads_per_row(int requested);

// Number of blocks giving each row `threads_per_row` threads, `block_size` threads a block
// (64-bit product; the result always fits a grid's x dimension for 32-bit row counts).
unsigned int csr_grid_blocks(index_t rows, int threads_per_row, int block_size);

}  // namespace spk
