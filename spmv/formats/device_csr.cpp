#include "spmv/formats/device_csr.hpp"

namespace spk {

std::size_t csr_bytes_per_spmv(index_t rows, index_t cols, std::size_t stored_entries,
                               std::size_t value_bytes) {
  const auto row_count = static_cast<std::size_t>(rows);
  const auto col_count = static_cast<std::size_t>(cols);
  return stored_entries * (value_bytes + sizeof(index_t)) + (row_count + 1) * sizeof(index_t) +
         col_count * value_bytes + row_count * value_bytes;
}

template <class T>
DeviceCsrPattern::DeviceCsrPattern(const CsrMatrix<T>& matrix, const std::string& format)
    : rows_(matrix.rows),
      cols_(matrix.cols),
      row_offsets_(matrix.row_offsets, format + " row offsets"),
      columns_(matrix.columns, format + " column indices") {}

template DeviceCsrPattern::DeviceCsrPattern(const CsrMatrix<float>&, const std::string&);
template DeviceCsrPattern::DeviceCsrPattern(const CsrMatrix<double>&, const std::string&);

}  // namespace spk
