#include "solver/eigen_estimate.hpp"

#include <algorithm>

#include "solver/jacobi.hpp"

namespace spk {

double tridiagonal_lambda_max(const std::vector<double>& diagonal,
                              const std::vector<double>& off_diagonal) {
  const std::size_t m = diagonal.size();
  if (m == 0) return 0.0;
  // Gershgorin interval of T, then bisection: count(x) = eigenvalues below x (Sturm).
  double low = diagonal[0], high = diagonal[0];
  for (std::size_t k = 0; k < m; ++k) {
    const double radius = (k > 0 ? std::abs(off_diagonal[k - 1]) : 0.0) +
                          (k + 1 < m ? std::abs(off_diagonal[k]) : 0.0);
    low = std::min(low, diagonal[k] - radius);
    high = std::max(high, diagonal[k] + radius);
  }
  const auto count_below = [&](double x) {
    int count = 0;
    double d = 1.0;
    for (std::size_t k = 0; k < m; ++k) {
      const double off = k > 0 ? off_diagonal[k - 1] : 0.0;
      d = diagonal[k] - x - (k > 0 ? off * off / d : 0.0);
      if (d == 0.0) d = -1e-300;
      if (d < 0.0) ++count;
    }
    return count;
  };
  for (int i = 0; i < 200 && high - low > 1e-14 * std::max(1.0, std::abs(high)); ++i) {
    const double middle = 0.5 * (low + high);
    if (count_below(middle) >= static_cast<int>(m))
      high = middle;
    else
      low = middle;
  }
  return high;
}

template <class T>
double gershgorin_lambda_max(const CsrMatrix<T>& matrix) {
  const std::vector<index_t> positions =
      diagonal_positions(matrix.rows, matrix.row_offsets, matrix.columns);
  double bound = 0.0;
  for (index_t row = 0; row < matrix.rows; ++row)
    bound = std::max(bound,
                     gershgorin_row_ratio(static_cast<std::size_t>(row), matrix.row_offsets.data(),
                                          matrix.values.data(), positions.data()));
  return bound;
}

template double gershgorin_lambda_max<float>(const CsrMatrix<float>&);
template double gershgorin_lambda_max<double>(const CsrMatrix<double>&);

}  // namespace spk
