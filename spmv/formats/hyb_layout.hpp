#pragma once
// HybLayout<T>: HYB = an ELLPACK part of width K plus a COO part for the overflow (Bell &
// Garland's hybrid format; the ELLPACK-R paper, seed /work/shared/seeds/ellpack-r.txt, reviews
// it as "HYB [13]"). The first min(len_i, K) entries of row i go to the ELL part
// (ellpack_layout.hpp: column-major, pitch-aligned, -1 padding); the rest go to the COO part
// as (row, column, value) triples sorted by row, in CSR order.
//
// The width rule (spmv.hyb_width = -1). With s = sizeof(T), rows R and coo(K) = sum_i
// max(0, len_i - K), one SpMV is estimated to move
//     bytes(K) = R * K * (s + 4)                          ELL slots read, padding included
//              + coo(K) * (s + 8) * hyb_coo_relative_cost  COO triples, weighted
// and K minimises bytes(K) over every K from 0 to the longest row (ties: the smaller K).
// bytes(K) is linear between consecutive distinct row lengths, so evaluating it at K = 0 and
// at every distinct length (the compact histogram below) finds that minimum exactly.
// hyb_coo_relative_cost = 1.25 prices a COO byte at 1.25 ELL bytes (a second kernel, the
// segmented reduction, the atomics). Measured on an H100 (poisson3d 7-point, 4.1M rows, all
// in ELL vs all in COO): a COO entry took 1.66x (double) / 1.87x (float) the time of an ELL
// slot, i.e. 1.25x per byte. On three powerlaw matrices (2-4M rows, 24-32M nonzeros, tail
// exponents 1.5, 2, 3) the K it picks ran within 1% of the fastest K in 4 of 6 cases
// (precision x matrix), 2% and 9.5% slower in the other two (double; there a narrower K won:
// the random x gathers, not the bytes, dominate); a cost of 2 was up to 13% slower.
// Raising K by one adds R slots and removes one COO entry from each row longer than K, so the
// minimum is where the share of rows longer than K drops to (s+4) / (1.25 (s+8)): 8/15 of the
// rows for float, 3/5 for double. Unlike CUSP (whose "fewer than 4096 spilling rows"
// breakeven gives K = 0 for every matrix under 4096 rows, cusplibrary #93) or Ginkgo
// (K <= rows/1000), the rule is scale-free: K > 0 as soon as more than that share of the rows
// is non-empty, whatever the size, so a small regular matrix stays (almost) all in ELL. A
// fixed spmv.hyb_width = N >= 0 is used as given, clamped to the longest row.
//
// The ELL part's size guard is the size rule of ellpack_layout.hpp (no fill refusal: the
// rule bounds the padding, and a fixed width is the user's explicit choice).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "spmv/formats/ellpack_layout.hpp"

namespace spk {

constexpr double hyb_coo_relative_cost = 1.25;

// One bar of the row-length histogram: `rows` rows have exactly `length` entries.
struct RowLengthCount {
  index_t length = 0;
  std::int64_t rows = 0;
};
// The bars with rows > 0, by increasing length (compact: a single dense row of a huge
// matrix adds one bar, not one per length).
using RowLengthHistogram = std::vector<RowLengthCount>;

template <class T>
RowLengthHistogram row_length_histogram(const CsrMatrix<T>& matrix);

struct HybWidthChoice {
  index_t width = 0;             // K
  std::int64_t ell_entries = 0;  // nonzeros in the ELL part
  std::int64_t coo_entries = 0;  // nonzeros in the COO part
  std::int64_t coo_rows = 0;     // rows with entries in the COO part (len > K)
  std::string rule;              // how K was chosen, for details()
};

// bytes(K) of the header comment for one K.
double hyb_estimated_bytes(const RowLengthHistogram& histogram, index_t width,
                           std::size_t value_bytes);
// requested_width: -1 = the rule; N >= 0 = N clamped to the longest row; anything else
// throws BadInput naming spmv.hyb_width.
HybWidthChoice choose_hyb_width(const RowLengthHistogram& histogram, std::size_t value_bytes,
                                int requested_width);

template <class T>
struct CooPart {
  std::vector<index_t> rows;  // sorted ascending
  std::vector<index_t> columns;
  std::vector<T> values;
  std::int64_t entries() const { return static_cast<std::int64_t>(rows.size()); }
};

template <class T>
struct HybLayout {
  EllpackLayout<T> ell;
  CooPart<T> coo;
  HybWidthChoice choice;
};

template <class T>
HybLayout<T> to_hyb(const CsrMatrix<T>& matrix, int requested_width,
                    const EllPaddingLimits& limits);

// y = A x on the layout: the ELL part writes every y[i], then the COO entries are added in
// order (the GPU adds them in an unspecified order: the last bits of y may differ).
template <class T>
void hyb_reference_spmv(const HybLayout<T>& layout, const T* x, T* y);

}  // namespace spk
