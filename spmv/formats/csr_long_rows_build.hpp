#pragma once
// csr-vector's long-row split (csr_long_rows.hpp) built on the device from a DeviceCsr: the
// long rows, their chunk offsets and each chunk's long row, the arrays of find_long_rows (the
// host builder, the CPU reference) bit for bit, counted with the same long_row_chunk_count.
#include <cuda_runtime.h>

#include "spmv/device/device_csr.hpp"
#include "spmv/formats/csr_long_rows.hpp"

namespace spk {

struct LongRowCounts {
  index_t long_rows = 0;  // rows of more than long_row_length entries
  index_t chunks = 0;     // their chunks, together
};

// Counts the long rows and their chunks (two integers read back). Nothing runs on the device
// when the longest row (matrix.stats) is not long.
template <class T>
LongRowCounts count_long_rows(const DeviceCsr<T>& matrix, index_t long_row_length,
                              cudaStream_t stream);

// Writes the split counted by `counts`: rows (counts.long_rows entries, ascending),
// chunk_offsets (counts.long_rows + 1) and chunk_rows (counts.chunks). Does nothing when there
// are no long rows.
template <class T>
void fill_long_rows(const DeviceCsr<T>& matrix, index_t long_row_length,
                    const LongRowCounts& counts, index_t* rows, index_t* chunk_offsets,
                    index_t* chunk_rows, cudaStream_t stream);

}  // namespace spk
