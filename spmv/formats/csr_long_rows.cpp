#include "spmv/formats/csr_long_rows.hpp"

namespace spk {

void append_long_row(CsrLongRows& long_rows, index_t row, std::int64_t begin, std::int64_t end) {
  const index_t chunks = long_row_chunk_count(begin, end);
  const auto slot = static_cast<index_t>(long_rows.rows.size());
  long_rows.rows.push_back(row);
  long_rows.chunk_offsets.push_back(long_rows.chunk_offsets.back() + chunks);
  long_rows.chunk_rows.insert(long_rows.chunk_rows.end(), static_cast<std::size_t>(chunks), slot);
}

CsrLongRows find_long_rows(const std::vector<index_t>& row_offsets, index_t long_row_length) {
  CsrLongRows long_rows;
  for (std::size_t row = 0; row + 1 < row_offsets.size(); ++row) {
    const index_t begin = row_offsets[row], end = row_offsets[row + 1];
    if (end - begin > long_row_length)
      append_long_row(long_rows, static_cast<index_t>(row), begin, end);
  }
  return long_rows;
}

template <class T>
void csr_long_rows_reference_spmv(const CsrMatrix<T>& matrix, const CsrLongRows& long_rows,
                                  const T* x, T* y) {
  long_rows_reference_spmv(
      long_rows,
      [&](std::size_t slot) {
        const index_t row = long_rows.rows[slot];
        return EntryRange{matrix.row_offsets[row], matrix.row_offsets[row + 1]};
      },
      matrix.values.data(), matrix.columns.data(), x, y);
}

template void csr_long_rows_reference_spmv(const CsrMatrix<float>&, const CsrLongRows&,
                                           const float*, float*);
template void csr_long_rows_reference_spmv(const CsrMatrix<double>&, const CsrLongRows&,
                                           const double*, double*);

}  // namespace spk
