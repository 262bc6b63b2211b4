#pragma once
// The ELL family's arrays built on the device from a DeviceCsr (spmv/device/device_csr.hpp):
// the layouts of ellpack_layout.hpp, ellpack_r_layout.hpp and hyb_layout.hpp, bit for bit
// (same slots, same padding, same order). The host builders there are the CPU reference; both
// place entries with the same rules (ell_slot_entry, ell_entry_slot, ell_tail_length).
//
// Each fill writes every element of the arrays it is given, padding included (it never
// relies on a cleared allocation), asynchronously on `stream`; the matrix must stay valid
// until the stream has run it.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "core/device_buffer.hpp"
#include "spmv/device/device_csr.hpp"
#include "spmv/formats/hyb_layout.hpp"

namespace spk {

// The pitch * width ELL slots: columns (padding ell_padding_column) and values (padding 0),
// one thread per slot. values may be longer (HYB's COO values follow); only the ELL slots are
// written.
template <class T>
void fill_ell_slots(const DeviceCsr<T>& matrix, index_t width, std::size_t pitch, index_t* columns,
                    T* values, cudaStream_t stream);

// ELLPACK-R's rl[]: row_lengths[r] = entries of row r (rows entries).
template <class T>
void fill_row_lengths(const DeviceCsr<T>& matrix, index_t* row_lengths, cudaStream_t stream);

// HYB's COO part at ELL width `width`: every row's entries past the width, in row order (as
// to_hyb): coo_rows, coo_columns and coo_values hold `coo_entries` triples (choose_hyb_width's
// count); tail_starts[r] (rows entries) is the value slot of row r's first COO entry,
// ell_slots + its COO index, and 0 for a row without one (DeviceValues' ELL form). A warp per
// row copies its tail; the tails' starts come from a scan of the tail lengths.
template <class T>
void fill_hyb_tail(const DeviceCsr<T>& matrix, index_t width, std::uint64_t ell_slots,
                   index_t* coo_rows, index_t* coo_columns, T* coo_values,
                   std::uint64_t* tail_starts, cudaStream_t stream);

// The row-length histogram (hyb_layout.hpp) of a matrix on the device: its row lengths sorted
// and run-length encoded there; only the bars come back (a few thousand at most: distinct
// lengths l_1 < l_2 < ... sum to at most nnz).
template <class T>
RowLengthHistogram device_row_length_histogram(const DeviceCsr<T>& matrix, cudaStream_t stream);

// An ELL array of `width` slots a row built on the device (to_ellpack_with_width's layout):
// pitch = ell_pitch(rows); values holds the pitch * width ELL slots and then
// `extra_value_slots` more, left for the caller (HYB's COO values).
template <class T>
struct DeviceEll {
  index_t rows = 0;
  index_t width = 0;
  std::size_t pitch = 0;
  DeviceBuffer<index_t> columns;  // pitch * width
  DeviceBuffer<T> values;         // pitch * width + extra_value_slots

  std::size_t slots() const { return pitch * static_cast<std::size_t>(width); }
};

// Refuses a negative width and applies the size rule of `limits` (as to_ellpack_with_width,
// BadInput with the same message) before allocating; the fill rule is the caller's
// (check_ell_fill, for ellpack only).
template <class T>
DeviceEll<T> build_ell(const DeviceCsr<T>& matrix, index_t width, std::size_t extra_value_slots,
                       const EllPaddingLimits& limits, cudaStream_t stream);

// HYB built on the device (to_hyb's layout): the width chosen from the device histogram by
// choose_hyb_width, the ELL part, and the COO part, whose values follow the ELL slots in
// ell.values; tail_starts as fill_hyb_tail writes them (empty when nothing spills).
template <class T>
struct DeviceHyb {
  HybWidthChoice choice;
  DeviceEll<T> ell;
  DeviceBuffer<index_t> coo_rows;
  DeviceBuffer<index_t> coo_columns;
  DeviceBuffer<std::uint64_t> tail_starts;
};

template <class T>
DeviceHyb<T> build_hyb(const DeviceCsr<T>& matrix, int requested_width,
                       const EllPaddingLimits& limits, cudaStream_t stream);

}  // namespace spk
