#include "solver/amg/dense_lu.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <numeric>

#include "core/host_parallel.hpp"
#include "core/printable_text.hpp"

namespace spk {

DenseLu::DenseLu(const CsrMatrix<double>& a, const std::string& where) : n_(a.rows) {
  if (!a.square())
    throw BadInput(where + ": the dense solve needs a square matrix (" + std::to_string(a.rows) +
                   " x " + std::to_string(a.cols) + ")");
  const std::size_t n = static_cast<std::size_t>(n_);
  lu_.assign(n * n, 0.0);
  double largest = 0.0;
  for (index_t row = 0; row < a.rows; ++row)
    for (index_t k = a.row_offsets[row]; k < a.row_offsets[row + 1]; ++k) {
      lu_[static_cast<std::size_t>(row) * n + static_cast<std::size_t>(a.columns[k])] = a.values[k];
      largest = std::max(largest, std::abs(a.values[k]));
    }
  if (!std::isfinite(largest)) throw BadInput(where + ": the matrix holds a non-finite value");
  permutation_.resize(n);
  std::iota(permutation_.begin(), permutation_.end(), 0);
  const double tolerance = static_cast<double>(std::max<std::size_t>(n, 100)) *
                           std::numeric_limits<double>::epsilon() * largest;
  smallest_pivot_ratio_ = n == 0 ? 1.0 : std::numeric_limits<double>::infinity();
  for (std::size_t k = 0; k < n; ++k) {
    // pivot: the largest |a_ik| on or below the diagonal
    std::size_t pivot = k;
    for (std::size_t i = k + 1; i < n; ++i)
      if (std::abs(lu_[i * n + k]) > std::abs(lu_[pivot * n + k])) pivot = i;
    const double pivot_value = lu_[pivot * n + k];
    smallest_pivot_ratio_ =
        std::min(smallest_pivot_ratio_, largest > 0.0 ? std::abs(pivot_value) / largest : 0.0);
    if (!(std::abs(pivot_value) > tolerance))
      throw BadInput(where + ": singular to working precision (pivot " +
                     scientific_text(pivot_value) + " at step " + std::to_string(k) +
                     ", largest entry " + scientific_text(largest) +
                     "); a matrix with a null space (e.g. a pure-Neumann problem) is not " +
                     "supported by the AMG's dense coarse solve");
    if (pivot != k) {  // swap rows k and pivot
      std::swap_ranges(lu_.begin() + static_cast<std::ptrdiff_t>(k * n),
                       lu_.begin() + static_cast<std::ptrdiff_t>((k + 1) * n),
                       lu_.begin() + static_cast<std::ptrdiff_t>(pivot * n));
      std::swap(permutation_[k], permutation_[pivot]);
    }
    // l_ik = a_ik / u_kk; a_ij -= l_ik u_kj for i, j > k
    const auto below = static_cast<std::int64_t>(n - k - 1);
#pragma omp parallel for schedule(static) if (below * below >= host_parallel_from)
    for (std::int64_t row = static_cast<std::int64_t>(k) + 1; row < static_cast<std::int64_t>(n);
         ++row) {
      const std::size_t i = static_cast<std::size_t>(row);
      const double multiplier = lu_[i * n + k] / pivot_value;
      lu_[i * n + k] = multiplier;
      for (std::size_t j = k + 1; j < n; ++j) lu_[i * n + j] -= multiplier * lu_[k * n + j];
    }
  }
}

void DenseLu::substitute(double* y, std::size_t width, std::size_t begin, std::size_t end) const {
  const std::size_t n = static_cast<std::size_t>(n_);
  for (std::size_t i = 0; i < n; ++i)  // Y = L^-1 Y (unit lower)
    for (std::size_t j = 0; j < i; ++j) {
      const double l = lu_[i * n + j];
      if (l != 0.0)
        for (std::size_t c = begin; c < end; ++c) y[i * width + c] -= l * y[j * width + c];
    }
  for (std::size_t i = n; i-- > 0;) {  // Y = U^-1 Y
    for (std::size_t j = i + 1; j < n; ++j) {
      const double u = lu_[i * n + j];
      if (u != 0.0)
        for (std::size_t c = begin; c < end; ++c) y[i * width + c] -= u * y[j * width + c];
    }
    for (std::size_t c = begin; c < end; ++c) y[i * width + c] /= lu_[i * n + i];
  }
}

std::vector<double> DenseLu::solve(const std::vector<double>& b) const {
  const std::size_t n = static_cast<std::size_t>(n_);
  std::vector<double> x(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = b[static_cast<std::size_t>(permutation_[i])];  // P b
  substitute(x.data(), 1, 0, 1);  // x = U^-1 L^-1 P b
  return x;
}

CsrMatrix<double> DenseLu::inverse() const {
  const std::size_t n = static_cast<std::size_t>(n_);
  check_index_range(static_cast<std::int64_t>(n * n), "entries of the AMG coarsest inverse");
  // A^-1 = U^-1 L^-1 P: substitution on the rows of Y = P. Columns are independent: each
  // thread takes blocks of 64 (a block of Y stays in cache), and every column's sums run in
  // the same order for any thread count.
  std::vector<double> y(n * n, 0.0);
  for (std::size_t i = 0; i < n; ++i) y[i * n + static_cast<std::size_t>(permutation_[i])] = 1.0;
  constexpr std::size_t block = 64;
  const std::int64_t blocks = static_cast<std::int64_t>((n + block - 1) / block);
#pragma omp parallel for schedule(static) if (static_cast <std::int64_t>(n * n) >= \
                                              host_parallel_from)
  for (std::int64_t b = 0; b < blocks; ++b) {
    const std::size_t begin = static_cast<std::size_t>(b) * block;
    substitute(y.data(), n, begin, std::min(n, begin + block));
  }
  CsrMatrix<double> inverse;
  inverse.rows = inverse.cols = n_;
  inverse.row_offsets.resize(n + 1);
  inverse.columns.resize(n * n);
  for (std::size_t i = 0; i <= n; ++i) inverse.row_offsets[i] = static_cast<index_t>(i * n);
  for (std::size_t k = 0; k < n * n; ++k) inverse.columns[k] = static_cast<index_t>(k % n);
  inverse.values = std::move(y);
  return inverse;
}

}  // namespace spk
