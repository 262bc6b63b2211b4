#pragma once
// Launch shapes of the CSR-family kernels (csr-scalar, csr-vector, aligned-csr), chosen and
// validated on the host once, at setup.
//
// Threads per row. The kernels are compiled for 2, 4, 8, 16 and 32 threads per row (a
// sub-warp of consecutive lanes per row, never wider than a warp) and one of them is picked at
// runtime by a switch, so every kernel has a compile-time loop stride.
//
//   csr-vector   spmv.threads_per_row, or when it is 0 the rule below.
//                Rule: the smallest power of two >= the mean row length nnz/rows, clamped to
//                [2, 32] (rows == 0 gives 2). With that width a typical row is read in one
//                pass by the sub-warp with few idle lanes, and the shuffle reduction costs
//                log2(width) steps. It is the rule of Bell & Garland's CSR-vector kernel as
//                used by CUSP; it looks at the mean only, so a power-law matrix with a few very
//                long rows still gets a narrow sub-warp (correct, but those rows run long).
//   aligned-csr  spmv.threads_per_row, or when it is 0 16 (a half-warp), the choice of
//                Baskaran & Bordawekar, who found 16 better than 32 and 64 on every matrix.
//
// Block size: spmv.block_size threads per block, checked by checked_block_size
// (spmv/formats/block_size.hpp): whole warps (the kernels reduce with warp shuffles and assume
// full warps), at most 1024 (the hardware limit and the kernels' __launch_bounds__).
#include <cstdint>
#include <string>

#include "spmv/host/csr_matrix.hpp"

namespace spk {

inline constexpr int kAlignedCsrDefaultThreadsPerRow = 16;

// Throws BadInput unless threads_per_row is 2, 4, 8, 16 or 32.
void check_threads_per_row(int threads_per_row, const std::string& format);

// csr-vector: `requested` when it is not 0 (validated), else the mean-row-length rule above.
int csr_vector_threads_per_row(index_t rows, std::int64_t nnz, int requested);

// aligned-csr: `requested` when it is not 0 (validated), else 16.
int aligned_csr_threads_per_row(int requested);

// Number of blocks giving each row `threads_per_row` threads, `block_size` threads a block
// (64-bit product; the result always fits a grid's x dimension for 32-bit row counts).
unsigned int csr_grid_blocks(index_t rows, int threads_per_row, int block_size);

}  // namespace spk
