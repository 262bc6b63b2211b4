#pragma once
// DeviceCsrPattern: the row offsets and column indices of a CSR matrix in device memory, a
// device-to-device copy of a DeviceCsr's (spmv/device/device_csr.hpp); shared by csr-scalar,
// csr-vector and cusparse (their values, in CSR order, are held by the backend).
//
// CSR byte model of one SpMV (csr_bytes_per_spmv), used by every CSR-family backend:
//   stored_entries * (sizeof(Value) + sizeof(index_t))   values and column indices, read once
//   + (rows + 1) * sizeof(index_t)                        row offsets (or padded row starts)
//   + cols * sizeof(T)                                    x, read once
//   + rows * sizeof(T)                                    y, written once
// (Value, the stored values' type; T, the vectors'.)
// aligned-csr passes its padded entry count as stored_entries.
#include <cuda_runtime.h>

#include <cstddef>
#include <string>

#include "core/device_buffer.hpp"
#include "spmv/device/device_csr.hpp"

namespace spk {

std::size_t csr_bytes_per_spmv(index_t rows, index_t cols, std::size_t stored_entries,
                               std::size_t value_bytes, std::size_t vector_bytes);

class DeviceCsrPattern {
 public:
  // Copies `matrix`'s row offsets and column indices on `stream`; `format` names the backend in
  // allocation errors.
  template <class T>
  DeviceCsrPattern(const DeviceCsr<T>& matrix, const std::string& format, cudaStream_t stream);

  index_t rows() const { return rows_; }
  index_t cols() const { return cols_; }
  index_t nnz() const { return static_cast<index_t>(columns_.size()); }
  const index_t* row_offsets() const { return row_offsets_.data(); }
  const index_t* columns() const { return columns_.data(); }

  // row_offsets + columns.
  std::size_t device_bytes() const { return row_offsets_.bytes() + columns_.bytes(); }
  // csr_bytes_per_spmv for values of `value_bytes` and vector entries of `vector_bytes` bytes.
  std::size_t bytes_per_spmv(std::size_t value_bytes, std::size_t vector_bytes) const {
    return csr_bytes_per_spmv(rows_, cols_, static_cast<std::size_t>(nnz()), value_bytes,
                              vector_bytes);
  }

 private:
  index_t rows_;
  index_t cols_;
  DeviceBuffer<index_t> row_offsets_;
  DeviceBuffer<index_t> columns_;
};

}  // namespace spk
