#include "solver/amg/aggregation.hpp"

#include <algorithm>
#include <cstddef>

#include "spkrylov/errors.hpp"

namespace spk {

namespace {

// Node states in the key's top two bits: removed < undecided < in the set.
constexpr std::uint64_t removed = 0, undecided = 1, in_set = 2;
constexpr std::uint32_t priority_mask = (1u << 30) - 1;
constexpr std::uint64_t assigned_bit = std::uint64_t(1) << 63;

// (state, priority, index) as one integer: bits 62-63 state, 32-61 priority, 0-31 index.
std::uint64_t pack_key(std::uint64_t state, std::uint32_t priority, index_t node) {
  return (state << 62) | (static_cast<std::uint64_t>(priority & priority_mask) << 32) |
         static_cast<std::uint32_t>(node);
}
std::uint64_t state_of(std::uint64_t key) {
  return key >> 62;
}
index_t node_of(std::uint64_t key) {
  return static_cast<index_t>(key & 0xffffffffu);
}
// (priority, index) of a key: the order among roots.
std::uint64_t rank_of(std::uint64_t key) {
  return key & ((std::uint64_t(1) << 62) - 1);
}

// out_i = max(in_j) over j in {i} and i's neighbours.
void max_over_closed_neighbourhood(const StrengthGraph& graph, const std::vector<std::uint64_t>& in,
                                   std::vector<std::uint64_t>& out) {
#pragma omp parallel for schedule(static)
  for (index_t node = 0; node < graph.nodes; ++node) {
    std::uint64_t best = in[static_cast<std::size_t>(node)];
    for (index_t k = graph.row_offsets[node]; k < graph.row_offsets[node + 1]; ++k)
      best = std::max(best, in[static_cast<std::size_t>(graph.neighbours[k])]);
    out[static_cast<std::size_t>(node)] = best;
  }
}

// The MIS(2) rounds: the final keys (state in_set or removed for every node).
std::vector<std::uint64_t> mis2_keys(const StrengthGraph& graph,
                                     const std::vector<std::uint32_t>& priorities, int* rounds) {
  const std::size_t n = static_cast<std::size_t>(graph.nodes);
  std::vector<std::uint64_t> key(n), one_ring(n), two_ring(n);
#pragma omp parallel for schedule(static)
  for (index_t node = 0; node < graph.nodes; ++node)
    key[static_cast<std::size_t>(node)] =
        pack_key(undecided, priorities[static_cast<std::size_t>(node)], node);
  *rounds = 0;
  for (std::size_t remaining = n; remaining > 0;) {
    max_over_closed_neighbourhood(graph, key, one_ring);       // max over the 1-ring
    max_over_closed_neighbourhood(graph, one_ring, two_ring);  // max over the 2-ring
    std::size_t still_undecided = 0;
#pragma omp parallel for schedule(static) reduction(+ : still_undecided)
    for (index_t node = 0; node < graph.nodes; ++node) {
      std::uint64_t& own = key[static_cast<std::size_t>(node)];
      if (state_of(own) != undecided) continue;
      const std::uint64_t best = two_ring[static_cast<std::size_t>(node)];
      if (best == own)
        own = pack_key(in_set, priorities[static_cast<std::size_t>(node)], node);  // 2-ring max
      else if (state_of(best) == in_set)
        own = pack_key(removed, priorities[static_cast<std::size_t>(node)], node);  // set nearby
      else
        ++still_undecided;
    }
    remaining = still_undecided;
    ++*rounds;
  }
  return key;
}

}  // namespace

std::vector<std::uint32_t> aggregation_priorities(index_t nodes) {
  std::vector<std::uint32_t> priorities(static_cast<std::size_t>(nodes));
#pragma omp parallel for schedule(static)
  for (index_t node = 0; node < nodes; ++node) {
    // splitmix64 of (index + fixed seed): the same priorities on every run and path.
    std::uint64_t z = (static_cast<std::uint64_t>(node) + 0x5eed) * 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    priorities[static_cast<std::size_t>(node)] = static_cast<std::uint32_t>(z >> 34);  // 30 bits
  }
  return priorities;
}

Aggregates aggregate_mis2(const StrengthGraph& graph) {
  return aggregate_mis2(graph, aggregation_priorities(graph.nodes));
}

Aggregates aggregate_mis2(const StrengthGraph& graph,
                          const std::vector<std::uint32_t>& priorities) {
  if (priorities.size() != static_cast<std::size_t>(graph.nodes))
    throw BadInput("aggregation: " + std::to_string(priorities.size()) + " priorities for " +
                   std::to_string(graph.nodes) + " nodes");
  const std::size_t n = static_cast<std::size_t>(graph.nodes);
  Aggregates result;
  const std::vector<std::uint64_t> key = mis2_keys(graph, priorities, &result.rounds);

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
#pragma omp parallel for schedule(static)
  for (index_t node = 0; node < graph.nodes; ++node) {
    if (state_of(key[static_cast<std::size_t>(node)]) == in_set) continue;
    std::uint64_t best = 0;
    for (index_t k = graph.row_offsets[node]; k < graph.row_offsets[node + 1]; ++k) {
      const std::uint64_t neighbour = key[static_cast<std::size_t>(graph.neighbours[k])];
      // assigned_bit marks a choice (a rank may be 0)
      if (state_of(neighbour) == in_set) best = std::max(best, rank_of(neighbour) | assigned_bit);
    }
    chosen[static_cast<std::size_t>(node)] = best;
  }
  // Pass 2, distance 2: the best root a distance-1 neighbour chose. It reads pass 1's `chosen`
  // and writes `distance_two`, so the nodes of this pass do not see each other.
  std::vector<std::uint64_t> distance_two(n, 0);
#pragma omp parallel for schedule(static)
  for (index_t node = 0; node < graph.nodes; ++node) {
    if (chosen[static_cast<std::size_t>(node)] != 0) continue;
    std::uint64_t best = 0;
    for (index_t k = graph.row_offsets[node]; k < graph.row_offsets[node + 1]; ++k) {
      const std::size_t neighbour = static_cast<std::size_t>(graph.neighbours[k]);
      if (state_of(key[neighbour]) != in_set)
        best = std::max(best, chosen[neighbour]);  // 0 for an unassigned neighbour
    }
    distance_two[static_cast<std::size_t>(node)] = best;
  }
  for (index_t node = 0; node < graph.nodes; ++node) {
    const std::size_t i = static_cast<std::size_t>(node);
    const std::uint64_t root_key = chosen[i] != 0 ? chosen[i] : distance_two[i];
    if (root_key == 0)
      throw Error("amg aggregation: node " + std::to_string(node) +
                  " is more than 2 steps from every root (internal error: not an MIS(2))");
    result.aggregate_of[i] = result.aggregate_of[static_cast<std::size_t>(node_of(root_key))];
    if (graph.degree(node) == 0) ++result.isolated;
  }
  return result;
}

}  // namespace spk
