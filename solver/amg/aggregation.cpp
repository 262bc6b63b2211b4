#include "solver/amg/aggregation.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "core/host_parallel.hpp"
#include "solver/amg/aggregation_rules.hpp"
#include "spkrylov/errors.hpp"

namespace spk {

namespace {

using mis2::in_set;
using mis2::state_of;

// A pass's work over the graph: a visit per node and per edge (host_parallel.hpp's units).
std::int64_t edges_and_nodes(const StrengthGraph& graph) {
  return static_cast<std::int64_t>(graph.nodes) +
         static_cast<std::int64_t>(graph.neighbours.size());
}

// out_i = max(in_j) over j in {i} and i's neighbours.
void max_over_closed_neighbourhood(const StrengthGraph& graph, const std::vector<std::uint64_t>& in,
                                   std::vector<std::uint64_t>& out) {
#pragma omp parallel for schedule(static) if (edges_and_nodes(graph) >= host_parallel_from)
  for (index_t node = 0; node < graph.nodes; ++node)
    out[static_cast<std::size_t>(node)] = mis2::closed_neighbourhood_max(
        node, graph.row_offsets.data(), graph.neighbours.data(), in.data());
}

// The MIS(distance) rounds: the final keys (state in_set or removed for every node).
std::vector<std::uint64_t> mis_keys(const StrengthGraph& graph,
                                    const std::vector<std::uint32_t>& priorities, int distance,
                                    int* rounds) {
  const std::size_t n = static_cast<std::size_t>(graph.nodes);
  std::vector<std::uint64_t> key(n), one_ring(n), two_ring(n);
#pragma omp parallel for schedule(static) if (graph.nodes >= host_parallel_from)
  for (index_t node = 0; node < graph.nodes; ++node)
    key[static_cast<std::size_t>(node)] =
        mis2::pack_key(mis2::undecided, priorities[static_cast<std::size_t>(node)], node);
  *rounds = 0;
  for (std::size_t remaining = n; remaining > 0;) {
    max_over_closed_neighbourhood(graph, key, one_ring);  // max over the 1-ring
    if (distance == 2)
      max_over_closed_neighbourhood(graph, one_ring, two_ring);  // max over the 2-ring
    const std::vector<std::uint64_t>& ring = distance == 2 ? two_ring : one_ring;
    std::size_t still_undecided = 0;
#pragma omp parallel for schedule(static) reduction(+ : still_undecided) \
    if (graph.nodes >= host_parallel_from)
    for (index_t node = 0; node < graph.nodes; ++node) {
      const std::size_t i = static_cast<std::size_t>(node);
      bool undecided = false;
      key[i] = mis2::decide(key[i], ring[i], &undecided);  // join, removed, or wait
      if (undecided) ++still_undecided;
    }
    remaining = still_undecided;
    ++*rounds;
  }
  return key;
}

}  // namespace

std::vector<std::uint32_t> aggregation_priorities(index_t nodes) {
  std::vector<std::uint32_t> priorities(static_cast<std::size_t>(nodes));
#pragma omp parallel for schedule(static) if (nodes >= host_parallel_from)
  for (index_t node = 0; node < nodes; ++node)
    priorities[static_cast<std::size_t>(node)] = mis2::priority(node);
  return priorities;
}

Aggregates aggregate_mis2(const StrengthGraph& graph, int distance) {
  return aggregate_mis2(graph, aggregation_priorities(graph.nodes), distance);
}

Aggregates aggregate_mis2(const StrengthGraph& graph, const std::vector<std::uint32_t>& priorities,
                          int distance) {
  if (priorities.size() != static_cast<std::size_t>(graph.nodes))
    throw BadInput("aggregation: " + std::to_string(priorities.size()) + " priorities for " +
                   std::to_string(graph.nodes) + " nodes");
  const std::size_t n = static_cast<std::size_t>(graph.nodes);
  Aggregates result;
  const std::vector<std::uint64_t> key = mis_keys(graph, priorities, distance, &result.rounds);

  // Roots numbered in index order (an exclusive scan over the set flags).
  result.aggregate_of.assign(n, -1);
  for (index_t node = 0; node < graph.nodes; ++node)
    if (state_of(key[static_cast<std::size_t>(node)]) == in_set) {
      result.aggregate_of[static_cast<std::size_t>(node)] = result.count++;
      result.roots.push_back(node);
    }
  // chosen[i]: the key of the root node i joins (roots: their own), 0 while unassigned.
  std::vector<std::uint64_t> chosen(n, 0);
  for (const index_t root : result.roots) chosen[static_cast<std::size_t>(root)] = key[root];

    // Pass 1, distance 1: the largest (priority, index) among the neighbouring roots.
#pragma omp parallel for schedule(static) if (edges_and_nodes(graph) >= host_parallel_from)
  for (index_t node = 0; node < graph.nodes; ++node)
    if (state_of(key[static_cast<std::size_t>(node)]) != in_set)
      chosen[static_cast<std::size_t>(node)] = mis2::distance_one_choice(
          node, graph.row_offsets.data(), graph.neighbours.data(), key.data());
  // Pass 2, distance 2: the best root a distance-1 neighbour chose. It reads pass 1's `chosen`
  // and writes `distance_two`, so the nodes of this pass do not see each other.
  std::vector<std::uint64_t> distance_two(n, 0);
#pragma omp parallel for schedule(static) if (edges_and_nodes(graph) >= host_parallel_from)
  for (index_t node = 0; node < graph.nodes; ++node)
    if (chosen[static_cast<std::size_t>(node)] == 0)
      distance_two[static_cast<std::size_t>(node)] = mis2::distance_two_choice(
          node, graph.row_offsets.data(), graph.neighbours.data(), key.data(), chosen.data());
  for (index_t node = 0; node < graph.nodes; ++node) {
    const std::size_t i = static_cast<std::size_t>(node);
    const std::uint64_t root_key = chosen[i] != 0 ? chosen[i] : distance_two[i];
    if (root_key == 0)
      throw Error("amg aggregation: node " + std::to_string(node) +
                  " is more than 2 steps from every root (internal error: not an MIS(2))");
    result.aggregate_of[i] = result.aggregate_of[static_cast<std::size_t>(mis2::node_of(root_key))];
    if (graph.degree(node) == 0) ++result.isolated;
  }
  return result;
}

}  // namespace spk
