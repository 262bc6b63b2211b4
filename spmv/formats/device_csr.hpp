#pragma once
// DeviceCsr<T>: a CSR matrix in device memory (row_offsets, columns, values as uploaded from a
// host CsrMatrix), shared by the csr-scalar, csr-vector and cusparse backends. It keeps the
// host copy of the sparsity pattern so that update_values() can check it without a readback.
//
// CSR byte model of one SpMV (csr_bytes_per_spmv), used by every CSR-family backend:
//   stored_entries * (sizeof(T) + sizeof(index_t))   values and column indices, read once
//   + (rows + 1) * sizeof(index_t)                    row offsets (or padded row starts)
//   + cols * sizeof(T)                                x, read once
//   + rows * sizeof(T)                                y, written once
// aligned-csr passes its padded entry count as stored_entries.
#include <cuda_runtime.h>

#include <cstddef>
#include <string>

#include "spmv/base/device_buffer.hpp"
#include "spmv/formats/sparsity_pattern.hpp"
#include "spmv/host/csr_matrix.hpp"

namespace spk {

std::size_t csr_bytes_per_spmv(index_t rows, index_t cols, std::size_t stored_entries,
                               std::size_t value_bytes);

template <class T>
class DeviceCsr {
 public:
  // Uploads `matrix`; `format` names the backend in allocation errors.
  DeviceCsr(const CsrMatrix<T>& matrix, const std::string& format);

  index_t rows() const { return pattern_.rows(); }
  index_t cols() const { return pattern_.cols(); }
  index_t nnz() const { return static_cast<index_t>(columns_.size()); }
  const index_t* row_offsets() const { return row_offsets_.data(); }
  const index_t* columns() const { return columns_.data(); }
  const T* values() const { return values_.data(); }

  // row_offsets + columns + values.
  std::size_t device_bytes() const;
  std::size_t bytes_per_spmv() const;

  // Replaces the values (same pattern; BadInput otherwise). The copy is ordered on `stream`
  // after any apply already queued there, and complete when this returns.
  void update_values(const CsrMatrix<T>& matrix, cudaStream_t stream, const std::string& format);

 private:
  SparsityPattern pattern_;
  DeviceBuffer<index_t> row_offsets_;
  DeviceBuffer<index_t> columns_;
  DeviceBuffer<T> values_;
};

}  // namespace spk
