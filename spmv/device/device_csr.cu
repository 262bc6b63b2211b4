#include "spmv/device/device_csr.hpp"
#include "spmv/device/device_row_stats.hpp"

namespace spk {

template <class T>
DeviceCsr<T> describe_device_csr(index_t rows, index_t cols, const index_t* row_offsets,
                                 const index_t* columns, const T* values, cudaStream_t stream) {
  DeviceCsr<T> matrix;
  matrix.rows = rows;
  matrix.cols = cols;
  matrix.row_offsets = row_offsets;
  matrix.columns = columns;
  matrix.values = values;
  matrix.stats = device_row_stats(rows, cols, row_offsets, stream);
  matrix.nnz = static_cast<index_t>(matrix.stats.nnz);
  return matrix;
}

template <class T>
UploadedCsr<T>::UploadedCsr(const CsrMatrix<T>& matrix, cudaStream_t stream)
    : row_offsets_(matrix.row_offsets, "matrix row offsets"),
      columns_(matrix.columns, "matrix column indices"),
      values_(matrix.values, "matrix values"),
      view_(describe_device_csr<T>(matrix.rows, matrix.cols, row_offsets_.data(), columns_.data(),
                                   values_.data(), stream)) {}

template <class T>
CsrMatrix<T> download_csr(const DeviceCsr<T>& matrix, cudaStream_t stream) {
  CsrMatrix<T> host;
  host.rows = matrix.rows;
  host.cols = matrix.cols;
  const auto nnz = static_cast<std::size_t>(matrix.nnz);
  host.row_offsets =
      download_array(matrix.row_offsets, static_cast<std::size_t>(matrix.rows) + 1, stream);
  host.columns = download_array(matrix.columns, nnz, stream);
  host.values = download_array(matrix.values, nnz, stream);
  return host;
}

#define SPK_INSTANTIATE_DEVICE_CSR(T)                                                         \
  template DeviceCsr<T> describe_device_csr(index_t, index_t, const index_t*, const index_t*, \
                                            const T*, cudaStream_t);                          \
  template class UploadedCsr<T>;                                                              \
  template CsrMatrix<T> download_csr(const DeviceCsr<T>&, cudaStream_t);
SPK_INSTANTIATE_DEVICE_CSR(float)
SPK_INSTANTIATE_DEVICE_CSR(double)
#undef SPK_INSTANTIATE_DEVICE_CSR

}  // namespace spk
