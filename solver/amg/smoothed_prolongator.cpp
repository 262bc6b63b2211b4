#include "solver/amg/smoothed_prolongator.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

#include "core/host_parallel.hpp"
#include "solver/amg/prolongator_rules.hpp"
#include "solver/amg/sparse_product.hpp"

namespace spk {

SmoothedProlongator::SmoothedProlongator(const CsrMatrix<double>& a, CsrMatrix<double> tentative,
                                         double weight)
    : tentative_(std::move(tentative)), weight_(weight) {
  if (weight_ == 0.0) return;
  prolongator_ = product_pattern(a, tentative_);
  tentative_position_.resize(static_cast<std::size_t>(tentative_.nnz()));
  for (index_t row = 0; row < a.rows; ++row) {
    const auto begin = prolongator_.columns.begin() + prolongator_.row_offsets[row];
    const auto end = prolongator_.columns.begin() + prolongator_.row_offsets[row + 1];
    for (index_t t = tentative_.row_offsets[row]; t < tentative_.row_offsets[row + 1]; ++t) {
      const auto found = std::lower_bound(begin, end, tentative_.columns[t]);
      if (found == end || *found != tentative_.columns[t])
        throw Error("amg prolongator: row " + std::to_string(row) +
                    " of A T lacks T's entry (internal error: a_ii not stored)");
      tentative_position_[static_cast<std::size_t>(t)] =
          static_cast<index_t>(found - prolongator_.columns.begin());
    }
  }
}

void SmoothedProlongator::compute(const CsrMatrix<double>& a,
                                  const std::vector<double>& inverse_diagonal, double lambda_max) {
  if (weight_ == 0.0) return;
  product_values(a, tentative_, prolongator_);  // P = A T
  const double step = weight_ / lambda_max;
#pragma omp parallel for schedule(static) if (prolongator_.nnz() >= host_parallel_from)
  for (index_t row = 0; row < a.rows; ++row)  // P = T - (omega / lambda) D^-1 A T
    smooth_prolongator_row(row, prolongator_.row_offsets.data(), prolongator_.values.data(),
                           -step * inverse_diagonal[static_cast<std::size_t>(row)],
                           tentative_.row_offsets.data(), tentative_position_.data(),
                           tentative_.values.data());
}

}  // namespace spk
