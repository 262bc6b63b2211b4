#pragma once
// SELL-C-sigma (sell_layout.hpp) built on the device from a DeviceCsr, bit for bit the layout
// of to_sell (its CPU reference): the rows' sort keys (sell_sort_key) sorted with CUB's stable
// radix sort, the chunk offsets by a scan, then a thread per position fills its slots
// (sell_slot) and the update_values slot map. Refused before the arrays are allocated
// (check_sell_size). Synchronizes `stream` (the slot count comes back once).
#include <cuda_runtime.h>

#include <cstdint>

#include "core/device_buffer.hpp"
#include "spmv/device/device_csr.hpp"
#include "spmv/formats/sell_layout.hpp"

namespace spk {

template <class T>
struct DeviceSell {
  index_t rows = 0;
  index_t sigma = 0;
  std::size_t positions = 0;  // chunks * 32
  std::uint64_t slots = 0;
  DeviceBuffer<index_t> permutation;          // positions
  DeviceBuffer<index_t> row_lengths;          // positions
  DeviceBuffer<std::uint64_t> chunk_offsets;  // chunks + 1
  DeviceBuffer<index_t> columns;              // slots
  DeviceBuffer<T> values;                     // slots
  DeviceBuffer<std::uint32_t> slot_of_entry;  // nnz: the update_values map

  std::size_t chunks() const { return positions / sell_chunk_height; }
};

template <class T>
DeviceSell<T> build_sell(const DeviceCsr<T>& matrix, index_t sigma, std::size_t max_bytes,
                         cudaStream_t stream);

}  // namespace spk
