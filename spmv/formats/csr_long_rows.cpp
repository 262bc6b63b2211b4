#include "spmv/formats/csr_long_rows.hpp"

namespace spk {

CsrLongRows find_long_rows(const std::vector<index_t>& row_offsets, index_t long_row_length) {
  CsrLongRows long_rows;
  for (std::size_t row = 0; row + 1 < row_offsets.size(); ++row) {
    const index_t begin = row_offsets[row], end = row_offsets[row + 1];
    if (end - begin <= long_row_length) continue;
    const index_t chunks = long_row_chunk_count(begin, end);
    const auto slot = static_cast<index_t>(long_rows.rows.size());
    long_rows.rows.push_back(static_cast<index_t>(row));
    long_rows.chunk_offsets.push_back(long_rows.chunk_offsets.back() + chunks);
    long_rows.chunk_rows.insert(long_rows.chunk_rows.end(), static_cast<std::size_t>(chunks), slot);
  }
  return long_rows;
}

template <class T>
void csr_long_rows_reference_spmv(const CsrMatrix<T>& matrix, const CsrLongRows& long_rows,
                                  const T* x, T* y) {
  for (std::size_t slot = 0; slot < long_rows.rows.size(); ++slot) {
    const index_t row = long_rows.rows[slot];
    T row_sum = T(0);
    for (index_t chunk = long_rows.chunk_offsets[slot]; chunk < long_rows.chunk_offsets[slot + 1];
         ++chunk) {
      const auto [begin, end] =
          long_row_chunk_range(matrix.row_offsets[row], matrix.row_offsets[row + 1],
                               chunk - long_rows.chunk_offsets[slot]);
      T partial = T(0);
      for (index_t k = begin; k < end; ++k) partial += matrix.values[k] * x[matrix.columns[k]];
      row_sum += partial;
    }
    y[row] = row_sum;
  }
}

template void csr_long_rows_reference_spmv(const CsrMatrix<float>&, const CsrLongRows&,
                                           const float*, float*);
template void csr_long_rows_reference_spmv(const CsrMatrix<double>&, const CsrLongRows&,
                                           const double*, double*);

}  // namespace spk
