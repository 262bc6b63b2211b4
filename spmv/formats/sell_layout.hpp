#pragma once
// SellLayout<T>: SELL-C-sigma (Kreutzer, Hager, Wellein, Fehske & Bishop, "A unified sparse
// matrix data format for efficient general sparse matrix-vector multiplication on modern
// processors with wide SIMD units", SIAM J. Sci. Comput. 36(5), 2014), with chunks of C = 32
// rows (a warp) and a sorting window of sigma rows (spmv.sell_sigma, a multiple of 32), plus
// csr-vector's long-row split (csr_long_rows.hpp) for the rows one thread would serialise.
//
// Long rows. A row is long when it has more than sell_long_row_length(rows, nnz) =
// max(256, 32 ceil(nnz / rows)) entries: past 32 times the mean row length (a chunk of such
// rows costs a warp as much as 32 average chunks) and past 256 (64 unrolled steps of one
// thread). A long row stays in the chunks with SELL length 0 (so it sorts last in its window
// and widens no chunk) and position flag -1 (the SELL kernel writes no y for it); its entries
// are stored after the chunks' slots in the same columns/values arrays, the long rows one after
// another in ascending row order, each in CSR order: long row i at [long_row_starts[i],
// long_row_starts[i + 1]). Warps compute them in chunks of 1024 entries cut at absolute
// multiples of 1024 of those arrays, and one warp per long row adds its chunks' partial sums in
// a fixed order and writes its y (long_rows: the split, as csr-vector's). A matrix with no long
// row has no tail and no split.
//
// Layout of the chunks. Rows are sorted by SELL length, longest first, within each window of
// sigma consecutive rows (ties keep their row order), so neighbours in a chunk have similar
// lengths while the permutation stays local (y and x keep their locality across windows).
// Position p holds row permutation[p]; positions past the last row (the last chunk's tail) and
// those of long rows hold -1 and length 0. Chunk c (positions 32c .. 32c + 31) is padded to its
// longest row, w_c = the length at its first position, and stored column-major: entry j of
// position p sits at slot chunk_offsets[c] + 32 j + p % 32 (sell_slot), so a warp's loads of
// step j are one contiguous run. Padding slots hold column -1 and value 0 and are never read:
// each thread stops at its own row's length (row_lengths[p], as ELLPACK-R does). ELLPACK's
// padding to the longest row of the whole matrix becomes padding to the longest row of each
// chunk.
//
// Storage guard: slots (the chunks' and the long rows' together) past 2^32 (the update_values
// slot map is 32-bit) or arrays past the limit's bytes are refused before allocating (BadInput
// naming the format and the size). The fill ratio (slots / nnz) is reported.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/host_device.hpp"
#include "spmv/formats/csr_long_rows.hpp"
#include "spmv/host/csr_matrix.hpp"

namespace spk {

constexpr index_t sell_chunk_height = 32;

// Rows of more than this many entries are long (see the header comment): max(256, 32
// ceil(nnz / rows)), saturated at the largest index (no row is then long).
SPK_HOST_DEVICE constexpr index_t sell_long_row_length(index_t rows, index_t nnz) {
  const std::int64_t mean_ceiling = rows == 0 ? 0 : (std::int64_t{nnz} + rows - 1) / rows;
  const std::int64_t length = 32 * mean_ceiling > 256 ? 32 * mean_ceiling : 256;
  return length > max_index ? static_cast<index_t>(max_index) : static_cast<index_t>(length);
}

// A row's length in the chunks: its length, or 0 for a long row.
SPK_HOST_DEVICE constexpr index_t sell_chunk_length(index_t length, index_t long_row_length) {
  return length > long_row_length ? 0 : length;
}

// The slot of entry j of the row at position p, in the chunk that starts at slot
// chunk_offset.
SPK_HOST_DEVICE inline std::uint64_t sell_slot(std::uint64_t chunk_offset, index_t entry,
                                               index_t position) {
  return chunk_offset + static_cast<std::uint64_t>(entry) * sell_chunk_height +
         static_cast<std::uint64_t>(position % sell_chunk_height);
}

// The sort key of a row of `length` entries in the chunks (sell_chunk_length): window first,
// then longer rows first (a stable sort by it keeps equal rows in row order).
SPK_HOST_DEVICE inline std::uint64_t sell_sort_key(index_t row, index_t length, index_t sigma) {
  return (static_cast<std::uint64_t>(row / sigma) << 32) |
         static_cast<std::uint64_t>(0x7fffffff - length);
}

template <class T>
struct SellLayout {
  index_t rows = 0;
  index_t cols = 0;
  index_t sigma = 0;
  index_t long_row_length = 0;               // rows past it are long
  std::vector<index_t> permutation;          // position -> row; -1 past the rows and for long rows
  std::vector<index_t> row_lengths;          // per position (0 for long rows)
  std::vector<std::uint64_t> chunk_offsets;  // chunks + 1: a chunk's first slot
  CsrLongRows long_rows;                     // the long rows and their chunks of 1024 entries
  std::vector<std::uint64_t> long_row_starts;  // long rows + 1 (none without long rows)
  std::vector<index_t> columns;                // every slot; padding -1
  std::vector<T> values;                       // every slot; padding 0

  std::size_t chunks() const { return chunk_offsets.empty() ? 0 : chunk_offsets.size() - 1; }
  // Slots of the chunks (padding included).
  std::uint64_t chunk_slots() const { return chunk_offsets.empty() ? 0 : chunk_offsets.back(); }
  // Every slot: the chunks', then the long rows' entries.
  std::uint64_t slots() const {
    return long_row_starts.empty() ? chunk_slots() : long_row_starts.back();
  }
};

// Throws BadInput for a sigma that is not a positive multiple of 32 (naming spmv.sell_sigma).
index_t checked_sell_sigma(int sigma);

// Throws BadInput when `slots` slots of value_bytes + 4 bytes pass max_bytes or 2^32 slots.
void check_sell_size(std::uint64_t slots, std::size_t value_bytes, std::size_t max_bytes);

// The layout with the long rows of sell_long_row_length (what the `sell` backend builds).
template <class T>
SellLayout<T> to_sell(const CsrMatrix<T>& matrix, index_t sigma,
                      std::size_t max_bytes = static_cast<std::size_t>(-1));

// The layout with rows of more than `long_row_length` entries long (tests of the split).
template <class T>
SellLayout<T> to_sell_with_long_row_length(const CsrMatrix<T>& matrix, index_t sigma,
                                           index_t long_row_length,
                                           std::size_t max_bytes = static_cast<std::size_t>(-1));

// y = A x on the layout: position p sums its first row_lengths[p] slots into y[permutation[p]];
// the long rows as the GPU splits them (long_rows_reference_spmv).
template <class T>
void sell_reference_spmv(const SellLayout<T>& layout, const T* x, T* y);

}  // namespace spk
