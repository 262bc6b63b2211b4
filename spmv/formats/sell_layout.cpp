#include "spmv/formats/sell_layout.hpp"

#include <algorithm>
#include <numeric>

#include "spkrylov/errors.hpp"

namespace spk {

index_t checked_sell_sigma(int sigma) {
  if (sigma < sell_chunk_height || sigma % sell_chunk_height != 0)
    throw BadInput("spmv.sell_sigma: " + std::to_string(sigma) +
                   " is invalid (a multiple of 32, the chunk height, at least 32)");
  return sigma;
}

void check_sell_size(std::uint64_t slots, std::size_t value_bytes, std::size_t max_bytes) {
  const double bytes = static_cast<double>(slots) * static_cast<double>(value_bytes + 4);
  if (slots > 0xffffffffull || bytes > static_cast<double>(max_bytes))
    throw BadInput("sell: the padded chunks and the long rows need " + std::to_string(slots) +
                   " slots (" + std::to_string(bytes / 1e9) +
                   " GB), more than the device or the 32-bit slot map allows; try a larger "
                   "spmv.sell_sigma or hyb");
}

template <class T>
SellLayout<T> to_sell(const CsrMatrix<T>& matrix, index_t sigma, std::size_t max_bytes) {
  return to_sell_with_long_row_length(matrix, sigma,
                                      sell_long_row_length(matrix.rows, matrix.nnz()), max_bytes);
}

template <class T>
SellLayout<T> to_sell_with_long_row_length(const CsrMatrix<T>& matrix, index_t sigma,
                                           index_t long_row_length, std::size_t max_bytes) {
  checked_sell_sigma(sigma);
  SellLayout<T> layout;
  layout.rows = matrix.rows;
  layout.cols = matrix.cols;
  layout.sigma = sigma;
  layout.long_row_length = long_row_length;
  const auto length_of = [&](index_t row) {
    return matrix.row_offsets[row + 1] - matrix.row_offsets[row];
  };
  const auto chunk_length_of = [&](index_t row) {
    return sell_chunk_length(length_of(row), long_row_length);
  };
  std::vector<index_t> order(static_cast<std::size_t>(matrix.rows));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](index_t a, index_t b) {
    return sell_sort_key(a, chunk_length_of(a), sigma) <
           sell_sort_key(b, chunk_length_of(b), sigma);
  });
  const std::size_t chunks =
      (static_cast<std::size_t>(matrix.rows) + sell_chunk_height - 1) / sell_chunk_height;
  const std::size_t positions = chunks * sell_chunk_height;
  layout.permutation.assign(positions, -1);
  layout.row_lengths.assign(positions, 0);
  for (std::size_t p = 0; p < order.size(); ++p) {
    const bool long_row = length_of(order[p]) > long_row_length;
    layout.permutation[p] = long_row ? -1 : order[p];
    layout.row_lengths[p] = chunk_length_of(order[p]);
  }
  layout.chunk_offsets.assign(chunks + 1, 0);
  for (std::size_t c = 0; c < chunks; ++c)
    layout.chunk_offsets[c + 1] =
        layout.chunk_offsets[c] +
        static_cast<std::uint64_t>(layout.row_lengths[c * sell_chunk_height]) * sell_chunk_height;

  // The long rows, packed after the chunks in ascending row order.
  std::uint64_t next_start = layout.chunk_slots();
  for (index_t row = 0; row < matrix.rows; ++row) {
    if (length_of(row) <= long_row_length) continue;
    const std::uint64_t end = next_start + static_cast<std::uint64_t>(length_of(row));
    append_long_row(layout.long_rows, row, static_cast<std::int64_t>(next_start),
                    static_cast<std::int64_t>(end));
    layout.long_row_starts.push_back(next_start);
    next_start = end;
  }
  if (!layout.long_row_starts.empty()) layout.long_row_starts.push_back(next_start);

  check_sell_size(layout.slots(), sizeof(T), max_bytes);
  layout.columns.assign(layout.slots(), -1);
  layout.values.assign(layout.slots(), T(0));
  for (std::size_t p = 0; p < order.size(); ++p) {
    const index_t row = layout.permutation[p];
    if (row < 0) continue;
    const std::uint64_t offset = layout.chunk_offsets[p / sell_chunk_height];
    for (index_t j = 0; j < layout.row_lengths[p]; ++j) {
      const std::uint64_t slot = sell_slot(offset, j, static_cast<index_t>(p));
      layout.columns[slot] = matrix.columns[matrix.row_offsets[row] + j];
      layout.values[slot] = matrix.values[matrix.row_offsets[row] + j];
    }
  }
  for (std::size_t slot = 0; slot < layout.long_rows.rows.size(); ++slot) {
    const index_t row = layout.long_rows.rows[slot];
    std::copy(matrix.columns.begin() + matrix.row_offsets[row],
              matrix.columns.begin() + matrix.row_offsets[row + 1],
              layout.columns.begin() + static_cast<std::ptrdiff_t>(layout.long_row_starts[slot]));
    std::copy(matrix.values.begin() + matrix.row_offsets[row],
              matrix.values.begin() + matrix.row_offsets[row + 1],
              layout.values.begin() + static_cast<std::ptrdiff_t>(layout.long_row_starts[slot]));
  }
  return layout;
}

template <class T>
void sell_reference_spmv(const SellLayout<T>& layout, const T* x, T* y) {
  for (std::size_t p = 0; p < layout.permutation.size(); ++p) {
    const index_t row = layout.permutation[p];
    if (row < 0) continue;  // the last chunk's tail, or a long row
    const std::uint64_t offset = layout.chunk_offsets[p / sell_chunk_height];
    T sum = T(0);
    for (index_t j = 0; j < layout.row_lengths[p]; ++j) {
      const std::uint64_t slot = sell_slot(offset, j, static_cast<index_t>(p));
      sum += layout.values[slot] * x[layout.columns[slot]];
    }
    y[row] = sum;
  }
  long_rows_reference_spmv(
      layout.long_rows,
      [&](std::size_t slot) {
        return EntryRange{static_cast<std::int64_t>(layout.long_row_starts[slot]),
                          static_cast<std::int64_t>(layout.long_row_starts[slot + 1])};
      },
      layout.values.data(), layout.columns.data(), x, y);
}

#define SPK_INSTANTIATE_SELL_LAYOUT(T)                                                       \
  template SellLayout<T> to_sell(const CsrMatrix<T>&, index_t, std::size_t);                 \
  template SellLayout<T> to_sell_with_long_row_length(const CsrMatrix<T>&, index_t, index_t, \
                                                      std::size_t);                          \
  template void sell_reference_spmv(const SellLayout<T>&, const T*, T*);
SPK_INSTANTIATE_SELL_LAYOUT(float)
SPK_INSTANTIATE_SELL_LAYOUT(double)
#undef SPK_INSTANTIATE_SELL_LAYOUT

}  // namespace spk
