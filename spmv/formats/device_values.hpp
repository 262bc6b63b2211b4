#pragma once
// DeviceValues<Value>: a format's stored values on the device (every value slot of its layout,
// padding included, in one array) and the map from each CSR nonzero to its slot, built at
// setup and kept, so that update_values is one scatter kernel on the backend's stream: no host
// copy, no allocation, no synchronization.
//
// The map. Formats that store their values in CSR order (csr-scalar, csr-vector, cusparse)
// need none: the scatter is a copy with the finiteness check. aligned-csr keeps the slot of
// every nonzero on the device, 4 bytes per nonzero (std::uint32_t: its padded entries fit a
// 32-bit index, aligned_csr_layout.hpp); its rows are contiguous, so a thread per nonzero
// writes in runs. The ELL family (ellpack, ellpack-r, hyb) keeps the CSR row offsets instead
// (4 bytes per row, plus 8 per row for HYB's COO tails): a thread per nonzero would write the
// column-major array with a stride of `pitch` slots, so the ELL scatter runs a thread per row
// whose writes, one column at a time, are contiguous across the warp, after its block has
// staged the rows' values in shared memory with coalesced reads (measured on an H100,
// BENCHMARKS.md "update_values"); it places entries with ell_entry_slot, the layout's own rule.
// The map's bytes count in device_bytes. Everything here is built on the device (from the
// device CSR arrays and the format's device builders): nothing goes through the host.
//
// scatter(values, first_non_finite, stream): stored[slot(k)] = values[k] for every nonzero k,
// converted to Value (Source double under Value float: spmv.matrix_values single, where a value
// past the fp32 range becomes infinite and counts as non-finite); `values` is a device pointer to
// the nnz values in the order of the CSR arrays the layout was built from. Padding slots are never
// written (they keep their 0). When first_non_finite is not null, the kernel lowers
// *first_non_finite with atomicMin to the least k whose value is NaN or infinite (the caller sets
// it to nnz first, so it stays nnz when every value is finite). Asynchronous and stream-ordered on
// `stream`; `values` must stay valid until the kernel has run.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "core/device_buffer.hpp"
#include "spmv/host/csr_matrix.hpp"

namespace spk {

// Value: the stored values' type (the backend's vector type, or float under double).
template <class Value>
class DeviceValues {
 public:
  // Values stored in CSR order: a copy of the nnz device values `csr_values` (made on
  // `stream`), no map.
  DeviceValues(const Value* csr_values, index_t nnz, const std::string& what, cudaStream_t stream);
  // Values stored in a layout with a slot map: `stored` holds every slot (padding included),
  // slots[k] is the slot of nonzero k (slots.size() == nnz).
  DeviceValues(DeviceBuffer<Value> stored, DeviceBuffer<std::uint32_t> slots);
  // Values stored in an ELL layout: entry j < ell_width of row r at slot j * pitch + r, the
  // entries past the width of each row contiguous from slot tail_starts[r] (HYB's COO part;
  // tail_starts is empty when no row passes the width). Keeps a copy of the rows + 1 device
  // row offsets (made on `stream`) instead of a map entry per nonzero; the scatter runs a
  // thread per row.
  DeviceValues(DeviceBuffer<Value> stored, index_t nnz, index_t rows, const index_t* row_offsets,
               index_t ell_width, std::size_t pitch, DeviceBuffer<std::uint64_t> tail_starts,
               const std::string& what, cudaStream_t stream);

  template <class Source>
  void scatter(const Source* values, index_t* first_non_finite, cudaStream_t stream);

  Value* data() { return stored_.data(); }
  const Value* data() const { return stored_.data(); }
  // Value slots (padding included).
  std::size_t size() const { return stored_.size(); }
  // The stored values and the map.
  std::size_t device_bytes() const { return stored_.bytes() + map_bytes(); }
  std::size_t values_bytes() const { return stored_.bytes(); }
  std::size_t map_bytes() const {
    return slots_.bytes() + row_offsets_.bytes() + tail_starts_.bytes();
  }

 private:
  DeviceBuffer<Value> stored_;
  index_t nnz_ = 0;
  DeviceBuffer<std::uint32_t> slots_;  // the map (aligned-csr)
  // The ELL form (row_offsets_ not empty): rows, width, pitch, CSR row offsets, row tails.
  index_t ell_rows_ = 0;
  index_t ell_width_ = 0;
  std::size_t ell_pitch_ = 0;
  DeviceBuffer<index_t> row_offsets_;
  DeviceBuffer<std::uint64_t> tail_starts_;
  index_t ell_capacity_ = 0;  // values the ELL scatter stages per block of rows
};

}  // namespace spk
