#include "solver/amg/device_csr_matrix.hpp"

namespace spk {

DeviceCsrMatrix to_device(const CsrMatrix<double>& matrix, const std::string& what) {
  DeviceCsrMatrix result;
  result.rows = matrix.rows;
  result.cols = matrix.cols;
  result.row_offsets = DeviceBuffer<index_t>(matrix.row_offsets, what + " row offsets");
  result.columns = DeviceBuffer<index_t>(matrix.columns, what + " columns");
  result.values = DeviceBuffer<double>(matrix.values, what + " values");
  return result;
}

CsrMatrix<double> to_host(const DeviceCsrMatrix& matrix, cudaStream_t stream) {
  SPK_CUDA_CHECK(cudaStreamSynchronize(stream));
  CsrMatrix<double> result;
  result.rows = matrix.rows;
  result.cols = matrix.cols;
  result.row_offsets = matrix.row_offsets.to_host();
  result.columns = matrix.columns.to_host();
  result.values = matrix.values.to_host();
  return result;
}

CusparseSpMatPtr csr_descriptor(const DeviceCsrMatrix& matrix) {
  cusparseConstSpMatDescr_t descriptor = nullptr;
  SPK_CUSPARSE_CHECK(cusparseCreateConstCsr(
      &descriptor, matrix.rows, matrix.cols, matrix.nnz(), matrix.row_offsets.data(),
      matrix.columns.data(), matrix.values.data(), CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
      CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
  return CusparseSpMatPtr(descriptor);
}

}  // namespace spk
