// The circuit generator: the conductance matrix of a random netlist with locality plus a few
// power/ground nets, grounded through a unit conductance at every node (see generators.hpp
// for the matrix and its row lengths).
//
// Nodes are numbered along the netlist. Node i couples to i + 1 (a chain, so the graph is
// connected) and, with probability 1/2, to one more node i + 2 .. i + local_window; each
// power/ground net is a hub node, chosen at random, coupled to every other node independently
// with probability dense_fraction. Conductances are uniform in [0.1, 1). The matrix is
// G + I, G the weighted graph Laplacian (graph_laplacian.hpp): SPD, strictly diagonally
// dominant, symmetric.
//
// Random streams of `seed`: 0 picks the hubs, 1 + i is node i's local couplings, 1 + n + k is
// net k's members (drawn by geometric skips, O(members)), so the matrix does not depend on the
// thread count.
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "spmv/host/generators.hpp"
#include "spmv/host/graph_laplacian.hpp"
#include "spmv/host/seeded_rng.hpp"

namespace spk {
namespace {

constexpr index_t local_window = 64;            // a local coupling reaches at most this far
constexpr double second_coupling_chance = 0.5;  // chance of the extra local coupling

float draw_conductance(SeededRng& rng) {
  return static_cast<float>(0.1 + 0.9 * rng.uniform());
}

// `count` distinct nodes of [0, n), by a partial Fisher-Yates shuffle of stream 0.
std::vector<index_t> choose_hubs(index_t n, index_t count, std::uint64_t seed) {
  std::vector<index_t> nodes(static_cast<std::size_t>(n));
  for (index_t i = 0; i < n; ++i) nodes[i] = i;
  SeededRng rng(seed, 0);
  for (index_t k = 0; k < count; ++k)
    std::swap(nodes[k],
              nodes[k + static_cast<index_t>(rng.below(static_cast<std::uint64_t>(n - k)))]);
  nodes.resize(static_cast<std::size_t>(count));
  return nodes;
}

// The couplings of hub `hub` to the nodes it reaches: each node but the hub independently
// with probability `fraction` (the gaps between members are geometric).
std::vector<GraphEdge> net_couplings(index_t n, index_t hub, double fraction, SeededRng& rng) {
  std::vector<GraphEdge> couplings;
  if (fraction <= 0.0) return couplings;
  couplings.reserve(static_cast<std::size_t>(fraction * n * 1.1) + 16);
  const double log_miss = std::log1p(-fraction);  // -inf for fraction 1: every gap is 0
  std::int64_t node = -1;
  while (true) {
    const double gap =
        fraction >= 1.0 ? 0.0 : std::floor(std::log(rng.uniform_open_closed()) / log_miss);
    if (!(gap < static_cast<double>(n))) break;  // past the last node (or a huge gap)
    node += 1 + static_cast<std::int64_t>(gap);
    if (node >= n) break;
    if (node != hub)
      couplings.push_back(GraphEdge{static_cast<index_t>(node), hub, draw_conductance(rng)});
  }
  return couplings;
}

}  // namespace

CsrMatrix<double> generate_circuit(int n, int dense_rows, double dense_fraction,
                                   std::uint64_t seed) {
  if (n < 1) throw BadInput("circuit: n = " + std::to_string(n) + " must be at least 1");
  if (dense_rows < 0 || dense_rows > n)
    throw BadInput("circuit: dense_rows = " + std::to_string(dense_rows) +
                   " must be in [0, n = " + std::to_string(n) + "]");
  if (!(dense_fraction >= 0.0 && dense_fraction <= 1.0))
    throw BadInput("circuit: dense_fraction = " + std::to_string(dense_fraction) +
                   " must be in [0, 1]");
  const std::string what =
      "circuit n=" + std::to_string(n) + " dense_rows=" + std::to_string(dense_rows);
  // Diagonal, two local couplings a node both ways, the nets both ways: refuse hopeless sizes
  // before anything is allocated (the assembly checks the drawn total again).
  const double expected = 5.0 * n + 2.0 * dense_rows * dense_fraction * n;
  check_index_range(expected > static_cast<double>(std::numeric_limits<std::int32_t>::max())
                        ? std::numeric_limits<std::int64_t>::max()
                        : static_cast<std::int64_t>(expected),
                    what + ": expected nonzeros");

  // Two slots per node for its local couplings; an unused slot stays a self-loop (skipped).
  std::vector<GraphEdge> edges(2 * static_cast<std::size_t>(n), GraphEdge{0, 0, 1.0f});
#pragma omp parallel for schedule(static)
  for (index_t node = 0; node < n; ++node) {
    SeededRng rng(seed, 1 + static_cast<std::uint64_t>(node));
    if (node + 1 < n) edges[2 * node] = GraphEdge{node, node + 1, draw_conductance(rng)};
    if (rng.uniform() < second_coupling_chance) {
      const std::int64_t target = node + 2 + static_cast<std::int64_t>(rng.below(local_window - 1));
      if (target < n)
        edges[2 * node + 1] = GraphEdge{node, static_cast<index_t>(target), draw_conductance(rng)};
    }
  }

  const std::vector<index_t> hubs = choose_hubs(n, dense_rows, seed);
  std::vector<std::vector<GraphEdge>> nets(hubs.size());
#pragma omp parallel for schedule(dynamic, 1)
  for (index_t k = 0; k < dense_rows; ++k) {
    SeededRng rng(seed, 1 + static_cast<std::uint64_t>(n) + static_cast<std::uint64_t>(k));
    nets[k] = net_couplings(n, hubs[k], dense_fraction, rng);
  }
  for (auto& net : nets) {
    edges.insert(edges.end(), net.begin(), net.end());
    std::vector<GraphEdge>().swap(net);
  }
  return shifted_graph_laplacian(n, edges, 1.0, what);
}

}  // namespace spk
