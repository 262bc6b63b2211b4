#pragma once
// The long-row split (csr_long_rows.hpp) built on the device from a DeviceCsr: the long rows,
// their chunk offsets and each chunk's long row, the arrays of the host builders (the CPU
// references: find_long_rows for csr-vector, to_sell for sell) bit for bit, counted with the
// same long_row_chunk_count. Where the entries are stored (LongRowPlacement) decides where the
// chunks are cut: at the CSR offsets (csr-vector) or packed after the SELL chunks (sell).
// DeviceLongRows holds the split a backend keeps.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "core/device_buffer.hpp"
#include "spmv/device/device_csr.hpp"
#include "spmv/formats/csr_long_rows.hpp"

namespace spk {

struct LongRowCounts {
  index_t long_rows = 0;  // rows of more than long_row_length entries
  index_t chunks = 0;     // their chunks, together
};

// Where the long-row kernels read a long row's entries. Default: at its CSR offsets. sell: the
// long rows packed in row order after the SELL chunks, long row r at tail_start +
// packed_offsets[r] (packed_offsets: rows + 1 device entries, the entries of the long rows
// before r).
struct LongRowPlacement {
  const index_t* packed_offsets = nullptr;
  std::int64_t tail_start = 0;
};

// Counts the long rows and their chunks (two integers read back). Nothing runs on the device
// when the longest row (matrix.stats) is not long.
template <class T>
LongRowCounts count_long_rows(const DeviceCsr<T>& matrix, index_t long_row_length,
                              cudaStream_t stream, LongRowPlacement placement = {});

// Writes the split counted by `counts`: rows (counts.long_rows entries, ascending),
// chunk_offsets (counts.long_rows + 1) and chunk_rows (counts.chunks). Does nothing when there
// are no long rows.
template <class T>
void fill_long_rows(const DeviceCsr<T>& matrix, index_t long_row_length,
                    const LongRowCounts& counts, index_t* rows, index_t* chunk_offsets,
                    index_t* chunk_rows, cudaStream_t stream, LongRowPlacement placement = {});

// The long-row split of one matrix, built on the device (synchronizes `stream`). Nothing is
// allocated when there are no long rows.
struct DeviceLongRows {
  DeviceLongRows() = default;
  template <class T>
  DeviceLongRows(const DeviceCsr<T>& matrix, index_t long_row_length, cudaStream_t stream,
                 LongRowPlacement placement = {})
      : DeviceLongRows(matrix, long_row_length,
                       count_long_rows(matrix, long_row_length, stream, placement), stream,
                       placement) {}

  std::size_t device_bytes() const {
    return rows.bytes() + chunk_offsets.bytes() + chunk_rows.bytes();
  }

  index_t long_row_count = 0;
  index_t chunks = 0;
  DeviceBuffer<index_t> rows;           // long_row_count, ascending
  DeviceBuffer<index_t> chunk_offsets;  // long_row_count + 1 (none without long rows)
  DeviceBuffer<index_t> chunk_rows;     // chunks

 private:
  template <class T>
  DeviceLongRows(const DeviceCsr<T>& matrix, index_t long_row_length, const LongRowCounts& counts,
                 cudaStream_t stream, LongRowPlacement placement)
      : long_row_count(counts.long_rows),
        chunks(counts.chunks),
        rows(static_cast<std::size_t>(counts.long_rows), "long rows"),
        chunk_offsets(counts.long_rows == 0 ? 0 : static_cast<std::size_t>(counts.long_rows) + 1,
                      "long-row chunk offsets"),
        chunk_rows(static_cast<std::size_t>(counts.chunks), "long-row chunk rows") {
    fill_long_rows(matrix, long_row_length, counts, rows.data(), chunk_offsets.data(),
                   chunk_rows.data(), stream, placement);
  }
};

}  // namespace spk
