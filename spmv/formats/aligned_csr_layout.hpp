#pragma once
// AlignedCsrLayout<T>: CSR with every row zero-padded so that it starts on a multiple of the
// group size g (the threads per row) and its length is a multiple of g; the host side of the
// aligned-csr format (Baskaran & Bordawekar's "solution 2", padding, see aligned_csr.cu).
//
//   row_starts  rows+1 offsets into columns/values; row r occupies
//               [row_starts[r], row_starts[r+1]), a multiple of g long, starting at a
//               multiple of g. An empty row stays empty (no padding).
//   columns     the row's real column indices, then padding entries that repeat the row's
//               last real column (a column that exists, whose x entry the row loads anyway;
//               so the x loads of padding stay in range and hit a cached line)
//   values      the row's real values, then 0 for each padding entry
//
// cols == 0 needs no special case: such a matrix has no entries, hence no padding. The padded
// entry count must fit a 32-bit index; to_aligned_csr refuses otherwise with BadInput, before
// allocating the padded arrays.
//
// Padding contributes value * x = 0 * x[c]; the result equals plain CSR exactly unless x[c]
// is Inf or NaN, where the row's result is already non-finite.
#include <cstdint>
#include <vector>

#include "core/host_device.hpp"
#include "spmv/formats/value_slots.hpp"
#include "spmv/host/csr_matrix.hpp"

namespace spk {

template <class T>
struct AlignedCsrLayout {
  index_t rows = 0;
  index_t cols = 0;
  int group_size = 16;  // g: threads per row, alignment and length granularity (entries)
  index_t nnz = 0;      // real entries, padding excluded
  std::vector<index_t> row_starts{0};
  std::vector<index_t> columns;
  std::vector<T> values;

  index_t padded_entries() const { return row_starts.back(); }
  // (padded_entries - nnz) / nnz, 0 for nnz == 0.
  double padding_overhead() const {
    return nnz == 0 ? 0.0 : static_cast<double>(padded_entries() - nnz) / nnz;
  }
};

// The two rules of the padded layout, shared by the host builders below (the CPU reference)
// and the device builders (aligned_csr_build.hpp), so both give the same layout:
//
// aligned_csr_padded_length: a row of `length` entries takes `length` rounded up to a multiple
// of the group size (0 stays 0).
SPK_HOST_DEVICE inline std::int64_t aligned_csr_padded_length(std::int64_t length, int group_size) {
  return (length + group_size - 1) / group_size * group_size;
}
// aligned_csr_slot: what padded slot `slot` of a row (holding CSR entries [row_begin, row_end)
// and starting at padded slot row_start) stores: the row's entries in order, then padding that
// repeats the row's last column with value 0.
struct AlignedCsrSlot {
  index_t entry;  // the CSR entry whose column (and, unless padding, value) the slot holds
  bool padding;
};
SPK_HOST_DEVICE inline AlignedCsrSlot aligned_csr_slot(index_t row_begin, index_t row_end,
                                                       index_t row_start, index_t slot) {
  const index_t offset = slot - row_start;
  return offset < row_end - row_begin ? AlignedCsrSlot{row_begin + offset, false}
                                      : AlignedCsrSlot{row_end - 1, true};
}

// Row starts of the padded layout for CSR row offsets `row_offsets` and group size
// `group_size` (2, 4, 8, 16 or 32). Throws BadInput when the padded entry count passes the
// 32-bit index limit; checks that before allocating the result.
std::vector<index_t> aligned_csr_row_starts(const std::vector<index_t>& row_offsets,
                                            int group_size);

// The slot of every nonzero in the padded values (row r's k-th entry at row_starts[r] + k),
// for update_values.
ValueSlots aligned_csr_value_slots(const std::vector<index_t>& row_offsets,
                                   const std::vector<index_t>& row_starts);

// Throws BadInput when `padded_total` padded entries (for `group_size` threads per row) pass the
// 32-bit index limit: the host and the device builders check with it before allocating.
void check_aligned_csr_size(std::int64_t padded_total, int group_size);

// Throws BadInput for a group size other than 2, 4, 8, 16, 32 or an oversized padded layout.
template <class T>
AlignedCsrLayout<T> to_aligned_csr(const CsrMatrix<T>& matrix, int group_size);

// y = A x computed from the layout itself, padding included (the CPU check of the layout).
template <class T>
void aligned_csr_reference_spmv(const AlignedCsrLayout<T>& layout, const T* x, T* y);

}  // namespace spk
