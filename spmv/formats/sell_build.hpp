#pragma once
// SELL-C-sigma (sell_layout.hpp) built on the device from a DeviceCsr, bit for bit the layout
// of to_sell_with_long_row_length (its CPU reference): the rows' sort keys (sell_sort_key of
// their SELL length, 0 for a long row) sorted with CUB's stable radix sort, the chunk offsets
// by a scan, then a thread per position fills its slots (sell_slot) and the update_values slot
// map. With long rows: their packed offsets after the chunks by a scan, their split
// (DeviceLongRows, cut where they are stored), and a block per long row copies its entries
// into the tail and maps them. Refused before the columns, values and map are allocated
// (check_sell_size, on the chunks' and the tail's slots together). Synchronizes `stream` (the
// slot counts come back).
#include <cuda_runtime.h>

#include <cstdint>

#include "core/device_buffer.hpp"
#include "spmv/device/device_csr.hpp"
#include "spmv/formats/csr_long_rows_build.hpp"
#include "spmv/formats/sell_layout.hpp"

namespace spk {

template <class T>
struct DeviceSell {
  index_t rows = 0;
  index_t sigma = 0;
  index_t long_row_length = 0;  // rows past it are long
  std::size_t positions = 0;    // chunks * 32
  std::uint64_t chunk_slots = 0;
  std::uint64_t slots = 0;                      // chunk_slots + the long rows' entries
  DeviceBuffer<index_t> permutation;            // positions; -1 past the rows and for long rows
  DeviceBuffer<index_t> row_lengths;            // positions
  DeviceBuffer<std::uint64_t> chunk_offsets;    // chunks + 1
  DeviceLongRows long_rows;                     // the long rows and their chunks of 1024 entries
  DeviceBuffer<std::uint64_t> long_row_starts;  // long rows + 1 (none without long rows)
  DeviceBuffer<index_t> columns;                // slots
  DeviceBuffer<T> values;                       // slots
  DeviceBuffer<std::uint32_t> slot_of_entry;    // nnz: the update_values map

  std::size_t chunks() const { return positions / sell_chunk_height; }
};

// long_row_length: sell_long_row_length(matrix.rows, matrix.nnz) for the `sell` backend.
template <class T>
DeviceSell<T> build_sell(const DeviceCsr<T>& matrix, index_t sigma, index_t long_row_length,
                         std::size_t max_bytes, cudaStream_t stream);

}  // namespace spk
