#include "spmv/formats/ellpack_layout.hpp"

#include <algorithm>
#include <cstdio>
#include <string>

#include "spkrylov/errors.hpp"

namespace spk {

namespace {

std::string format_bytes(double bytes) {
  char text[64];
  if (bytes >= 1024.0 * 1024.0 * 1024.0)
    std::snprintf(text, sizeof(text), "%.2f GiB", bytes / (1024.0 * 1024.0 * 1024.0));
  else
    std::snprintf(text, sizeof(text), "%.2f MiB", bytes / (1024.0 * 1024.0));
  return text;
}

// 3 significant digits, without an exponent for large fill ratios (1303, not 1.3e+03).
std::string format_ratio(double value) {
  char text[32];
  std::snprintf(text, sizeof(text), value < 100.0 ? "%.3g" : "%.0f", value);
  return text;
}

}  // namespace

std::size_t ell_pitch(index_t rows) {
  const std::size_t count = static_cast<std::size_t>(rows);
  return (count + ell_pitch_alignment - 1) / ell_pitch_alignment * ell_pitch_alignment;
}

template <class T>
index_t max_row_length(const CsrMatrix<T>& matrix) {
  index_t longest = 0;
  for (index_t row = 0; row < matrix.rows; ++row)
    longest = std::max(longest, matrix.row_length(row));
  return longest;
}

template <class T>
std::size_t ell_array_bytes(index_t rows, index_t width) {
  constexpr std::size_t slot_bytes = sizeof(T) + sizeof(index_t);
  const std::size_t pitch = ell_pitch(rows);
  const std::size_t slots_per_column = pitch * slot_bytes;  // < 2^35: no overflow
  const std::size_t columns = static_cast<std::size_t>(width);
  if (columns != 0 && slots_per_column > std::numeric_limits<std::size_t>::max() / columns)
    return std::numeric_limits<std::size_t>::max();
  return slots_per_column * columns;
}

template <class T>
void check_ell_size(index_t rows, index_t width, const EllPaddingLimits& limits) {
  const std::size_t bytes = ell_array_bytes<T>(rows, width);
  if (bytes > limits.max_bytes)
    throw BadInput(limits.format + ": padding " + std::to_string(rows) + " rows to " +
                   std::to_string(width) + " slots needs " +
                   format_bytes(static_cast<double>(bytes)) + " of values and column indices, " +
                   "more than the device's " + format_bytes(static_cast<double>(limits.max_bytes)) +
                   "; use spmv.format: hyb or csr");
}

void check_ell_fill(index_t rows, index_t width, std::int64_t nnz, const EllPaddingLimits& limits) {
  const std::int64_t padded = std::int64_t{rows} * width;
  const double fill = nnz == 0 ? 1.0 : static_cast<double>(padded) / static_cast<double>(nnz);
  if (padded > limits.fill_floor && fill > limits.max_fill)
    throw BadInput(limits.format + ": padding every row to the longest row (" +
                   std::to_string(width) + " entries) stores " + std::to_string(padded) +
                   " slots for " + std::to_string(nnz) + " nonzeros, fill ratio " +
                   format_ratio(fill) + " > spmv.max_ell_fill = " + format_ratio(limits.max_fill) +
                   "; use spmv.format: hyb or ellpack-r (or raise spmv.max_ell_fill)");
}

ValueSlots ell_value_slots(const std::vector<index_t>& row_offsets, index_t width,
                           std::size_t pitch) {
  const std::size_t rows = row_offsets.empty() ? 0 : row_offsets.size() - 1;
  ValueSlots slots(row_offsets.empty() ? 0 : static_cast<std::size_t>(row_offsets.back()));
  std::uint64_t tail_start = pitch * static_cast<std::size_t>(width);  // after the ELL slots
  for (std::size_t row = 0; row < rows; ++row) {
    const index_t length = row_offsets[row + 1] - row_offsets[row];
    for (index_t j = 0; j < length; ++j)
      slots[static_cast<std::size_t>(row_offsets[row] + j)] =
          ell_entry_slot(static_cast<index_t>(row), j, width, pitch, tail_start);
    tail_start += static_cast<std::uint64_t>(ell_tail_length(length, width));
  }
  return slots;
}

template <class T>
EllpackLayout<T> to_ellpack_with_width(const CsrMatrix<T>& matrix, index_t width,
                                       const EllPaddingLimits& limits) {
  if (width < 0) throw BadInput(limits.format + ": negative ELL width " + std::to_string(width));
  check_ell_size<T>(matrix.rows, width, limits);
  EllpackLayout<T> layout;
  layout.rows = matrix.rows;
  layout.cols = matrix.cols;
  layout.width = width;
  layout.pitch = ell_pitch(matrix.rows);
  const std::size_t slots = layout.pitch * static_cast<std::size_t>(width);
  layout.columns.assign(slots, ell_padding_column);
  layout.values.assign(slots, T(0));
  for (index_t j = 0; j < width; ++j)
    for (index_t row = 0; row < matrix.rows; ++row) {
      const index_t entry = ell_slot_entry(matrix.row_offsets[row], matrix.row_offsets[row + 1], j);
      if (entry < 0) continue;  // padding
      const std::size_t slot =
          static_cast<std::size_t>(j) * layout.pitch + static_cast<std::size_t>(row);
      layout.columns[slot] = matrix.columns[entry];
      layout.values[slot] = matrix.values[entry];
      ++layout.stored_entries;
    }
  return layout;
}

template <class T>
EllpackLayout<T> to_ellpack(const CsrMatrix<T>& matrix, const EllPaddingLimits& limits) {
  const index_t width = max_row_length(matrix);
  check_ell_fill(matrix.rows, width, matrix.nnz(), limits);
  return to_ellpack_with_width(matrix, width, limits);
}

template <class T>
void ellpack_reference_spmv(const EllpackLayout<T>& layout, const T* x, T* y) {
#pragma omp parallel for schedule(static)
  for (index_t row = 0; row < layout.rows; ++row) {
    T sum = T(0);
    for (index_t slot = 0; slot < layout.width; ++slot) {
      const std::size_t offset =
          static_cast<std::size_t>(slot) * layout.pitch + static_cast<std::size_t>(row);
      const index_t column = layout.columns[offset];
      if (column != ell_padding_column) sum += layout.values[offset] * x[column];
    }
    y[row] = sum;
  }
}

#define SPK_INSTANTIATE_ELLPACK_LAYOUT(T)                                             \
  template index_t max_row_length(const CsrMatrix<T>&);                               \
  template void check_ell_size<T>(index_t, index_t, const EllPaddingLimits&);         \
  template std::size_t ell_array_bytes<T>(index_t, index_t);                          \
  template EllpackLayout<T> to_ellpack(const CsrMatrix<T>&, const EllPaddingLimits&); \
  template EllpackLayout<T> to_ellpack_with_width(const CsrMatrix<T>&, index_t,       \
                                                  const EllPaddingLimits&);           \
  template void ellpack_reference_spmv(const EllpackLayout<T>&, const T*, T*);

SPK_INSTANTIATE_ELLPACK_LAYOUT(float)
SPK_INSTANTIATE_ELLPACK_LAYOUT(double)
#undef SPK_INSTANTIATE_ELLPACK_LAYOUT

}  // namespace spk
