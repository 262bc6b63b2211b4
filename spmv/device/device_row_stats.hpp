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

}  // namespace spk
