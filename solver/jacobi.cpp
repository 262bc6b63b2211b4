#include "solver/jacobi.hpp"

#include <cmath>

#include "spmv/base/error.hpp"

namespace spk {

template <class T>
std::vector<T> jacobi_inverse_diagonal(const CsrMatrix<T>& matrix) {
  if (!matrix.square())
    throw BadInput("jacobi: the matrix is not square (" + std::to_string(matrix.rows) + " x " +
                   std::to_string(matrix.cols) + ")");
  std::vector<T> inverse(static_cast<std::size_t>(matrix.rows));
  for (index_t row = 0; row < matrix.rows; ++row) {
    T diagonal = T(0);
    for (index_t k = matrix.row_offsets[row]; k < matrix.row_offsets[row + 1]; ++k)
      if (matrix.columns[k] == row) diagonal = matrix.values[k];
    const std::string where = "jacobi: row " + std::to_string(row + 1) + ": ";
    if (!std::isfinite(diagonal)) throw BadInput(where + "diagonal entry is not finite");
    if (diagonal == T(0))
      throw BadInput(where + "diagonal entry is zero or missing; use preconditioner: none");
    const T reciprocal = T(1) / diagonal;
    if (!std::isfinite(reciprocal)) throw BadInput(where + "diagonal entry is too small to invert");
    inverse[static_cast<std::size_t>(row)] = reciprocal;
  }
  return inverse;
}

template std::vector<float> jacobi_inverse_diagonal(const CsrMatrix<float>&);
template std::vector<double> jacobi_inverse_diagonal(const CsrMatrix<double>&);

}  // namespace spk
