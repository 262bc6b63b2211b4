#pragma once
// C = A B on the GPU by rows, for the AMG setup's products (A T, A P, R (A P)), whose rows hold
// a few dozen distinct columns: one warp per row of C gathers the row's columns into a hash
// table in shared memory, so the product needs no memory beyond C itself and its row counts
// (cuSPARSE's SpGEMM asks for buffers of 3-4 times C's size at the finest level and keeps a
// plan of the same order for the re-setup; anchors-distributed-and-amg.md, 2.3). The
// row-by-row method is Gustavson's (ACM TOMS 4(3), 1978); the hashed row accumulator is the
// one of Nagasaka, Nukada and Matsuoka, "High-performance and memory-saving sparse general
// matrix-matrix multiplication for NVIDIA Pascal GPU" (ICPP 2017).
//
//   row_hash_pattern   C's row offsets, and its columns sorted within each row: a count pass
//                      (the distinct columns of each row, hashed), a scan, a fill pass (hashed
//                      again, compacted by warp ballots and placed by rank). The product is
//                      structural (an entry whose value cancels stays), as on the host.
//   row_hash_values    C's values on that pattern: c_ij = sum_k a_ik b_kj, the k in A's row
//                      order, each term added to its entry found by binary search in the row's
//                      columns (the lanes of a step write distinct entries: no atomics), so the
//                      same inputs give bitwise the same values; the re-setup's numeric phase.
//
// A row with more than row_hash_limit distinct columns does not fit the table:
// row_hash_pattern then returns false, having allocated nothing but the row counts (in C's
// offsets), and the caller uses cuSPARSE (device_sparse_product.hpp). Work: O(products) per pass, a
// warp per row (a row of A with many entries is walked entry by entry by its warp).
#include "solver/amg/device_csr_matrix.hpp"

namespace spk {

// The most distinct columns a row of C may have here (3/4 of the table: linear probing stays
// short).
constexpr index_t row_hash_limit = 384;

// c's row offsets, columns (sorted in each row) and values array (allocated, not filled) for
// a b; false when a row has more than row_hash_limit columns (then c's row offsets hold
// counts, its other arrays untouched). a.cols == b.rows.
// Synchronizes the stream (C's size comes back to the host).
bool row_hash_pattern(const DeviceCsrMatrix<double>& a, const DeviceCsrMatrix<double>& b,
                      DeviceCsrMatrix<double>& c, cudaStream_t stream);

// c's values for a b on the pattern row_hash_pattern gave (asynchronous on `stream`).
void row_hash_values(const DeviceCsrMatrix<double>& a, const DeviceCsrMatrix<double>& b,
                     DeviceCsrMatrix<double>& c, cudaStream_t stream);

}  // namespace spk
