#include "spmv/formats/ellpack_r_layout.hpp"

#include <cstddef>

namespace spk {

template <class T>
EllpackRLayout<T> to_ellpack_r(const CsrMatrix<T>& matrix, const EllPaddingLimits& limits) {
  EllpackRLayout<T> layout;
  layout.ell = to_ellpack_with_width(matrix, max_row_length(matrix), limits);
  layout.row_lengths.resize(static_cast<std::size_t>(matrix.rows));
  for (index_t row = 0; row < matrix.rows; ++row) layout.row_lengths[row] = matrix.row_length(row);
  return layout;
}

template <class T>
void ellpack_r_reference_spmv(const EllpackRLayout<T>& layout, const T* x, T* y) {
  const EllpackLayout<T>& ell = layout.ell;
#pragma omp parallel for schedule(static)
  for (index_t row = 0; row < ell.rows; ++row) {
    T sum = T(0);
    for (index_t slot = 0; slot < layout.row_lengths[row]; ++slot) {
      const std::size_t offset =
          static_cast<std::size_t>(slot) * ell.pitch + static_cast<std::size_t>(row);
      sum += ell.values[offset] * x[ell.columns[offset]];
    }
    y[row] = sum;
  }
}

template EllpackRLayout<float> to_ellpack_r(const CsrMatrix<float>&, const EllPaddingLimits&);
template EllpackRLayout<double> to_ellpack_r(const CsrMatrix<double>&, const EllPaddingLimits&);
template void ellpack_r_reference_spmv(const EllpackRLayout<float>&, const float*, float*);
template void ellpack_r_reference_spmv(const EllpackRLayout<double>&, const double*, double*);

}  // namespace spk
