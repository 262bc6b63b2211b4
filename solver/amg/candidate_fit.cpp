#include "solver/amg/candidate_fit.hpp"

#include <cmath>
#include <cstddef>
#include <string>

#include "solver/amg/candidate_fit_rules.hpp"
#include "spkrylov/errors.hpp"

namespace spk {

namespace {

void check_fit_input(const Aggregates& aggregates, int block_size,
                     const std::vector<double>& near_nullspace, int candidates) {
  if (block_size < 1)
    throw BadInput("amg near-null space: block_size must be >= 1, got " +
                   std::to_string(block_size));
  if (candidates < 1 || candidates > candidate_fit_rules::max_candidates)
    throw BadInput("amg near-null space: the number of vectors must be 1.." +
                   std::to_string(candidate_fit_rules::max_candidates) + ", got " +
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

}  // namespace

AggregateMembers aggregate_members(const Aggregates& aggregates) {
  AggregateMembers members;
  members.offsets.assign(static_cast<std::size_t>(aggregates.count) + 1, 0);
  for (const index_t aggregate : aggregates.aggregate_of)
    if (aggregate >= 0) ++members.offsets[static_cast<std::size_t>(aggregate) + 1];
  for (std::size_t j = 0; j < static_cast<std::size_t>(aggregates.count); ++j)
    members.offsets[j + 1] += members.offsets[j];
  members.nodes.resize(static_cast<std::size_t>(members.offsets.back()));
  std::vector<index_t> next(members.offsets.begin(), members.offsets.end() - 1);
  for (std::size_t node = 0; node < aggregates.aggregate_of.size(); ++node) {
    const index_t aggregate = aggregates.aggregate_of[node];
    if (aggregate >= 0)
      members.nodes[static_cast<std::size_t>(next[static_cast<std::size_t>(aggregate)]++)] =
          static_cast<index_t>(node);
  }
  return members;
}

std::string too_few_dofs_message(index_t aggregate, index_t dofs, int candidates) {
  return "amg near-null space: aggregate " + std::to_string(aggregate) + " has " +
         std::to_string(dofs) + " unknowns for " + std::to_string(candidates) +
         " near-null-space vectors (an aggregate needs at least as many unknowns as vectors): "
         "use fewer vectors, or matrix.block_size to group the unknowns of a node";
}

CandidateFit fit_candidates(const Aggregates& aggregates, int block_size,
                            const std::vector<double>& near_nullspace, int candidates,
                            double drop_tolerance) {
  check_fit_input(aggregates, block_size, near_nullspace, candidates);
  const auto k = static_cast<std::size_t>(candidates);
  const auto nodes = static_cast<index_t>(aggregates.aggregate_of.size());
  const AggregateMembers members = aggregate_members(aggregates);

  CandidateFit fit;
  fit.candidates = candidates;
  fit.coarse_candidates.assign(static_cast<std::size_t>(aggregates.count) * k * k, 0.0);
  CsrMatrix<double>& t = fit.matrix;
  t.rows = nodes * block_size;
  t.cols = static_cast<index_t>(aggregates.count * static_cast<index_t>(k));
  // k entries in each row of a node in an aggregate, none in a left-out node's
  t.row_offsets.assign(static_cast<std::size_t>(t.rows) + 1, 0);
  for (index_t row = 0; row < t.rows; ++row)
    t.row_offsets[static_cast<std::size_t>(row) + 1] =
        t.row_offsets[static_cast<std::size_t>(row)] +
        (aggregates.aggregate_of[static_cast<std::size_t>(row / block_size)] >= 0
             ? static_cast<index_t>(k)
             : 0);
  t.columns.resize(static_cast<std::size_t>(t.row_offsets.back()));
  t.values.assign(t.columns.size(), 0.0);
  for (index_t row = 0; row < t.rows; ++row) {
    const index_t aggregate = aggregates.aggregate_of[static_cast<std::size_t>(row / block_size)];
    for (index_t c = 0; c < static_cast<index_t>(k) && aggregate >= 0; ++c)
      t.columns[static_cast<std::size_t>(t.row_offsets[static_cast<std::size_t>(row)] + c)] =
          aggregate * static_cast<index_t>(k) + c;
  }

  for (index_t j = 0; j < aggregates.count; ++j) {
    const index_t first = members.offsets[static_cast<std::size_t>(j)];
    const candidate_fit_rules::AggregateDofs dofs{
        members.nodes.data() + first, members.offsets[static_cast<std::size_t>(j) + 1] - first,
        block_size};
    const int completed = candidate_fit_rules::fit_aggregate(
        dofs, near_nullspace.data(), candidates, t.row_offsets.data(), t.values.data(),
        fit.coarse_candidates.data() + static_cast<std::size_t>(j) * k * k, drop_tolerance);
    if (completed == candidate_fit_rules::too_few_dofs)
      throw BadInput(too_few_dofs_message(j, dofs.count(), candidates));
    fit.dependent_columns += completed;
  }
  return fit;
}

}  // namespace spk
