#include "solver/amg/tentative_prolongator.hpp"

#include <cmath>

#include "solver/amg/prolongator_rules.hpp"

namespace spk {

TentativeProlongator tentative_prolongator(const Aggregates& aggregates,
                                           const std::vector<double>& candidates) {
  const index_t rows = static_cast<index_t>(aggregates.aggregate_of.size());
  TentativeProlongator result;
  std::vector<double>& norms = result.coarse_candidates;  // ||B on aggregate j||
  norms.assign(static_cast<std::size_t>(aggregates.count), 0.0);
  for (index_t row = 0; row < rows; ++row)
    norms[aggregates.aggregate_of[row]] =
        add_square(norms[aggregates.aggregate_of[row]], candidates[row]);
  for (double& norm : norms) norm = std::sqrt(norm);
  CsrMatrix<double>& t = result.matrix;
  t.rows = rows;
  t.cols = aggregates.count;
  t.row_offsets.resize(static_cast<std::size_t>(rows) + 1);
  t.columns = aggregates.aggregate_of;
  t.values.resize(static_cast<std::size_t>(rows));
  for (index_t row = 0; row <= rows; ++row) t.row_offsets[static_cast<std::size_t>(row)] = row;
  for (index_t row = 0; row < rows; ++row)  // T_i,agg(i) = B_i / ||B on agg(i)||
    t.values[static_cast<std::size_t>(row)] = candidates[row] / norms[t.columns[row]];
  return result;
}

}  // namespace spk
