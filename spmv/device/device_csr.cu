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
DeviceCsr<T> describe_device_csr(const DeviceCsrMatrix<T>& matrix, cudaStream_t stream) {
  return describe_device_csr<T>(matrix.rows, matrix.cols, matrix.row_offsets.data(),
                                matrix.columns.data(), matrix.values.data(), stream);
}

template <class T>
DeviceCsrMatrix<T> to_device(const CsrMatrix<T>& matrix, const std::string& what) {
  DeviceCsrMatrix<T> result;
  result.rows = matrix.rows;
  result.cols = matrix.cols;
  result.row_offsets = DeviceBuffer<index_t>(matrix.row_offsets, what + " row offsets");
  result.columns = DeviceBuffer<index_t>(matrix.columns, what + " column indices");
  result.values = DeviceBuffer<T>(matrix.values, what + " values");
  return result;
}

template <class T>
DeviceCsrMatrix<T> copy_pattern(const DeviceCsr<T>& matrix, const std::string& what,
                                cudaStream_t stream) {
  DeviceCsrMatrix<T> pattern;
  pattern.rows = matrix.rows;
  pattern.cols = matrix.cols;
  pattern.row_offsets = copy_device_array(
      matrix.row_offsets, static_cast<std::size_t>(matrix.rows) + 1, what + " row offsets", stream);
  pattern.columns = copy_device_array(matrix.columns, static_cast<std::size_t>(matrix.nnz),
                                      what + " column indices", stream);
  return pattern;
}

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

template <class T>
CsrMatrix<T> to_host(const DeviceCsrMatrix<T>& matrix, cudaStream_t stream) {
  DeviceCsr<T> view;  // download_csr reads the sizes and the arrays only
  view.rows = matrix.rows;
  view.cols = matrix.cols;
  view.nnz = matrix.nnz();
  view.row_offsets = matrix.row_offsets.data();
  view.columns = matrix.columns.data();
  view.values = matrix.values.data();
  return download_csr(view, stream);
}

#define SPK_INSTANTIATE_DEVICE_CSR(T)                                                              \
  template DeviceCsr<T> describe_device_csr(index_t, index_t, const index_t*, const index_t*,      \
                                            const T*, cudaStream_t);                               \
  template DeviceCsr<T> describe_device_csr(const DeviceCsrMatrix<T>&, cudaStream_t);              \
  template DeviceCsrMatrix<T> to_device(const CsrMatrix<T>&, const std::string&);                  \
  template DeviceCsrMatrix<T> copy_pattern(const DeviceCsr<T>&, const std::string&, cudaStream_t); \
  template CsrMatrix<T> download_csr(const DeviceCsr<T>&, cudaStream_t);                           \
  template CsrMatrix<T> to_host(const DeviceCsrMatrix<T>&, cudaStream_t);
SPK_INSTANTIATE_DEVICE_CSR(float)
SPK_INSTANTIATE_DEVICE_CSR(double)
#undef SPK_INSTANTIATE_DEVICE_CSR

}  // namespace spk
