#include "solver/amg/candidate_fit.hpp"

#include <cmath>
#include <cstddef>
#include <string>

#include "spkrylov/errors.hpp"

namespace spk {

namespace {

void check_fit_input(const Aggregates& aggregates, int block_size,
                     const std::vector<double>& near_nullspace, int candidates) {
  if (block_size < 1)
    throw BadInput("amg near-null space: block_size must be >= 1, got " +
                   std::to_string(block_size));
  if (candidates < 1 || candidates > 16)
    throw BadInput("amg near-null space: the number of vectors must be 1..16, got " +
                   std::to_string(candidates));
  const std::size_t rows = aggregates.aggregate_of.size() * static_cast<std::size_t>(block_size);
  if (near_nullspace.size() != rows * static_cast<std::size_t>(candidates))
    throw BadInput("amg near-null space: " + std::to_string(near_nullspace.size()) +
                   " values for " + std::to_string(rows) + " rows x " + std::to_string(candidates) +
                   " vectors");
  for (std::size_t k = 0; k < near_nullspace.size(); ++k)
    if (!std::isfinite(near_nullspace[k]))
      throw BadInput("amg near-null space: non-finite value at row " +
                     std::to_string(k / static_cast<std::size_t>(candidates)) + ", vector " +
                     std::to_string(k % static_cast<std::size_t>(candidates)));
}

// The dofs (rows) of each aggregate, in increasing row order: CSR-like offsets and rows.
void dofs_of_aggregates(const Aggregates& aggregates, int block_size, std::vector<index_t>& offsets,
                        std::vector<index_t>& dofs) {
  offsets.assign(static_cast<std::size_t>(aggregates.count) + 1, 0);
  for (const index_t aggregate : aggregates.aggregate_of)
    offsets[static_cast<std::size_t>(aggregate) + 1] += block_size;
  for (std::size_t j = 0; j < static_cast<std::size_t>(aggregates.count); ++j)
    offsets[j + 1] += offsets[j];
  dofs.resize(static_cast<std::size_t>(offsets.back()));
  std::vector<index_t> next(offsets.begin(), offsets.end() - 1);
  for (std::size_t node = 0; node < aggregates.aggregate_of.size(); ++node)
    for (int b = 0; b < block_size; ++b)
      dofs[static_cast<std::size_t>(next[aggregates.aggregate_of[node]]++)] =
          static_cast<index_t>(node) * block_size + b;
}

}  // namespace

CandidateFit fit_candidates(const Aggregates& aggregates, int block_size,
                            const std::vector<double>& near_nullspace, int candidates,
                            double drop_tolerance) {
  check_fit_input(aggregates, block_size, near_nullspace, candidates);
  const auto k = static_cast<std::size_t>(candidates);
  const auto rows = static_cast<index_t>(aggregates.aggregate_of.size()) * block_size;
  std::vector<index_t> offsets, dofs;
  dofs_of_aggregates(aggregates, block_size, offsets, dofs);

  CandidateFit fit;
  fit.candidates = candidates;
  fit.coarse_candidates.assign(static_cast<std::size_t>(aggregates.count) * k * k, 0.0);
  CsrMatrix<double>& t = fit.matrix;
  t.rows = rows;
  t.cols = static_cast<index_t>(aggregates.count * static_cast<index_t>(k));
  t.row_offsets.resize(static_cast<std::size_t>(rows) + 1);
  for (index_t row = 0; row <= rows; ++row)
    t.row_offsets[static_cast<std::size_t>(row)] = row * static_cast<index_t>(k);
  t.columns.resize(static_cast<std::size_t>(rows) * k);
  t.values.assign(static_cast<std::size_t>(rows) * k, 0.0);

  std::vector<double> q;  // the aggregate's block, column-major: q[c * m + i]
  for (index_t j = 0; j < aggregates.count; ++j) {
    const index_t first = offsets[static_cast<std::size_t>(j)];
    const auto m = static_cast<std::size_t>(offsets[static_cast<std::size_t>(j) + 1] - first);
    q.assign(m * k, 0.0);
    for (std::size_t i = 0; i < m; ++i)
      for (std::size_t c = 0; c < k; ++c)
        q[c * m + i] = near_nullspace[static_cast<std::size_t>(dofs[first + i]) * k + c];
    double* const r = fit.coarse_candidates.data() + static_cast<std::size_t>(j) * k * k;
    for (std::size_t c = 0; c < k; ++c) {
      double* const column = q.data() + c * m;
      double before = 0.0;
      for (std::size_t i = 0; i < m; ++i) before += column[i] * column[i];
      before = std::sqrt(before);
      // q_c -= sum_{p<c} (q_p, q_c) q_p, twice (modified Gram-Schmidt, re-orthogonalised);
      // R_pc gathers both passes' coefficients
      for (int pass = 0; pass < 2; ++pass)
        for (std::size_t p = 0; p < c; ++p) {
          const double* const earlier = q.data() + p * m;
          double coefficient = 0.0;
          for (std::size_t i = 0; i < m; ++i) coefficient += earlier[i] * column[i];
          for (std::size_t i = 0; i < m; ++i) column[i] -= coefficient * earlier[i];
          r[p * k + c] += coefficient;
        }
      double after = 0.0;
      for (std::size_t i = 0; i < m; ++i) after += column[i] * column[i];
      after = std::sqrt(after);
      if (after <= drop_tolerance * before || after == 0.0) {
        // dependent on the earlier columns: a zero Q column and R_cc = 0; R_pc (p < c) stay,
        // so B_c still gives T B_c = B to the tolerance
        for (std::size_t i = 0; i < m; ++i) column[i] = 0.0;
        ++fit.dependent_columns;
        continue;
      }
      r[c * k + c] = after;  // R_cc = ||q_c||, q_c /= R_cc
      for (std::size_t i = 0; i < m; ++i) column[i] /= after;
    }
    for (std::size_t i = 0; i < m; ++i) {
      const auto row = static_cast<std::size_t>(dofs[first + i]);
      for (std::size_t c = 0; c < k; ++c) {
        t.columns[row * k + c] = static_cast<index_t>(static_cast<std::size_t>(j) * k + c);
        t.values[row * k + c] = q[c * m + i];
      }
    }
  }
  return fit;
}

}  // namespace spk
