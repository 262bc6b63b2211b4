#pragma once
// CsrLongRows: the rows of a CSR matrix too long for the row kernel of csr-vector or sell, cut
// into chunks that whole warps compute side by side (the host side of the long-row path both
// formats share; its kernels: long_row_kernels.cuh).
//
// Why: csr-vector gives each row a sub-warp of w lanes, sell one thread. A row of L entries
// then takes L / w (or L) loads per lane one after another; on a power-law matrix one row of
// 40 000 entries keeps its lanes busy for milliseconds while the rest of the matrix took
// microseconds. Rows past the format's threshold (csr_vector_long_row_length here,
// sell_long_row_length in sell_layout.hpp) are skipped by the row kernel and computed instead
// as chunks of kCsrLongRowChunk entries, one warp a chunk, each writing one partial sum; a
// second small kernel adds each row's partial sums in chunk order (deterministic: no atomics)
// and writes y.
//
// Where a long row's entries sit: at [begin, end) of the values/columns arrays the kernels
// read: its CSR offsets for csr-vector, its place in the tail after the SELL chunks for sell.
// Chunk boundaries fall on absolute multiples of kCsrLongRowChunk in those arrays, so every
// chunk but a row's first and last starts 128-byte aligned. Long row i (rows[i]) owns chunks
// [chunk_offsets[i], chunk_offsets[i+1]); chunk c belongs to long row chunk_rows[c].
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

// The chunks of a long row stored at entries [begin, end): cut at absolute multiples of
// kCsrLongRowChunk, from the one holding `begin` to the one holding `end - 1` (the host split
// below and the device one, csr_long_rows_build.hpp, both count with it). 64-bit positions:
// sell's tail may start past 2^31.
SPK_HOST_DEVICE constexpr index_t long_row_chunk_count(std::int64_t begin, std::int64_t end) {
  return static_cast<index_t>((end - 1) / kCsrLongRowChunk - begin / kCsrLongRowChunk + 1);
}

struct CsrLongRows {
  std::vector<index_t> rows;              // the long rows, ascending
  std::vector<index_t> chunk_offsets{0};  // rows.size() + 1 entries
  std::vector<index_t> chunk_rows;        // one entry per chunk: index into `rows`

  index_t chunks() const { return chunk_offsets.back(); }
};

// Adds `row` (after every row already there) as a long row whose entries are stored at
// [begin, end) of the arrays the long-row kernels read.
void append_long_row(CsrLongRows& long_rows, index_t row, std::int64_t begin, std::int64_t end);

// Finds the rows of more than `long_row_length` entries and their chunks, the entries at their
// CSR offsets (csr-vector).
CsrLongRows find_long_rows(const std::vector<index_t>& row_offsets, index_t long_row_length);

struct EntryRange {
  std::int64_t begin;
  std::int64_t end;
};

// Entries [begin, end) of the chunk_of_row-th chunk of a long row stored at [row_begin, row_end).
SPK_HOST_DEVICE inline EntryRange long_row_chunk_range(std::int64_t row_begin, std::int64_t row_end,
                                                       index_t chunk_of_row) {
  const std::int64_t first_boundary =
      (row_begin / kCsrLongRowChunk + chunk_of_row) * static_cast<std::int64_t>(kCsrLongRowChunk);
  const std::int64_t begin = chunk_of_row == 0 ? row_begin : first_boundary;
  const std::int64_t next = first_boundary + kCsrLongRowChunk;
  return {begin, next < row_end ? next : row_end};
}

// y[rows[i]] for every long row i, computed the way the GPU does (a partial sum per chunk, then
// their sum in chunk order) from its entries at stored_range(i) = [begin, end) of values and
// columns; other entries of y are left alone. The CPU check of the split, for both layouts.
template <class T, class StoredRange>
void long_rows_reference_spmv(const CsrLongRows& long_rows, StoredRange&& stored_range,
                              const T* values, const index_t* columns, const T* x, T* y) {
  for (std::size_t slot = 0; slot < long_rows.rows.size(); ++slot) {
    const EntryRange stored = stored_range(slot);
    T row_sum = T(0);
    for (index_t chunk = long_rows.chunk_offsets[slot]; chunk < long_rows.chunk_offsets[slot + 1];
         ++chunk) {
      const EntryRange range =
          long_row_chunk_range(stored.begin, stored.end, chunk - long_rows.chunk_offsets[slot]);
      T partial = T(0);
      for (std::int64_t k = range.begin; k < range.end; ++k) partial += values[k] * x[columns[k]];
      row_sum += partial;
    }
    y[long_rows.rows[slot]] = row_sum;
  }
}

// long_rows_reference_spmv on the CSR arrays (csr-vector's long rows).
template <class T>
void csr_long_rows_reference_spmv(const CsrMatrix<T>& matrix, const CsrLongRows& long_rows,
                                  const T* x, T* y);

}  // namespace spk
