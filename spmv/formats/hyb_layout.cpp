#include "spmv/formats/hyb_layout.hpp"

#include <algorithm>

#include "spkrylov/errors.hpp"

namespace spk {

namespace {

// What spills into COO at width K: coo(K) entries from `rows` rows.
struct Overflow {
  std::int64_t entries = 0;
  std::int64_t rows = 0;
};

Overflow overflow_at(const RowLengthHistogram& histogram, index_t width) {
  Overflow overflow;
  for (const RowLengthCount& bar : histogram)
    if (bar.length > width) {
      overflow.entries += bar.rows * (std::int64_t{bar.length} - width);
      overflow.rows += bar.rows;
    }
  return overflow;
}

std::int64_t total_rows(const RowLengthHistogram& histogram) {
  std::int64_t rows = 0;
  for (const RowLengthCount& bar : histogram) rows += bar.rows;
  return rows;
}

std::int64_t total_entries(const RowLengthHistogram& histogram) {
  std::int64_t entries = 0;
  for (const RowLengthCount& bar : histogram) entries += bar.rows * bar.length;
  return entries;
}

double estimated_bytes(std::int64_t rows, index_t width, std::int64_t coo_entries,
                       std::size_t value_bytes) {
  const double ell_slot = static_cast<double>(value_bytes + sizeof(index_t));
  const double coo_entry = static_cast<double>(value_bytes + 2 * sizeof(index_t));
  return static_cast<double>(rows) * width * ell_slot +
         static_cast<double>(coo_entries) * coo_entry * hyb_coo_relative_cost;
}

// The rule: K = argmin bytes(K) over K = 0 and every distinct row length, smallest on ties.
index_t width_by_cost(const RowLengthHistogram& histogram, std::size_t value_bytes) {
  const std::int64_t rows = total_rows(histogram);
  // Walk the bars from the longest down, keeping the rows and entries longer than K.
  std::int64_t longer_rows = 0, longer_entries = 0;
  std::vector<double> bytes_at_bar(histogram.size());
  for (std::size_t bar = histogram.size(); bar-- > 0;) {
    const index_t width = histogram[bar].length;
    bytes_at_bar[bar] =
        estimated_bytes(rows, width, longer_entries - longer_rows * width, value_bytes);
    longer_rows += histogram[bar].rows;
    longer_entries += histogram[bar].rows * histogram[bar].length;
  }
  index_t best_width = 0;
  double best = estimated_bytes(rows, 0, total_entries(histogram), value_bytes);
  for (std::size_t bar = 0; bar < histogram.size(); ++bar)
    if (bytes_at_bar[bar] < best) {
      best = bytes_at_bar[bar];
      best_width = histogram[bar].length;
    }
  return best_width;
}

}  // namespace

template <class T>
RowLengthHistogram row_length_histogram(const CsrMatrix<T>& matrix) {
  std::vector<index_t> lengths(static_cast<std::size_t>(matrix.rows));
  for (index_t row = 0; row < matrix.rows; ++row) lengths[row] = matrix.row_length(row);
  std::sort(lengths.begin(), lengths.end());
  RowLengthHistogram histogram;
  for (const index_t length : lengths) {
    if (histogram.empty() || histogram.back().length != length)
      histogram.push_back(RowLengthCount{length, 0});
    ++histogram.back().rows;
  }
  return histogram;
}

double hyb_estimated_bytes(const RowLengthHistogram& histogram, index_t width,
                           std::size_t value_bytes) {
  return estimated_bytes(total_rows(histogram), width, overflow_at(histogram, width).entries,
                         value_bytes);
}

HybWidthChoice choose_hyb_width(const RowLengthHistogram& histogram, std::size_t value_bytes,
                                int requested_width) {
  if (requested_width < -1)
    throw BadInput("spmv.hyb_width: " + std::to_string(requested_width) +
                   " is invalid (an ELL width >= 0, or -1 for the histogram rule)");
  const index_t longest = histogram.empty() ? 0 : histogram.back().length;
  HybWidthChoice choice;
  if (requested_width >= 0) {
    choice.width = std::min<index_t>(requested_width, longest);
    choice.rule = "spmv.hyb_width = " + std::to_string(requested_width);
    if (choice.width != requested_width)
      choice.rule += " (clamped to the longest row, " + std::to_string(longest) + ")";
  } else {
    choice.width = width_by_cost(histogram, value_bytes);
    choice.rule = "histogram: min estimated bytes, COO byte cost x1.25";
  }
  const Overflow overflow = overflow_at(histogram, choice.width);
  choice.coo_entries = overflow.entries;
  choice.coo_rows = overflow.rows;
  choice.ell_entries = total_entries(histogram) - overflow.entries;
  return choice;
}

template <class T>
HybLayout<T> to_hyb(const CsrMatrix<T>& matrix, int requested_width,
                    const EllPaddingLimits& limits) {
  HybLayout<T> layout;
  layout.choice = choose_hyb_width(row_length_histogram(matrix), sizeof(T), requested_width);
  const index_t width = layout.choice.width;
  layout.ell = to_ellpack_with_width(matrix, width, limits);
  const std::size_t coo_entries = static_cast<std::size_t>(layout.choice.coo_entries);
  layout.coo.rows.reserve(coo_entries);
  layout.coo.columns.reserve(coo_entries);
  layout.coo.values.reserve(coo_entries);
  for (index_t row = 0; row < matrix.rows; ++row)
    for (std::int64_t entry = std::int64_t{matrix.row_offsets[row]} + width;
         entry < matrix.row_offsets[row + 1]; ++entry) {
      layout.coo.rows.push_back(row);
      layout.coo.columns.push_back(matrix.columns[entry]);
      layout.coo.values.push_back(matrix.values[entry]);
    }
  return layout;
}

template <class T>
void hyb_reference_spmv(const HybLayout<T>& layout, const T* x, T* y) {
  ellpack_reference_spmv(layout.ell, x, y);
  for (std::size_t entry = 0; entry < layout.coo.rows.size(); ++entry)
    y[layout.coo.rows[entry]] += layout.coo.values[entry] * x[layout.coo.columns[entry]];
}

#define SPK_INSTANTIATE_HYB_LAYOUT(T)                                              \
  template RowLengthHistogram row_length_histogram(const CsrMatrix<T>&);           \
  template HybLayout<T> to_hyb(const CsrMatrix<T>&, int, const EllPaddingLimits&); \
  template void hyb_reference_spmv(const HybLayout<T>&, const T*, T*);

SPK_INSTANTIATE_HYB_LAYOUT(float)
SPK_INSTANTIATE_HYB_LAYOUT(double)
#undef SPK_INSTANTIATE_HYB_LAYOUT

}  // namespace spk
