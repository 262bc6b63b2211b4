#pragma once
// The CPU reference SpMV: y = A x (reference_spmv) or y = alpha A x + beta y
// (reference_spmv_scaled) on a host CsrMatrix, accumulated in the vectors' precision (use
// CsrMatrix<double> for an fp64 reference). OpenMP over rows.
#include <string>
#include <vector>

#include "spmv/host/csr_matrix.hpp"
#include "spmv/host/fp32_values.hpp"
#include "spmv/linear_operator.hpp"

namespace spk {

// y = alpha A x + beta y on CSR-shaped arrays (row r holds entries [row_offsets[r],
// row_offsets[r + 1]) of columns and values); with beta == 0, y is only written (a NaN in y
// does not leak). Also the reference of layouts that are CSR with padding (aligned-csr).
// Values of type Value (T, or float under double), each product and sum in T.
template <class Value, class T>
void reference_csr_arrays_spmv(index_t rows, const index_t* row_offsets, const index_t* columns,
                               const Value* values, T alpha, const T* x, T beta, T* y) {
#pragma omp parallel for schedule(static)
  for (index_t row = 0; row < rows; ++row) {
    T sum = T(0);
    for (index_t k = row_offsets[row]; k < row_offsets[row + 1]; ++k)
      sum += static_cast<T>(values[k]) * x[columns[k]];
    y[row] = beta == T(0) ? alpha * sum : alpha * sum + beta * y[row];
  }
}

// y = alpha A x + beta y; with beta == 0, y is only written (a NaN in y does not leak).
template <class T>
void reference_spmv_scaled(const CsrMatrix<T>& matrix, T alpha, const T* x, T beta, T* y) {
  reference_csr_arrays_spmv(matrix.rows, matrix.row_offsets.data(), matrix.columns.data(),
                            matrix.values.data(), alpha, x, beta, y);
}

// y = A x.
template <class T>
void reference_spmv(const CsrMatrix<T>& matrix, const T* x, T* y) {
  reference_spmv_scaled(matrix, T(1), x, T(0), y);
}

// A host CSR matrix as a LinearOperator: the operator of the CPU reference path.
template <class T>
class HostCsrOperator final : public LinearOperator<T> {
 public:
  explicit HostCsrOperator(const CsrMatrix<T>& matrix) : matrix_(matrix) {}
  void apply_scaled(T alpha, const T* x, T beta, T* y) const override {
    reference_spmv_scaled(matrix_, alpha, x, beta, y);
  }
  index_t rows() const override { return matrix_.rows; }
  index_t cols() const override { return matrix_.cols; }
  std::string name() const override { return "cpu-csr"; }
  const CsrMatrix<T>& matrix() const { return matrix_; }

 private:
  const CsrMatrix<T>& matrix_;
};

// The CPU path of spmv.matrix_values single (precision mixed): the values rounded to fp32 once
// (fp32_values: refused when one does not fit), each product and sum in fp64.
class HostFp32ValuesOperator final : public LinearOperator<double> {
 public:
  explicit HostFp32ValuesOperator(const CsrMatrix<double>& matrix)
      : matrix_(matrix), values_(fp32_values(matrix)) {}
  void apply_scaled(double alpha, const double* x, double beta, double* y) const override {
    reference_csr_arrays_spmv(matrix_.rows, matrix_.row_offsets.data(), matrix_.columns.data(),
                              values_.data(), alpha, x, beta, y);
  }
  index_t rows() const override { return matrix_.rows; }
  index_t cols() const override { return matrix_.cols; }
  std::string name() const override { return "cpu-csr/fp32-values"; }
  // The matrix's values changed (same pattern): round them again.
  void refresh() { values_ = fp32_values(matrix_); }

 private:
  const CsrMatrix<double>& matrix_;
  std::vector<float> values_;
};

}  // namespace spk
