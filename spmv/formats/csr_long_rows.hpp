#pragma once
// CsrLongRows: the rows of a CSR matrix too long for one sub-warp of csr-vector, cut into
// chunks that whole warps compute side by side (host side of csr-vector's long-row path).
//
// Why: csr-vector gives each row a sub-warp of w lanes. A row of L entries then takes L / w
// loads per lane one after another; on a power-law matrix one row of 40 000 entries keeps a
// sub-warp busy for milliseconds while the rest of the matrix took microseconds. Rows longer
// than csr_vector_long_row_length(w) = 32 w entries (more than 8 unrolled steps of 4 loads per
// lane) are skipped by the row kernel and computed instead as chunks of kCsrLongRowChunk
// entries, one warp a chunk, each writing one partial sum; a second small kernel adds each
// row's partial sums in chunk order (deterministic: no atomics) and writes y.
//
// Chunk boundaries fall on absolute multiples of kCsrLongRowChunk in the values/columns
// arrays, so every chunk but a row's first and last starts 128-byte aligned. Long row i
// (rows[i]) owns chunks [chunk_offsets[i], chunk_offsets[i+1]); chunk c belongs to long row
// chunk_rows[c].
#include <cstdint>
#include <vector>

#include "core/host_device.hpp"
#include "spmv/host/csr_matrix.hpp"

namespace spk {

inline constexpr index_t kCsrLongRowChunk = 1024;

// Rows longer than this many entries take the long-row path, for a sub-warp of
// `threads_per_row` lanes.
SPK_HOST_DEVICE constexpr index_t csr_vector_long_row_length(int threads_per_row) {
  return 32 * static_cast<index_t>(threads_per_row);
}

// The chunks of a long row holding entries [begin, end): cut at absolute multiples of
// kCsrLongRowChunk, from the one holding `begin` to the one holding `end - 1` (the host split
// below and the device one, csr_long_rows_build.hpp, both count with it).
SPK_HOST_DEVICE constexpr index_t long_row_chunk_count(index_t begin, index_t end) {
  return (end - 1) / kCsrLongRowChunk - begin / kCsrLongRowChunk + 1;
}

struct CsrLongRows {
  std::vector<index_t> rows;              // the long rows, ascending
  std::vector<index_t> chunk_offsets{0};  // rows.size() + 1 entries
  std::vector<index_t> chunk_rows;        // one entry per chunk: index into `rows`

  index_t chunks() const { return chunk_offsets.back(); }
};

// Finds the rows of more than `long_row_length` entries and their chunks.
CsrLongRows find_long_rows(const std::vector<index_t>& row_offsets, index_t long_row_length);

struct EntryRange {
  index_t begin;
  index_t end;
};

// Entries [begin, end) of the chunk_of_row-th chunk of a long row holding [row_begin, row_end).
SPK_HOST_DEVICE inline EntryRange long_row_chunk_range(index_t row_begin, index_t row_end,
                                                       index_t chunk_of_row) {
  const index_t first_boundary = (row_begin / kCsrLongRowChunk + chunk_of_row) * kCsrLongRowChunk;
  const index_t begin = chunk_of_row == 0 ? row_begin : first_boundary;
  const std::int64_t next = static_cast<std::int64_t>(first_boundary) + kCsrLongRowChunk;
  const index_t end = next < row_end ? static_cast<index_t>(next) : row_end;
  return {begin, end};
}

// y[r] for every long row r computed the way the GPU does (partial sums per chunk, then their
// sum in chunk order); other entries of y are left alone. The CPU check of the split.
template <class T>
void csr_long_rows_reference_spmv(const CsrMatrix<T>& matrix, const CsrLongRows& long_rows,
                                  const T* x, T* y);

}  // namespace spk
