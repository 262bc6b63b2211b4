#pragma once
// EllpackLayout<T>: the host image of an ELLPACK (ITPACK) matrix, built from a CsrMatrix and
// uploaded unchanged by the `ellpack` backend, by `ellpack-r` (with row lengths added, see
// ellpack_r_layout.hpp) and by the ELL part of `hyb` (hyb_layout.hpp).
//
// Layout: every row gets `width` slots. The slots are stored column-major with a pitch:
// slot k of row i sits at k * pitch + i. `pitch` is `rows` rounded up to a multiple of
// ell_pitch_alignment (32 elements), so each of the `width` columns of the ELL array starts
// on a 128-byte (float) or 256-byte (double) boundary, and consecutive rows (consecutive GPU
// threads) read consecutive addresses. A row's entries fill its first slots in CSR order; the
// remaining slots are padding: column ell_padding_column (-1) and value 0. Slots of the pitch
// rows past `rows` are padding too. Offsets k * pitch + i are std::size_t: the padded array
// may exceed 2^31 slots even though every index fits 32 bits.
//
// Refusal rules (to_ellpack): padding every row to the longest row can multiply the storage.
//   * fill rule: refused with BadInput when rows * width > max_fill * nnz AND rows * width >
//     fill_floor (1e5 slots, about 1.2 MB in double: tiny matrices are never refused, whatever
//     their fill). The message gives the fill ratio and suggests `hyb` or `ellpack-r`.
//   * size rule: refused with BadInput when the padded arrays (pitch * width slots of value
//     plus 32-bit column) would take more than max_bytes (the device memory), before any host
//     memory is allocated for them.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "core/host_device.hpp"
#include "spmv/formats/value_slots.hpp"
#include "spmv/host/csr_matrix.hpp"

namespace spk {

constexpr index_t ell_padding_column = -1;
constexpr std::size_t ell_pitch_alignment = 32;

// When a padded ELL array is refused (see the header comment).
struct EllPaddingLimits {
  double max_fill = std::numeric_limits<double>::infinity();  // padded slots / nnz
  std::int64_t fill_floor = 100000;  // the fill rule applies only above this many slots
  std::size_t max_bytes = std::numeric_limits<std::size_t>::max();  // values + columns
  std::string format = "ellpack";  // names the format in error messages
};

template <class T>
struct EllpackLayout {
  index_t rows = 0;
  index_t cols = 0;
  index_t width = 0;                // slots per row
  std::size_t pitch = 0;            // distance between slot k and slot k+1 of one row
  std::int64_t stored_entries = 0;  // nonzeros held (not counting padding)
  std::vector<T> values;            // pitch * width, column-major, padding 0
  std::vector<index_t> columns;     // pitch * width, column-major, padding -1

  // Slots the kernel reads: rows * width (pitch rows past `rows` are never read).
  std::int64_t padded_entries() const { return std::int64_t{rows} * width; }
  // padded_entries / stored_entries (1 = no padding); 0 when nothing is stored.
  double fill_ratio() const {
    return stored_entries == 0
               ? 0.0
               : static_cast<double>(padded_entries()) / static_cast<double>(stored_entries);
  }
};

// The two rules of every ELL-family array, shared by the host builders below (the CPU
// reference) and the device builders (ell_build.hpp), so both give the same layout:
//
// ell_slot_entry: the CSR entry that slot j of a row holding entries [row_begin, row_end)
// stores, or -1 when slot j is padding (j >= the row's length).
SPK_HOST_DEVICE inline index_t ell_slot_entry(index_t row_begin, index_t row_end, index_t slot) {
  return slot < row_end - row_begin ? row_begin + slot : -1;
}
// ell_entry_slot: where the j-th entry of row `row` sits in the format's value array: slot
// j * pitch + row below the width, else entry j - width of the row's tail, which starts at
// value slot tail_start (HYB's COO part follows the pitch * width ELL slots).
SPK_HOST_DEVICE inline std::uint64_t ell_entry_slot(index_t row, index_t j, index_t width,
                                                    std::uint64_t pitch, std::uint64_t tail_start) {
  return j < width ? static_cast<std::uint64_t>(j) * pitch + static_cast<std::uint64_t>(row)
                   : tail_start + static_cast<std::uint64_t>(j - width);
}

// ell_tail_length: how many entries of a row of `length` entries lie past the width (HYB's COO
// entries of the row; 0 for plain ELLPACK, whose width is the longest row).
SPK_HOST_DEVICE inline index_t ell_tail_length(index_t length, index_t width) {
  return length > width ? length - width : 0;
}

// rows rounded up to a multiple of ell_pitch_alignment.
std::size_t ell_pitch(index_t rows);
// The longest row of `matrix` (0 for a matrix without rows).
template <class T>
index_t max_row_length(const CsrMatrix<T>& matrix);
// Bytes of the padded value and column arrays, pitch * width * (sizeof(T) + 4).
template <class T>
std::size_t ell_array_bytes(index_t rows, index_t width);

// The refusal rules above, from the sizes alone (the host and device builders both call them
// before allocating): the fill rule for a width of `width` slots over nnz entries (ellpack),
// and the size rule.
void check_ell_fill(index_t rows, index_t width, std::int64_t nnz, const EllPaddingLimits& limits);
template <class T>
void check_ell_size(index_t rows, index_t width, const EllPaddingLimits& limits);

// Plain ELLPACK: width = longest row. Throws BadInput under the refusal rules above.
template <class T>
EllpackLayout<T> to_ellpack(const CsrMatrix<T>& matrix, const EllPaddingLimits& limits);

// The first min(row length, width) entries of every row, in `width` slots (the ELL part of
// HYB; width >= longest row gives plain ELLPACK). Only the size rule applies.
template <class T>
EllpackLayout<T> to_ellpack_with_width(const CsrMatrix<T>& matrix, index_t width,
                                       const EllPaddingLimits& limits);

// The slot of every nonzero in the values of to_ellpack_with_width(matrix, width, ...) with
// this pitch (k * pitch + row for the row's k-th entry, k < width), for update_values. Entries
// past `width` (HYB's COO part, hyb_layout.hpp) take the slots after the pitch * width ELL
// slots, in row order, as the COO values follow the ELL array in HYB's one value array.
ValueSlots ell_value_slots(const std::vector<index_t>& row_offsets, index_t width,
                           std::size_t pitch);

// y = A x on the layout itself: every slot of every row, padding skipped by its -1 column
// (0 * x is never formed, so an Inf in x cannot leak into rows that do not use it).
template <class T>
void ellpack_reference_spmv(const EllpackLayout<T>& layout, const T* x, T* y);

}  // namespace spk
