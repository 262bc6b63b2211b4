#pragma once
// The CPU reference SpMV: y = A x on a host CsrMatrix, accumulated in the matrix's
// precision (use CsrMatrix<double> for an fp64 reference). OpenMP over rows.
#include "spmv/host/csr_matrix.hpp"
#include "spmv/linear_operator.hpp"

namespace spk {

template <class T>
void reference_spmv(const CsrMatrix<T>& matrix, const T* x, T* y) {
#pragma omp parallel for schedule(static)
  for (index_t row = 0; row < matrix.rows; ++row) {
    T sum = T(0);
    for (index_t k = matrix.row_offsets[row]; k < matrix.row_offsets[row + 1]; ++k)
      sum += matrix.values[k] * x[matrix.columns[k]];
    y[row] = sum;
  }
}

// A host CSR matrix as a LinearOperator: the operator of the CPU reference path.
template <class T>
class HostCsrOperator final : public LinearOperator<T> {
 public:
  explicit HostCsrOperator(const CsrMatrix<T>& matrix) : matrix_(matrix) {}
  void apply(const T* x, T* y) const override { reference_spmv(matrix_, x, y); }
  index_t rows() const override { return matrix_.rows; }
  index_t cols() const override { return matrix_.cols; }
  MemorySpace space() const override { return MemorySpace::host; }
  std::string name() const override { return "cpu-csr"; }
  const CsrMatrix<T>& matrix() const { return matrix_; }

 private:
  const CsrMatrix<T>& matrix_;
};

}  // namespace spk
