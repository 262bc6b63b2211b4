#pragma once
// The two CSR matrices in device memory, one that looks and one that owns (the host has
// CsrMatrix, spmv/host/csr_matrix.hpp; a process's rows of a distributed matrix, RowBlock,
// spmv/host/row_block.hpp):
//
//   DeviceCsr<T>          a view: sizes, three device pointers it does not own, and the row
//                         statistics, computed on the device. What every format's device
//                         builder reads (the one input of make_spmv_backend, spmv/registry.hpp);
//                         a backend copies what it keeps, so the arrays need to outlive only
//                         the build.
//   DeviceCsrMatrix<T>    an owner: the three arrays in device buffers. A host matrix uploaded
//                         once (to_device), the pattern a CSR-family format keeps (copy_pattern:
//                         no values, the format holds them in its own slots), the AMG
//                         hierarchy's levels (solver/amg, double).
//
// describe_device_csr makes the view of device arrays whose row offsets are valid (a caller's
// CsrArrays with on_device, checked first by spmv/device/csr_checks.hpp; or an owner's): it
// reads nnz and the row statistics back, a few integers, nothing else leaves the device. Every
// host matrix reaches the formats through to_device and that view, so there is one layout code
// path: the device's.
#include <cuda_runtime.h>

#include <cstddef>
#include <string>

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

template <class T>
struct DeviceCsrMatrix {
  index_t rows = 0;
  index_t cols = 0;
  DeviceBuffer<index_t> row_offsets;  // rows + 1 entries
  DeviceBuffer<index_t> columns;      // nnz entries
  DeviceBuffer<T> values;             // nnz entries, or none for a pattern (copy_pattern)

  index_t nnz() const { return static_cast<index_t>(columns.size()); }
  std::size_t device_bytes() const {
    return row_offsets.bytes() + columns.bytes() + values.bytes();
  }
};

// The DeviceCsr of device arrays whose row offsets are valid (start at 0, never decrease):
// nnz = row_offsets[rows] and the row statistics are computed on `stream` and read back.
template <class T>
DeviceCsr<T> describe_device_csr(index_t rows, index_t cols, const index_t* row_offsets,
                                 const index_t* columns, const T* values, cudaStream_t stream);
template <class T>
DeviceCsr<T> describe_device_csr(const DeviceCsrMatrix<T>& matrix, cudaStream_t stream);

// A host CsrMatrix copied to the device (synchronous); `what` names it in allocation errors.
template <class T>
DeviceCsrMatrix<T> to_device(const CsrMatrix<T>& matrix, const std::string& what);
// The row offsets and columns of `matrix`, copied on `stream`, without values; `what` names it
// in allocation errors.
template <class T>
DeviceCsrMatrix<T> copy_pattern(const DeviceCsr<T>& matrix, const std::string& what,
                                cudaStream_t stream);

// The whole matrix back on the host (the CPU path of device arrays, `auto`'s fingerprint,
// the AMG coarsest level, tests).
template <class T>
CsrMatrix<T> download_csr(const DeviceCsr<T>& matrix, cudaStream_t stream);
template <class T>
CsrMatrix<T> to_host(const DeviceCsrMatrix<T>& matrix, cudaStream_t stream);

}  // namespace spk
