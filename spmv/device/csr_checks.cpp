#include "spmv/device/csr_checks.hpp"

#include <cmath>

namespace spk {

namespace {

// The row holding entry k: the least r with row_offsets[r + 1] > k.
EntryFact locate(index_t entry, const index_t* row_offsets, const index_t* columns) {
  index_t row = 0;
  while (row_offsets[row + 1] <= entry) ++row;
  return EntryFact{entry, row, columns[entry]};
}

}  // namespace

RowOffsetsFacts row_offsets_facts(index_t rows, const index_t* row_offsets) {
  RowOffsetsFacts facts;
  facts.first = row_offsets[0];
  facts.last = row_offsets[rows];
  for (index_t row = 0; row < rows; ++row)
    if (row_offsets[row + 1] < row_offsets[row]) {
      facts.first_decreasing_row = row;
      break;
    }
  return facts;
}

template <class T>
EntryFacts entry_facts(index_t rows, index_t cols, const index_t* row_offsets,
                       const index_t* columns, const T* values) {
  EntryFacts facts;
  const index_t nnz = row_offsets[rows];
  for (index_t k = 0; k < nnz && !facts.column_out_of_range.found(); ++k)
    if (columns[k] < 0 || columns[k] >= cols)
      facts.column_out_of_range = locate(k, row_offsets, columns);
  for (index_t k = 0; k < nnz && !facts.non_finite_value.found(); ++k)
    if (!std::isfinite(values[k])) facts.non_finite_value = locate(k, row_offsets, columns);
  return facts;
}

template EntryFacts entry_facts(index_t, index_t, const index_t*, const index_t*, const float*);
template EntryFacts entry_facts(index_t, index_t, const index_t*, const index_t*, const double*);

}  // namespace spk
