#pragma once
// CompressedRowsOperator<T>: a block whose rows are mostly empty, stored without them. A
// process's halo block has entries only in the rows that touch other processes' columns
// (a z-slab of a 3-D grid: 1 row in 128 for 256^3 on 2 GPUs), yet a format over all its rows
// reads every row's length and reads and writes every y: at 8.4M rows that was a fifth of
// the product. Here the non-empty rows form a small matrix in any SpMV format, and
//
//   y = beta y                        (skipped for beta = 1, the halo product's case)
//   t = A_rows x                      (the backend, over the non-empty rows only)
//   y[rows[k]] += alpha t[k]          (one scatter; the rows are distinct)
//
// all on the backend's stream.
#include <memory>
#include <string>
#include <vector>

#include "core/device_buffer.hpp"
#include "spmv/host/csr_matrix.hpp"
#include "spmv/spmv_backend.hpp"

namespace spk {

// The rows of `matrix` that hold entries, and `matrix` without its empty rows.
template <class T>
struct NonEmptyRows {
  std::vector<index_t> rows;
  CsrMatrix<T> matrix;
};
template <class T>
NonEmptyRows<T> drop_empty_rows(const CsrMatrix<T>& matrix);

template <class T>
class CompressedRowsOperator final : public LinearOperator<T> {
 public:
  // backend: built from drop_empty_rows(...).matrix; full_rows: the rows of the whole block.
  CompressedRowsOperator(std::unique_ptr<SpmvBackend<T>> backend, const std::vector<index_t>& rows,
                         index_t full_rows);
  // The same with the rows already on the device (ascending local ids, as
  // generate_device_grid_rows gives them: device_grid_rows.hpp).
  CompressedRowsOperator(std::unique_ptr<SpmvBackend<T>> backend, DeviceBuffer<index_t> rows,
                         index_t full_rows);

  void apply_scaled(T alpha, const T* x, T beta, T* y) const override;
  index_t rows() const override { return full_rows_; }
  index_t cols() const override { return backend_->cols(); }
  std::string name() const override { return backend_->name() + " (non-empty rows)"; }
  SpmvBackend<T>& backend() { return *backend_; }
  const SpmvBackend<T>& backend() const { return *backend_; }

 private:
  std::unique_ptr<SpmvBackend<T>> backend_;
  DeviceBuffer<index_t> rows_;
  mutable DeviceBuffer<T> product_;  // t
  index_t full_rows_;
};

}  // namespace spk
