#pragma once
// aligned-csr's padded layout built on the device from a DeviceCsr: the arrays of
// aligned_csr_layout.hpp (row starts, padded columns and values) and the slot map of
// update_values, bit for bit those of its host builders (to_aligned_csr, aligned_csr_row_starts,
// aligned_csr_value_slots, the CPU reference), which follow the same rules
// (aligned_csr_padded_length, aligned_csr_slot).
#include <cuda_runtime.h>

#include <cstdint>

#include "core/device_buffer.hpp"
#include "spmv/device/device_csr.hpp"
#include "spmv/formats/aligned_csr_layout.hpp"

namespace spk {

// Writes the rows + 1 row starts of the padded layout and returns the padded entry count.
// Throws BadInput, as aligned_csr_row_starts does, for a group size other than 2, 4, 8, 16, 32
// or a padded count past the 32-bit index limit: checked (one integer read back) before
// anything is written.
template <class T>
index_t fill_aligned_csr_row_starts(const DeviceCsr<T>& matrix, int group_size, index_t* row_starts,
                                    cudaStream_t stream);

// The padded columns and values (row_starts[rows] slots each: every slot written, padding
// included) and slots[k], the padded slot of CSR entry k (nnz entries). A warp per row.
template <class T>
void fill_aligned_csr(const DeviceCsr<T>& matrix, const index_t* row_starts, index_t* columns,
                      T* values, std::uint32_t* slots, cudaStream_t stream);

// The whole padded layout of `matrix` for `group_size` threads per row, built on the device
// with the two fills above (BadInput as they throw).
template <class T>
struct DeviceAlignedCsr {
  int group_size = 16;
  DeviceBuffer<index_t> row_starts;   // rows + 1
  DeviceBuffer<index_t> columns;      // padded entries
  DeviceBuffer<T> values;             // padded entries
  DeviceBuffer<std::uint32_t> slots;  // nnz: the padded slot of each CSR entry
};

template <class T>
DeviceAlignedCsr<T> build_aligned_csr(const DeviceCsr<T>& matrix, int group_size,
                                      cudaStream_t stream);

}  // namespace spk
