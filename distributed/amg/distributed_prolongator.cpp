#include "distributed/amg/distributed_prolongator.hpp"

#include <algorithm>
#include <cstdint>
#include <utility>

#include "core/host_parallel.hpp"
#include "distributed/fault_watch.hpp"

namespace spk {

DistributedProlongator::DistributedProlongator(FaultWatch& watch, const DistributedLevel& a,
                                               DistributedLevel tentative, double weight)
    : watch_(watch), tentative_(std::move(tentative)), weight_(weight) {
  if (weight_ != 0.0)
    ghost_tentative_ =
        fetch_rows(watch_.comm(), tentative_.block, tentative_.row_partition, a.split.halo_columns);
}

void DistributedProlongator::compute(const DistributedLevel& a,
                                     const std::vector<double>& inverse_diagonal,
                                     double lambda_max) {
  if (weight_ == 0.0) return;                        // P = T
  const CsrMatrix<double>& whole = a.split.pattern;  // own columns, then halo slots
  const RowBlock<double>& t = tentative_.block;
  const index_t own = a.cols;
  const double step = weight_ / lambda_max;

  // Row i of P: T_i - (w / lambda) d_i sum_j a_ij T_j, the terms gathered as (column, value)
  // and merged by column (the rows are short: a row of A times T's one to k entries).
  std::vector<std::vector<std::pair<global_index_t, double>>> rows(
      static_cast<std::size_t>(whole.rows));
#pragma omp parallel for schedule(dynamic, 256) if (whole.nnz() >= host_parallel_from)
  for (index_t i = 0; i < whole.rows; ++i) {
    std::vector<std::pair<global_index_t, double>>& terms = rows[static_cast<std::size_t>(i)];
    for (index_t k = t.row_offsets[i]; k < t.row_offsets[i + 1]; ++k)
      terms.emplace_back(t.columns[k], t.values[k]);
    const double scale = -step * inverse_diagonal[static_cast<std::size_t>(i)];
    for (index_t e = whole.row_offsets[i]; e < whole.row_offsets[i + 1]; ++e) {
      const index_t j = whole.columns[e];
      const double coefficient = scale * whole.values[e];
      if (j < own) {
        for (index_t k = t.row_offsets[j]; k < t.row_offsets[j + 1]; ++k)
          terms.emplace_back(t.columns[k], coefficient * t.values[k]);
      } else {
        const auto slot = static_cast<std::size_t>(j - own);
        for (index_t k = ghost_tentative_.row_offsets[slot];
             k < ghost_tentative_.row_offsets[slot + 1]; ++k)
          terms.emplace_back(ghost_tentative_.columns[k], coefficient * ghost_tentative_.values[k]);
      }
    }
    std::sort(terms.begin(), terms.end(),
              [](const auto& x, const auto& y) { return x.first < y.first; });
    std::size_t kept = 0;
    for (std::size_t k = 0; k < terms.size(); ++k) {
      if (kept > 0 && terms[kept - 1].first == terms[k].first)
        terms[kept - 1].second += terms[k].second;
      else
        terms[kept++] = terms[k];
    }
    terms.resize(kept);
  }

  RowBlock<double> p;
  p.global_rows = t.global_rows;
  p.first_row = t.first_row;
  p.rows = t.rows;
  p.row_offsets.assign(static_cast<std::size_t>(t.rows) + 1, 0);
  for (index_t i = 0; i < t.rows; ++i)
    p.row_offsets[i + 1] =
        p.row_offsets[i] + static_cast<index_t>(rows[static_cast<std::size_t>(i)].size());
  p.columns.reserve(static_cast<std::size_t>(p.row_offsets.back()));
  p.values.reserve(static_cast<std::size_t>(p.row_offsets.back()));
  for (const auto& row : rows)
    for (const auto& [column, value] : row) {
      p.columns.push_back(column);
      p.values.push_back(value);
    }
  if (!computed_) {
    prolongator_ =
        make_level(watch_, std::move(p), tentative_.row_partition, tentative_.column_partition);
    computed_ = true;
  } else {
    set_level_values(prolongator_, p.values);
  }
}

}  // namespace spk
