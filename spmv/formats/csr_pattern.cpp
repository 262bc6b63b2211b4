#include "spmv/formats/csr_pattern.hpp"

namespace spk {

std::size_t csr_bytes_per_spmv(index_t rows, index_t cols, std::size_t stored_entries,
                               std::size_t value_bytes, std::size_t vector_bytes) {
  const auto row_count = static_cast<std::size_t>(rows);
  const auto col_count = static_cast<std::size_t>(cols);
  return stored_entries * (value_bytes + sizeof(index_t)) + (row_count + 1) * sizeof(index_t) +
         col_count * vector_bytes + row_count * vector_bytes;
}

template <class T>
DeviceCsrPattern::DeviceCsrPattern(const DeviceCsr<T>& matrix, const std::string& format,
                                   cudaStream_t stream)
    : rows_(matrix.rows),
      cols_(matrix.cols),
      row_offsets_(copy_device_array(matrix.row_offsets, static_cast<std::size_t>(matrix.rows) + 1,
                                     format + " row offsets", stream)),
      columns_(copy_device_array(matrix.columns, static_cast<std::size_t>(matrix.nnz),
                                 format + " column indices", stream)) {}

template DeviceCsrPattern::DeviceCsrPattern(const DeviceCsr<float>&, const std::string&,
                                            cudaStream_t);
template DeviceCsrPattern::DeviceCsrPattern(const DeviceCsr<double>&, const std::string&,
                                            cudaStream_t);

}  // namespace spk
