#include "solver/amg/nodal_aggregation.hpp"

#include <cstddef>
#include <utility>
#include <vector>

#include "solver/amg/near_nullspace.hpp"

namespace spk {

StrengthGraph nodal_strength_graph(const CsrMatrix<double>& a, int block_size, double theta) {
  if (block_size == 1) return strength_graph(a, theta);
  return strength_graph(nodal_matrix(a, block_size), theta);
}

void leave_out_isolated_nodes(Aggregates& aggregates, const StrengthGraph& graph) {
  std::vector<index_t> number(static_cast<std::size_t>(aggregates.count), -1);
  std::vector<index_t> roots;
  for (index_t j = 0; j < aggregates.count; ++j) {
    const index_t root = aggregates.roots[static_cast<std::size_t>(j)];
    if (graph.degree(root) == 0) continue;  // an isolated node's one-node aggregate
    number[static_cast<std::size_t>(j)] = static_cast<index_t>(roots.size());
    roots.push_back(root);
  }
  for (index_t& aggregate : aggregates.aggregate_of)
    aggregate = number[static_cast<std::size_t>(aggregate)];
  aggregates.roots = std::move(roots);
  aggregates.count = static_cast<index_t>(aggregates.roots.size());
}

}  // namespace spk
