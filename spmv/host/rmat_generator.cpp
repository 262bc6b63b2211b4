// The rmat generator: the shifted Laplacian L + I of an R-MAT graph (Chakrabarti, Zhan &
// Faloutsos, "R-MAT: A Recursive Model for Graph Mining", SDM 2004) with the Graph500
// parameters a = 0.57, b = 0.19, c = 0.19, d = 0.05 (see generators.hpp for the matrix).
//
// Each edge picks one quadrant of the adjacency matrix per level of the recursion, `scale`
// levels, with probabilities a (top left), b (top right), c (bottom left), d (bottom right),
// which sets one bit of each endpoint. One 64-bit draw gives four levels (16 bits each, so
// the probabilities are multiples of 2^-16: a = 37356/65536 = 0.570007...). Unlike Graph500's
// reference generator, the parameters are not perturbed at each level. Vertex ids are then
// permuted by a random permutation (as Graph500 does), so the high-degree vertices are spread
// over the matrix instead of being the first rows.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "spmv/host/generators.hpp"
#include "spmv/host/graph_laplacian.hpp"
#include "spmv/host/seeded_rng.hpp"

namespace spk {
namespace {

constexpr int max_rmat_scale = 30;
// Cumulative quadrant thresholds out of 2^16: a, a + b, a + b + c (Graph500: 0.57, 0.19, 0.19).
constexpr std::uint32_t threshold_a = 37356;        // 0.57 * 65536, rounded
constexpr std::uint32_t threshold_ab = 49807;       // 0.76 * 65536
constexpr std::uint32_t threshold_abc = 62259;      // 0.95 * 65536
constexpr std::int64_t edges_per_stream = 1 << 16;  // edges drawn from one random stream

// A random permutation of 0..n-1 (Fisher-Yates), from stream 0 of `seed`.
std::vector<index_t> random_permutation(index_t n, std::uint64_t seed) {
  std::vector<index_t> permutation(static_cast<std::size_t>(n));
  for (index_t i = 0; i < n; ++i) permutation[i] = i;
  SeededRng rng(seed, 0);
  for (index_t i = n - 1; i > 0; --i)
    std::swap(permutation[i], permutation[rng.below(static_cast<std::uint64_t>(i) + 1)]);
  return permutation;
}

// One R-MAT edge, endpoints before the permutation.
GraphEdge draw_rmat_edge(int scale, SeededRng& rng) {
  std::uint32_t from = 0, to = 0;
  std::uint64_t bits = 0;
  for (int level = 0; level < scale; ++level) {
    if (level % 4 == 0) bits = rng.next();
    const auto draw = static_cast<std::uint32_t>(bits & 0xFFFFu);
    bits >>= 16;
    const std::uint32_t bit = 1u << (scale - 1 - level);
    if (draw >= threshold_abc) {
      from |= bit;
      to |= bit;
    } else if (draw >= threshold_ab) {
      from |= bit;
    } else if (draw >= threshold_a) {
      to |= bit;
    }
  }
  return GraphEdge{static_cast<index_t>(from), static_cast<index_t>(to), 1.0f};
}

}  // namespace

CsrMatrix<double> generate_rmat(int scale, int edge_factor, std::uint64_t seed) {
  if (scale < 0 || scale > max_rmat_scale)
    throw BadInput("rmat: scale = " + std::to_string(scale) + " must be in [0, " +
                   std::to_string(max_rmat_scale) + "]");
  if (edge_factor < 1)
    throw BadInput("rmat: edge_factor = " + std::to_string(edge_factor) + " must be at least 1");
  const std::string what =
      "rmat scale=" + std::to_string(scale) + " edge_factor=" + std::to_string(edge_factor);
  const std::int64_t vertices = std::int64_t{1} << scale;
  const std::int64_t edge_count = static_cast<std::int64_t>(edge_factor) * vertices;
  // Both directions of every edge plus the diagonal: refused before anything is allocated.
  check_index_range(2 * edge_count + vertices, what + ": nonzeros before merging duplicates");

  const std::vector<index_t> permutation = random_permutation(static_cast<index_t>(vertices), seed);
  std::vector<GraphEdge> edges(static_cast<std::size_t>(edge_count));
  const std::int64_t streams = (edge_count + edges_per_stream - 1) / edges_per_stream;
#pragma omp parallel for schedule(dynamic, 4)
  for (std::int64_t stream = 0; stream < streams; ++stream) {
    SeededRng rng(seed, static_cast<std::uint64_t>(stream) + 1);
    const std::int64_t end = std::min(edge_count, (stream + 1) * edges_per_stream);
    for (std::int64_t e = stream * edges_per_stream; e < end; ++e) {
      GraphEdge edge = draw_rmat_edge(scale, rng);
      edge.first = permutation[edge.first];  // a self-loop stays one: dropped by the assembly
      edge.second = permutation[edge.second];
      edges[e] = edge;
    }
  }
  return shifted_graph_laplacian(static_cast<index_t>(vertices), edges, 1.0, what);
}

}  // namespace spk
