#pragma once
// RowStats (spmv/host/matrix_stats.hpp) of a CSR pattern in device memory, computed on the
// device: one pass over the row offsets accumulates the same exact integer sums as the host's
// compute_row_stats (RowLengthSums), read back as one small struct, then row_stats_from_sums
// derives the rest; so the device and the host give the same RowStats, bit for bit.
#include <cuda_runtime.h>

#include "spmv/host/matrix_stats.hpp"

namespace spk {

// row_offsets: rows + 1 device entries, starting at 0 and never decreasing.
RowStats device_row_stats(index_t rows, index_t cols, const index_t* row_offsets,
                          cudaStream_t stream);

// MatrixStats of one process's whole rows on the device (compute_block_stats's, for rows that
// never exist on the host: device_grid_rows.hpp): row i's diagonal is local column i, columns
// past the own block are halo slots. The row lengths as device_row_stats; the diagonal's (zero
// or missing rows, dominance) from the values as stored (T), summed in double as the host does
// (the dominance sum's order differs: rows within 1e-14 of the bound may tip). first_zero_
// diagonal_row is local; the symmetry is not checked (false).
template <class T>
MatrixStats device_block_stats(index_t rows, const index_t* row_offsets, const index_t* columns,
                               const T* values, cudaStream_t stream);

}  // namespace spk
