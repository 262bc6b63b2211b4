#include "solver/amg/device_transpose.hpp"

#include <algorithm>

#include "core/cuda_check.hpp"

namespace spk {

namespace {

// One cusparseCsr2cscEx2 call (or its workspace query when workspace_bytes is not null).
void convert(const DeviceSetupContext& context, const DeviceCsrMatrix<double>& a,
             DeviceCsrMatrix<double>& t, void* workspace, std::size_t* workspace_bytes) {
  if (workspace_bytes != nullptr) {
    SPK_CUSPARSE_CHECK(cusparseCsr2cscEx2_bufferSize(
        context.cusparse(), a.rows, a.cols, a.nnz(), a.values.data(), a.row_offsets.data(),
        a.columns.data(), t.values.data(), t.row_offsets.data(), t.columns.data(), CUDA_R_64F,
        CUSPARSE_ACTION_NUMERIC, CUSPARSE_INDEX_BASE_ZERO, CUSPARSE_CSR2CSC_ALG1, workspace_bytes));
    return;
  }
  SPK_CUSPARSE_CHECK(cusparseCsr2cscEx2(
      context.cusparse(), a.rows, a.cols, a.nnz(), a.values.data(), a.row_offsets.data(),
      a.columns.data(), t.values.data(), t.row_offsets.data(), t.columns.data(), CUDA_R_64F,
      CUSPARSE_ACTION_NUMERIC, CUSPARSE_INDEX_BASE_ZERO, CUSPARSE_CSR2CSC_ALG1, workspace));
}

}  // namespace

DeviceTranspose::DeviceTranspose(const DeviceCsrMatrix<double>& a, DeviceCsrMatrix<double>& t,
                                 const DeviceSetupContext& context)
    : context_(context) {
  t.rows = a.cols;
  t.cols = a.rows;
  t.row_offsets = DeviceBuffer<index_t>(static_cast<std::size_t>(a.cols) + 1, "transpose offsets");
  t.columns = DeviceBuffer<index_t>(a.columns.size(), "transpose columns");
  t.values = DeviceBuffer<double>(a.values.size(), "transpose values");
  std::size_t bytes = 0;
  convert(context_, a, t, nullptr, &bytes);
  workspace_ = DeviceBuffer<unsigned char>(std::max<std::size_t>(bytes, 1), "transpose workspace");
  // cleared once, so that no read of cuSPARSE's in it sees an unwritten word (initcheck)
  SPK_CUDA_CHECK(cudaMemsetAsync(workspace_.data(), 0, workspace_.bytes(), context_.stream()));
  convert(context_, a, t, workspace_.data(), nullptr);
}

void DeviceTranspose::compute(const DeviceCsrMatrix<double>& a, DeviceCsrMatrix<double>& t) {
  convert(context_, a, t, workspace_.data(), nullptr);  // t = A^T, values and pattern
}

}  // namespace spk
