#include "spmv/formats/aligned_csr_layout.hpp"

#include <string>

#include "spkrylov/errors.hpp"
#include "spmv/formats/csr_launch_policy.hpp"
#include "spmv/host/reference_spmv.hpp"

namespace spk {

void check_aligned_csr_size(std::int64_t padded_total, int group_size) {
  check_index_range(padded_total, "aligned-csr padded entries (" + std::to_string(group_size) +
                                      " threads per row)");
}

std::vector<index_t> aligned_csr_row_starts(const std::vector<index_t>& row_offsets,
                                            int group_size) {
  check_threads_per_row(group_size, "aligned-csr");
  if (row_offsets.empty()) return {0};
  std::int64_t padded_total = 0;
  for (std::size_t row = 0; row + 1 < row_offsets.size(); ++row)
    padded_total += aligned_csr_padded_length(row_offsets[row + 1] - row_offsets[row], group_size);
  check_aligned_csr_size(padded_total, group_size);

  std::vector<index_t> row_starts(row_offsets.size());
  std::int64_t start = 0;
  for (std::size_t row = 0; row + 1 < row_offsets.size(); ++row) {
    row_starts[row] = static_cast<index_t>(start);
    start += aligned_csr_padded_length(row_offsets[row + 1] - row_offsets[row], group_size);
  }
  row_starts.back() = static_cast<index_t>(start);
  return row_starts;
}

ValueSlots aligned_csr_value_slots(const std::vector<index_t>& row_offsets,
                                   const std::vector<index_t>& row_starts) {
  const std::size_t rows = row_offsets.empty() ? 0 : row_offsets.size() - 1;
  ValueSlots slots(row_offsets.empty() ? 0 : static_cast<std::size_t>(row_offsets.back()));
  for (std::size_t row = 0; row < rows; ++row)
    for (index_t slot = row_starts[row]; slot < row_starts[row + 1]; ++slot) {
      const AlignedCsrSlot held =
          aligned_csr_slot(row_offsets[row], row_offsets[row + 1], row_starts[row], slot);
      if (!held.padding)
        slots[static_cast<std::size_t>(held.entry)] = static_cast<std::uint64_t>(slot);
    }
  return slots;
}

template <class T>
AlignedCsrLayout<T> to_aligned_csr(const CsrMatrix<T>& matrix, int group_size) {
  AlignedCsrLayout<T> layout;
  layout.rows = matrix.rows;
  layout.cols = matrix.cols;
  layout.group_size = group_size;
  layout.nnz = matrix.nnz();
  layout.row_starts = aligned_csr_row_starts(matrix.row_offsets, group_size);
  const auto padded = static_cast<std::size_t>(layout.padded_entries());
  layout.columns.assign(padded, 0);
  layout.values.assign(padded, T(0));
  for (index_t row = 0; row < matrix.rows; ++row)
    for (index_t slot = layout.row_starts[row]; slot < layout.row_starts[row + 1]; ++slot) {
      const AlignedCsrSlot held = aligned_csr_slot(
          matrix.row_offsets[row], matrix.row_offsets[row + 1], layout.row_starts[row], slot);
      layout.columns[slot] = matrix.columns[held.entry];
      layout.values[slot] = held.padding ? T(0) : matrix.values[held.entry];
    }
  return layout;
}

template <class T>
void aligned_csr_reference_spmv(const AlignedCsrLayout<T>& layout, const T* x, T* y) {
  reference_csr_arrays_spmv(layout.rows, layout.row_starts.data(), layout.columns.data(),
                            layout.values.data(), T(1), x, T(0), y);
}

template AlignedCsrLayout<float> to_aligned_csr(const CsrMatrix<float>&, int);
template AlignedCsrLayout<double> to_aligned_csr(const CsrMatrix<double>&, int);
template void aligned_csr_reference_spmv(const AlignedCsrLayout<float>&, const float*, float*);
template void aligned_csr_reference_spmv(const AlignedCsrLayout<double>&, const double*, double*);

}  // namespace spk
