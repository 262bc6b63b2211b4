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
DeviceCsr<T>::DeviceCsr(const CsrMatrix<T>& matrix, const std::string& format)
    : pattern_(matrix),
      row_offsets_(matrix.row_offsets, format + " row offsets"),
      columns_(matrix.columns, format + " column indices"),
      values_(matrix.values, format + " values") {}

template <class T>
std::size_t DeviceCsr<T>::device_bytes() const {
  return row_offsets_.bytes() + columns_.bytes() + values_.bytes();
}

template <class T>
std::size_t DeviceCsr<T>::bytes_per_spmv() const {
  return csr_bytes_per_spmv(rows(), cols(), static_cast<std::size_t>(nnz()), sizeof(T));
}

template <class T>
void DeviceCsr<T>::update_values(const CsrMatrix<T>& matrix, cudaStream_t stream,
                                 const std::string& format) {
  pattern_.check_same(matrix, format);
  if (values_.size() == 0) return;
  SPK_CUDA_CHECK(cudaMemcpyAsync(values_.data(), matrix.values.data(), values_.bytes(),
                                 cudaMemcpyHostToDevice, stream));
  SPK_CUDA_CHECK(cudaStreamSynchronize(stream));
}

template class DeviceCsr<float>;
template class DeviceCsr<double>;

}  // namespace spk
