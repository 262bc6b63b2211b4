#pragma once
// DeviceCsr<T>: a CSR matrix in device memory, as every format's device builder reads it (the
// one input of make_spmv_backend, spmv/registry.hpp): its sizes, three device pointers it does
// not own, and its row statistics, computed on the device. A backend copies what it keeps;
// the arrays need to outlive only the build.
//
// Two ways in:
//   describe_device_csr  arrays already on the device (a caller's CsrArrays with on_device,
//                        checked first by spmv/device/csr_checks.hpp): reads nnz and the row
//                        statistics back, a few integers, nothing else leaves the device.
//   UploadedCsr          a host CsrMatrix, copied to the device once (row offsets, columns,
//                        values), then described the same way. Every host matrix reaches the
//                        formats through it, so there is one layout code path: the device's.
#include <cuda_runtime.h>

#include "core/device_buffer.hpp"
#include "spmv/host/csr_matrix.hpp"
#include "spmv/host/matrix_stats.hpp"

namespace spk {

template <class T>
struct DeviceCsr {
  index_t rows = 0;
  index_t cols = 0;
  index_t nnz = 0;
  const index_t* row_offsets = nullptr;  // rows + 1 entries, device memory
  const index_t* columns = nullptr;      // nnz entries, device memory
  const T* values = nullptr;             // nnz entries, device memory
  RowStats stats;                        // row lengths (matrix_stats.hpp), from the device

  bool square() const { return rows == cols; }
};

// The DeviceCsr of device arrays whose row offsets are valid (start at 0, never decrease):
// nnz = row_offsets[rows] and the row statistics are computed on `stream` and read back.
template <class T>
DeviceCsr<T> describe_device_csr(index_t rows, index_t cols, const index_t* row_offsets,
                                 const index_t* columns, const T* values, cudaStream_t stream);

// A host CsrMatrix copied to the device once; view() is its DeviceCsr.
template <class T>
class UploadedCsr {
 public:
  UploadedCsr(const CsrMatrix<T>& matrix, cudaStream_t stream);

  const DeviceCsr<T>& view() const { return view_; }

 private:
  DeviceBuffer<index_t> row_offsets_;
  DeviceBuffer<index_t> columns_;
  DeviceBuffer<T> values_;
  DeviceCsr<T> view_;
};

// The whole matrix back on the host (the CPU path of device arrays, and `auto`'s fingerprint).
template <class T>
CsrMatrix<T> download_csr(const DeviceCsr<T>& matrix, cudaStream_t stream);

}  // namespace spk
