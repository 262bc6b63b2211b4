// The smoothed-aggregation setup, piece by piece on small matrices with known answers:
// strength of connection, MIS(2) aggregation (exact aggregates, partition, determinism),
// the tentative and smoothed prolongators and the Galerkin product against dense
// references, the dense coarse solve, and the hierarchy's update_values.
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <memory>
#include <random>
#include <vector>

#include "solver/amg/aggregation.hpp"
#include "solver/amg/dense_lu.hpp"
#include "solver/amg/galerkin_product.hpp"
#include "solver/amg/hierarchy.hpp"
#include "solver/amg/host_amg_build.hpp"
#include "solver/amg/smoothed_prolongator.hpp"
#include "solver/amg/sparse_product.hpp"
#include "solver/amg/strength.hpp"
#include "solver/amg/strength_rules.hpp"
#include "solver/amg/tentative_prolongator.hpp"
#include "spkrylov/errors.hpp"
#include "tests/solver_test_support.hpp"

namespace spk {
namespace {

using test::generated;
using Dense = std::vector<std::vector<double>>;

Dense to_dense(const CsrMatrix<double>& a) {
  Dense dense(static_cast<std::size_t>(a.rows), std::vector<double>(a.cols, 0.0));
  for (index_t row = 0; row < a.rows; ++row)
    for (index_t k = a.row_offsets[row]; k < a.row_offsets[row + 1]; ++k)
      dense[row][a.columns[k]] += a.values[k];
  return dense;
}

Dense multiply(const Dense& a, const Dense& b) {
  Dense c(a.size(), std::vector<double>(b.empty() ? 0 : b[0].size(), 0.0));
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t k = 0; k < b.size(); ++k)
      for (std::size_t j = 0; j < c[i].size(); ++j) c[i][j] += a[i][k] * b[k][j];
  return c;
}

Dense transposed(const Dense& a) {
  Dense t(a.empty() ? 0 : a[0].size(), std::vector<double>(a.size(), 0.0));
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t j = 0; j < a[i].size(); ++j) t[j][i] = a[i][j];
  return t;
}

void expect_dense_near(const Dense& actual, const Dense& expected, double tolerance) {
  ASSERT_EQ(actual.size(), expected.size());
  for (std::size_t i = 0; i < actual.size(); ++i) {
    ASSERT_EQ(actual[i].size(), expected[i].size());
    for (std::size_t j = 0; j < actual[i].size(); ++j)
      EXPECT_NEAR(actual[i][j], expected[i][j], tolerance) << "entry (" << i << ", " << j << ")";
  }
}

// The path graph 0 - 1 - ... - (n-1) as a tridiagonal matrix (the 1-D Laplacian).
CsrMatrix<double> laplacian_1d(int n, bool neumann = false) {
  CsrMatrix<double> a;
  a.rows = a.cols = n;
  for (int i = 0; i < n; ++i) {
    if (i > 0) a.columns.push_back(i - 1), a.values.push_back(-1.0);
    const bool end = i == 0 || i == n - 1;
    a.columns.push_back(i), a.values.push_back(neumann && end ? 1.0 : 2.0);
    if (i < n - 1) a.columns.push_back(i + 1), a.values.push_back(-1.0);
    a.row_offsets.push_back(static_cast<index_t>(a.columns.size()));
  }
  return a;
}

std::vector<std::uint32_t> index_priorities(index_t n) {
  std::vector<std::uint32_t> priorities(static_cast<std::size_t>(n));
  for (index_t i = 0; i < n; ++i)
    priorities[static_cast<std::size_t>(i)] = static_cast<std::uint32_t>(i);
  return priorities;
}

// Shortest path lengths from `source` in the graph (breadth first), -1 where unreachable.
std::vector<int> distances_from(const StrengthGraph& graph, index_t source) {
  std::vector<int> distance(static_cast<std::size_t>(graph.nodes), -1);
  std::vector<index_t> frontier{source};
  distance[source] = 0;
  while (!frontier.empty()) {
    std::vector<index_t> next;
    for (const index_t node : frontier)
      for (index_t k = graph.row_offsets[node]; k < graph.row_offsets[node + 1]; ++k)
        if (distance[graph.neighbours[k]] < 0) {
          distance[graph.neighbours[k]] = distance[node] + 1;
          next.push_back(graph.neighbours[k]);
        }
    frontier = std::move(next);
  }
  return distance;
}

// ---- strength of connection ---------------------------------------------------------------

TEST(AmgStrength, ThetaZeroKeepsEveryStoredNonzeroButExplicitZeros) {
  CsrMatrix<double> a = laplacian_1d(4);
  a.values[a.row_offsets[1]] = 0.0;  // a_10 stored as 0: no connection from 1 to 0
  const StrengthGraph graph = strength_graph(a, 0.0);
  // S has 1->2, 2->1, ... and 0->1 (a_01 = -1); S union S^T keeps 0 - 1 through a_01.
  EXPECT_EQ(graph.row_offsets, (std::vector<index_t>{0, 1, 3, 5, 6}));
  EXPECT_EQ(graph.neighbours, (std::vector<index_t>{1, 0, 2, 1, 3, 2}));
}

TEST(AmgStrength, ThresholdDropsWeakConnectionsAndSymmetrizes) {
  // Row 0: |a_01| = 1 >= 0.5 sqrt(4 * 4); row 1: |a_10| = 0.1 is weak, but 0 - 1 stays (S^T);
  // 1 - 2: |a_12| = |a_21| = 0.5 < 0.5 sqrt(4 * 4) = 2: weak both ways.
  CsrMatrix<double> a;
  a.rows = a.cols = 3;
  a.row_offsets = {0, 2, 5, 7};
  a.columns = {0, 1, 0, 1, 2, 1, 2};
  a.values = {4.0, -2.0, -0.1, 4.0, -0.5, -0.5, 4.0};
  const StrengthGraph graph = strength_graph(a, 0.5);
  EXPECT_EQ(graph.row_offsets, (std::vector<index_t>{0, 1, 2, 2}));
  EXPECT_EQ(graph.neighbours, (std::vector<index_t>{1, 0}));
  const StrengthGraph all = strength_graph(a, 0.0);
  EXPECT_EQ(all.neighbours, (std::vector<index_t>{1, 0, 2, 1}));
}

// A random symmetric n x n matrix (a_ji == a_ij bitwise), diagonals in [1, 5), off-diagonals
// in [-2, 2) with some stored zeros, `extra` columns past n (a whole form's halo slots) at the
// end of some rows.
CsrMatrix<double> random_symmetric(index_t n, index_t extra, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  std::uniform_int_distribution<index_t> column(0, n - 1);
  std::vector<std::map<index_t, double>> rows(static_cast<std::size_t>(n));
  for (index_t i = 0; i < n; ++i) {
    rows[i][i] = 1.0 + 4.0 * uniform(rng);
    for (int e = 0; e < static_cast<int>(i % 4); ++e) {
      const index_t j = column(rng);
      if (j == i) continue;
      const double value = uniform(rng) < 0.1 ? 0.0 : 4.0 * uniform(rng) - 2.0;
      rows[i][j] = value;
      rows[j][i] = value;
    }
  }
  CsrMatrix<double> a;
  a.rows = n;
  a.cols = n + extra;
  for (index_t i = 0; i < n; ++i) {
    if (extra > 0 && i % 3 == 0) rows[i][n + i % extra] = uniform(rng);
    for (const auto& [j, value] : rows[i]) {
      a.columns.push_back(j);
      a.values.push_back(value);
    }
    a.row_offsets.push_back(a.nnz());
  }
  return a;
}

TEST(AmgStrength, SymmetricRowEqualsTheUnionWithTheTranspose) {
  std::mt19937_64 rng(7);
  for (const index_t n : {1, 2, 17, 300}) {
    for (const double theta : {0.0, 0.1, 0.5}) {
      const CsrMatrix<double> a = random_symmetric(n, 0, rng);
      const CsrMatrix<double> t = transpose(a, nullptr);
      std::vector<double> diagonal(static_cast<std::size_t>(n));
      for (index_t i = 0; i < n; ++i)
        diagonal[i] = absolute_diagonal(i, a.row_offsets.data(), a.columns.data(), a.values.data());
      // The same rows with halo slots after them: the block's graph is unchanged.
      std::mt19937_64 same(11);
      const CsrMatrix<double> whole = random_symmetric(n, 3, same);
      std::mt19937_64 again(11);
      const CsrMatrix<double> block = random_symmetric(n, 0, again);
      const CsrMatrix<double> block_t = transpose(block, nullptr);
      std::vector<double> block_diagonal(static_cast<std::size_t>(n));
      for (index_t i = 0; i < n; ++i)
        block_diagonal[i] = absolute_diagonal(i, block.row_offsets.data(), block.columns.data(),
                                              block.values.data());
      index_t edges = 0;
      for (index_t i = 0; i < n; ++i) {
        std::vector<index_t> expected(static_cast<std::size_t>(2 * a.nnz() + 1), -1),
            found(expected.size(), -2);
        const index_t count = strong_union_row(
            i, a.row_offsets.data(), a.columns.data(), a.values.data(), t.row_offsets.data(),
            t.columns.data(), t.values.data(), diagonal.data(), theta, expected.data());
        ASSERT_EQ(strong_symmetric_row(i, a.row_offsets.data(), a.columns.data(), a.values.data(),
                                       n, diagonal.data(), theta, found.data()),
                  count)
            << "n " << n << ", theta " << theta << ", row " << i;
        expected.resize(count);
        found.resize(count);
        EXPECT_EQ(found, expected) << "n " << n << ", theta " << theta << ", row " << i;
        edges += count;

        std::vector<index_t> from_block(static_cast<std::size_t>(block.nnz() + 1)),
            from_whole(from_block.size());
        const index_t block_count = strong_union_row(
            i, block.row_offsets.data(), block.columns.data(), block.values.data(),
            block_t.row_offsets.data(), block_t.columns.data(), block_t.values.data(),
            block_diagonal.data(), theta, from_block.data());
        ASSERT_EQ(strong_symmetric_row(i, whole.row_offsets.data(), whole.columns.data(),
                                       whole.values.data(), n, block_diagonal.data(), theta,
                                       from_whole.data()),
                  block_count)
            << "whole rows, n " << n << ", row " << i;
        from_block.resize(block_count);
        from_whole.resize(block_count);
        EXPECT_EQ(from_whole, from_block) << "whole rows, n " << n << ", row " << i;
      }
      if (n > 2 && theta == 0.0) {
        EXPECT_GT(edges, 0);
      }
    }
  }
}

// ---- aggregation --------------------------------------------------------------------------

TEST(AmgAggregation, ChainWithIndexPrioritiesGivesTheExpectedAggregates) {
  // Priority = index on 0 - 1 - ... - 8. Round 1: 8 is the only 2-ring maximum; round 2
  // removes 6, 7 and makes 5 a root (6, 7 are removed, so 5 beats its 2-ring); ... roots
  // 8, 5, 2. Node 3 is 1 step from root 2 and 2 from root 5: it joins 2. Node 6: 1 step from
  // 5, 2 from 8: joins 5.
  const StrengthGraph graph = strength_graph(laplacian_1d(9), 0.0);
  const Aggregates aggregates = aggregate_mis2(graph, index_priorities(9));
  EXPECT_EQ(aggregates.roots, (std::vector<index_t>{2, 5, 8}));
  EXPECT_EQ(aggregates.aggregate_of, (std::vector<index_t>{0, 0, 0, 0, 1, 1, 1, 2, 2}));
  EXPECT_EQ(aggregates.count, 3);
  EXPECT_EQ(aggregates.isolated, 0);
}

TEST(AmgAggregation, GridWithIndexPrioritiesGivesTheExpectedAggregates) {
  // The 3 x 3 grid, node = x + 3 y, priority = index. Round 1: root 8 (corner (2,2)); round 2
  // removes its 2-ring 2, 4, 5, 6, 7; round 3: among 0, 1, 3 the largest is 3, a root (8 is
  // 3 steps away); round 4 removes 0 and 1. Nearest roots: 0, 1, 4, 6 -> 3 (1, 2, 1, 1
  // steps); 2, 5, 7 -> 8 (2, 1, 1 steps; 2 is 3 steps from root 3).
  const StrengthGraph graph = strength_graph(generated("poisson2d", 3), 0.0);
  const Aggregates aggregates = aggregate_mis2(graph, index_priorities(9));
  EXPECT_EQ(aggregates.roots, (std::vector<index_t>{3, 8}));
  EXPECT_EQ(aggregates.aggregate_of, (std::vector<index_t>{0, 0, 1, 0, 0, 1, 0, 1, 1}));
  EXPECT_EQ(aggregates.rounds, 4);
}

TEST(AmgAggregation, TiesBetweenEquallyNearRootsGoToTheHigherPriority) {
  // 0 - 1 - 2 with roots 0 and 2 (priorities 5, 1, 9 make 2 the first root, then 0): node 1
  // is 1 step from both and joins root 2, the higher priority.
  const StrengthGraph graph = strength_graph(laplacian_1d(3), 0.0);
  Aggregates aggregates = aggregate_mis2(graph, {5, 1, 9});
  EXPECT_EQ(aggregates.roots, (std::vector<index_t>{2}));  // 0 is 2 steps from 2: removed
  aggregates = aggregate_mis2(strength_graph(laplacian_1d(5), 0.0), {9, 1, 0, 2, 8});
  // Roots 0 and 4 (more than 2 apart); node 2 is 2 steps from both: priority 9 wins.
  EXPECT_EQ(aggregates.roots, (std::vector<index_t>{0, 4}));
  EXPECT_EQ(aggregates.aggregate_of, (std::vector<index_t>{0, 0, 0, 1, 1}));
}

void expect_valid_mis2_aggregates(const StrengthGraph& graph, const Aggregates& aggregates,
                                  int reach = 2) {
  ASSERT_EQ(aggregates.aggregate_of.size(), static_cast<std::size_t>(graph.nodes));
  ASSERT_EQ(aggregates.roots.size(), static_cast<std::size_t>(aggregates.count));
  std::vector<index_t> size(static_cast<std::size_t>(aggregates.count), 0);
  for (const index_t aggregate : aggregates.aggregate_of) {
    ASSERT_GE(aggregate, 0);
    ASSERT_LT(aggregate, aggregates.count);
    ++size[static_cast<std::size_t>(aggregate)];  // every node in exactly one aggregate
  }
  for (index_t j = 0; j < aggregates.count; ++j) {
    EXPECT_GT(size[j], 0) << "aggregate " << j << " is empty";
    const index_t root = aggregates.roots[j];
    EXPECT_EQ(aggregates.aggregate_of[root], j);
    const std::vector<int> distance = distances_from(graph, root);
    for (index_t other = 0; other < aggregates.count; ++other) {  // roots are > 2 steps apart
      if (other != j && distance[aggregates.roots[other]] >= 0) {
        EXPECT_GT(distance[aggregates.roots[other]], reach) << "roots " << root << ", " << other;
      }
    }
    for (index_t node = 0; node < graph.nodes; ++node) {
      if (aggregates.aggregate_of[node] == j) {  // members are 0..reach steps from their root
        EXPECT_GE(distance[node], 0);
        EXPECT_LE(distance[node], reach);
      }
    }
  }
}

TEST(AmgAggregation, EveryNodeInExactlyOneAggregateNearItsRoot) {
  for (const auto& a : {generated("poisson2d", 17), generated("poisson3d", 9),
                        generated("poisson3d", 6, 27), generated("elasticity3d", 4)}) {
    const StrengthGraph graph = strength_graph(a, 0.0);
    const Aggregates aggregates = aggregate_mis2(graph);
    expect_valid_mis2_aggregates(graph, aggregates);
    EXPECT_LT(aggregates.count * 4, a.rows);  // coarsens at least 4x on these stencils
  }
}

TEST(AmgAggregation, DistanceOneRootsAreNeighbourFreeAndEveryNodeTouchesItsRoot) {
  for (const auto& a :
       {generated("poisson2d", 17), generated("poisson3d", 9), generated("elasticity3d", 4)}) {
    const StrengthGraph graph = strength_graph(a, 0.0);
    const Aggregates aggregates = aggregate_mis2(graph, 1);
    expect_valid_mis2_aggregates(graph, aggregates, 1);
    // smaller aggregates than MIS(2)'s: more of them
    EXPECT_GT(aggregates.count, aggregate_mis2(graph).count);
  }
}

TEST(AmgAggregation, SameAggregatesTwiceAndForAnyThreadCount) {
  const auto a = generated("poisson3d", 20);
  const StrengthGraph graph = strength_graph(a, 0.0);
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  const Aggregates one = aggregate_mis2(graph);
  omp_set_num_threads(3);
  const Aggregates three = aggregate_mis2(strength_graph(a, 0.0));
  const Aggregates again = aggregate_mis2(graph);
  omp_set_num_threads(threads);
  EXPECT_EQ(one.aggregate_of, three.aggregate_of);
  EXPECT_EQ(one.aggregate_of, again.aggregate_of);
  EXPECT_EQ(one.rounds, three.rounds);
}

TEST(AmgAggregation, IsolatedNodesAreOneNodeAggregates) {
  // Row 2 of a 5-row chain decoupled (only its diagonal): its own aggregate.
  CsrMatrix<double> a = laplacian_1d(5);
  for (index_t row = 1; row <= 3; ++row)
    for (index_t k = a.row_offsets[row]; k < a.row_offsets[row + 1]; ++k)
      if ((row == 2) != (a.columns[k] == 2)) a.values[k] = 0.0;  // a_12, a_21, a_23, a_32 = 0
  const StrengthGraph graph = strength_graph(a, 0.0);
  EXPECT_EQ(graph.degree(2), 0);
  const Aggregates aggregates = aggregate_mis2(graph);
  EXPECT_EQ(aggregates.isolated, 1);
  const index_t own = aggregates.aggregate_of[2];
  EXPECT_EQ(std::count(aggregates.aggregate_of.begin(), aggregates.aggregate_of.end(), own), 1);
  EXPECT_EQ(aggregates.count, 3);  // {0, 1}, {2}, {3, 4}
}

// ---- prolongators and the Galerkin product -------------------------------------------------

TEST(AmgProlongator, TentativeColumnsAreOrthonormalAndReproduceTheCandidates) {
  const auto a = generated("poisson2d", 9);
  const Aggregates aggregates = aggregate_mis2(strength_graph(a, 0.0));
  std::vector<double> sizes(static_cast<std::size_t>(aggregates.count), 0.0);
  for (const index_t aggregate : aggregates.aggregate_of) sizes[aggregate] += 1.0;
  for (const bool ones : {true, false}) {
    std::vector<double> candidates(static_cast<std::size_t>(a.rows), 1.0);  // B = ones
    if (!ones) candidates = test::random_vector(candidates.size(), 3);      // any nonzero B
    const TentativeProlongator tentative = tentative_prolongator(aggregates, candidates);
    const CsrMatrix<double>& t = tentative.matrix;
    ASSERT_EQ(t.rows, a.rows);
    ASSERT_EQ(t.cols, aggregates.count);
    const Dense dense = to_dense(t);
    Dense identity(static_cast<std::size_t>(t.cols), std::vector<double>(t.cols, 0.0));
    for (index_t j = 0; j < t.cols; ++j) identity[j][j] = 1.0;
    expect_dense_near(multiply(transposed(dense), dense), identity, 1e-14);  // T^T T = I
    for (index_t i = 0; i < t.rows; ++i) {                                   // T B_c = B
      double sum = 0.0;
      for (index_t j = 0; j < t.cols; ++j) sum += dense[i][j] * tentative.coarse_candidates[j];
      EXPECT_NEAR(sum, candidates[i], 1e-14);
    }
    if (ones) {  // piecewise constant: 1 / sqrt(|agg|), B_c = sqrt(|agg|)
      for (index_t i = 0; i < t.rows; ++i)
        EXPECT_DOUBLE_EQ(t.values[i], 1.0 / std::sqrt(sizes[t.columns[i]]));
      for (index_t j = 0; j < t.cols; ++j)
        EXPECT_DOUBLE_EQ(tentative.coarse_candidates[j], std::sqrt(sizes[j]));
    }
  }
}

TEST(AmgProlongator, SmoothedProlongatorMatchesDenseReference) {
  GeneratorSpec spec;  // nonsymmetric, with a nonconstant diagonal
  spec.kind = "convdiff2d";
  spec.n = 7;
  spec.peclet = 2.0;
  const auto a = generate_matrix(spec);
  const Aggregates aggregates = aggregate_mis2(strength_graph(a, 0.0));
  const CsrMatrix<double> t =
      tentative_prolongator(aggregates, std::vector<double>(a.rows, 1.0)).matrix;
  std::vector<double> inverse_diagonal(static_cast<std::size_t>(a.rows));
  const Dense a_dense = to_dense(a);
  for (index_t i = 0; i < a.rows; ++i) inverse_diagonal[i] = 1.0 / a_dense[i][i];
  const double weight = 4.0 / 3.0, lambda = 1.7;
  SmoothedProlongator prolongator(a, t, weight);
  prolongator.compute(a, inverse_diagonal, lambda);
  // (I - w/lambda D^-1 A) T, dense
  Dense smoother(a_dense.size(), std::vector<double>(a_dense.size(), 0.0));
  for (std::size_t i = 0; i < a_dense.size(); ++i)
    for (std::size_t j = 0; j < a_dense.size(); ++j)
      smoother[i][j] = (i == j ? 1.0 : 0.0) - weight / lambda * inverse_diagonal[i] * a_dense[i][j];
  expect_dense_near(to_dense(prolongator.matrix()), multiply(smoother, to_dense(t)), 1e-14);

  SmoothedProlongator unsmoothed(a, t, 0.0);  // weight 0: P = T
  unsmoothed.compute(a, inverse_diagonal, lambda);
  EXPECT_EQ(unsmoothed.matrix().columns, t.columns);
  EXPECT_EQ(unsmoothed.matrix().values, t.values);
}

TEST(AmgGalerkin, RapMatchesDenseTripleProductAndRefreshes) {
  GeneratorSpec spec;
  spec.kind = "convdiff2d";
  spec.n = 6;
  spec.peclet = 3.0;
  const auto a = generate_matrix(spec);
  const Aggregates aggregates = aggregate_mis2(strength_graph(a, 0.0));
  std::vector<double> inverse_diagonal(static_cast<std::size_t>(a.rows));
  for (index_t i = 0; i < a.rows; ++i) inverse_diagonal[i] = 1.0 / to_dense(a)[i][i];
  SmoothedProlongator prolongator(
      a, tentative_prolongator(aggregates, std::vector<double>(a.rows, 1.0)).matrix, 4.0 / 3.0);
  prolongator.compute(a, inverse_diagonal, 2.0);
  CsrMatrix<double> coarse;
  GalerkinProduct galerkin(a, prolongator.matrix(), coarse);
  const Dense p = to_dense(prolongator.matrix());
  expect_dense_near(to_dense(galerkin.restriction()), transposed(p), 0.0);  // R = P^T
  expect_dense_near(to_dense(coarse), multiply(transposed(p), multiply(to_dense(a), p)), 1e-13);

  CsrMatrix<double> scaled = a;  // new values, same pattern: compute() again
  for (std::size_t k = 0; k < scaled.values.size(); ++k)
    scaled.values[k] *= 1.0 + 0.01 * static_cast<double>(k % 7);
  const std::vector<index_t> pattern = coarse.columns;
  galerkin.compute(scaled, prolongator.matrix(), coarse);
  EXPECT_EQ(coarse.columns, pattern);
  expect_dense_near(to_dense(coarse), multiply(transposed(p), multiply(to_dense(scaled), p)),
                    1e-13);
}

TEST(AmgSparseProduct, ExplicitZerosKeepThePatternStructural) {
  CsrMatrix<double> a = laplacian_1d(4);
  std::fill(a.values.begin(), a.values.end(), 0.0);
  const CsrMatrix<double> c = product_pattern(a, laplacian_1d(4));
  EXPECT_EQ(c.nnz(), 14);  // the pattern of a pentadiagonal 4 x 4 matrix, values or not
}

// ---- the dense coarse solve ---------------------------------------------------------------

TEST(AmgDenseLu, SolvesAndInvertsWithPivoting) {
  CsrMatrix<double> a;  // a_00 = 0: needs a row exchange
  a.rows = a.cols = 3;
  a.row_offsets = {0, 2, 5, 8};
  a.columns = {1, 2, 0, 1, 2, 0, 1, 2};
  a.values = {2.0, 1.0, 3.0, -1.0, 4.0, 1.0, 5.0, -2.0};
  const DenseLu lu(a, "test");
  const std::vector<double> x = lu.solve({1.0, 2.0, 3.0});
  const Dense dense = to_dense(a);
  for (std::size_t i = 0; i < 3; ++i) {
    double ax = 0.0;
    for (std::size_t j = 0; j < 3; ++j) ax += dense[i][j] * x[j];
    EXPECT_NEAR(ax, static_cast<double>(i + 1), 1e-14);
  }
  const Dense product = multiply(to_dense(lu.inverse()), dense);
  expect_dense_near(product, {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, 1e-14);
}

TEST(AmgDenseLu, SingularMatrixIsAClearError) {
  try {
    const DenseLu lu(laplacian_1d(12, true), "amg: the coarsest level (level 0, 12 rows)");
    FAIL() << "a singular matrix was factored";
  } catch (const BadInput& error) {
    EXPECT_NE(std::string(error.what()).find("singular to working precision"), std::string::npos)
        << error.what();
    EXPECT_NE(std::string(error.what()).find("coarsest level (level 0, 12 rows)"),
              std::string::npos);
  }
}

// ---- the hierarchy --------------------------------------------------------------------------

TEST(AmgHierarchy, Poisson3dLevelsAndComplexities) {
  AmgOptions options;
  options.max_coarse_rows = 100;
  const AmgHierarchy hierarchy(generated("poisson3d", 24), options);
  ASSERT_GE(hierarchy.size(), 3u);
  EXPECT_EQ(hierarchy.stop_reason(), "max_coarse_rows");
  EXPECT_LE(hierarchy.coarsest().matrix.rows, 100);
  for (std::size_t l = 0; l + 1 < hierarchy.size(); ++l) {
    const AmgLevel& level = hierarchy.level(l);
    EXPECT_EQ(level.prolongation().rows, level.matrix.rows);
    EXPECT_EQ(level.prolongation().cols, hierarchy.level(l + 1).matrix.rows);
    EXPECT_GT(level.bound.lambda_max, 1.0) << "level " << l;  // 1.99 on the finest level
    EXPECT_LT(level.bound.lambda_max, 3.0) << "level " << l;
  }
  EXPECT_GT(hierarchy.operator_complexity(), 1.0);
  EXPECT_LT(hierarchy.operator_complexity(), 2.0);
  EXPECT_LT(hierarchy.grid_complexity(), 1.25);
  const CsrMatrix<double>& coarse = hierarchy.coarsest().matrix;  // A_c A_c^-1 = I
  const Dense product = multiply(to_dense(coarse), to_dense(hierarchy.coarse_inverse()));
  for (std::size_t i = 0; i < product.size(); ++i)
    for (std::size_t j = 0; j < product.size(); ++j)
      EXPECT_NEAR(product[i][j], i == j ? 1.0 : 0.0, 1e-10);
}

TEST(AmgHierarchy, UpdateValuesEqualsAFreshSetupAndCostsLess) {
  const auto a = generated("poisson3d", 28);
  auto changed = test::with_scaled_diagonal(a, 1.5);
  for (double& value : changed.values) value *= 3.0;
  const AmgOptions options;
  // Each timed 3 times, the fastest kept: other processes on the machine add only delays.
  using Clock = std::chrono::steady_clock;
  double setup_s = 1e30, update_s = 1e30;
  std::unique_ptr<AmgHierarchy> updated;
  for (int repetition = 0; repetition < 3; ++repetition) {
    const auto setup_start = Clock::now();
    updated = std::make_unique<AmgHierarchy>(a, options);
    setup_s = std::min(setup_s, std::chrono::duration<double>(Clock::now() - setup_start).count());
  }
  for (int repetition = 0; repetition < 3; ++repetition) {
    const auto update_start = Clock::now();
    updated->fine_matrix().values = changed.values;
    updated->update_values();
    update_s =
        std::min(update_s, std::chrono::duration<double>(Clock::now() - update_start).count());
  }
  const AmgHierarchy fresh(changed, options);
  ASSERT_EQ(updated->size(), fresh.size());
  for (std::size_t l = 0; l < fresh.size(); ++l) {
    const CsrMatrix<double>& u = updated->level(l).matrix;
    const CsrMatrix<double>& f = fresh.level(l).matrix;
    ASSERT_EQ(u.columns, f.columns) << "level " << l;
    for (std::size_t k = 0; k < f.values.size(); ++k)
      ASSERT_NEAR(u.values[k], f.values[k], 1e-12 * std::abs(f.values[k]) + 1e-14) << "level " << l;
  }
  // The re-setup skips strength, aggregation and every symbolic product.
  EXPECT_LT(update_s, setup_s) << "update " << update_s << " s, setup " << setup_s << " s";
  EXPECT_FALSE(updated->update_phases().empty());
}

TEST(AmgHierarchy, SmallMatrixIsOneLevel) {
  const AmgHierarchy hierarchy(generated("poisson2d", 10), AmgOptions{});  // 100 <= 500 rows
  EXPECT_EQ(hierarchy.size(), 1u);
  EXPECT_EQ(hierarchy.stop_reason(), "max_coarse_rows");
  EXPECT_DOUBLE_EQ(hierarchy.operator_complexity(), 1.0);
}

TEST(AmgHierarchy, CoarsestLevelTooLargeForTheDenseSolveIsAClearError) {
  AmgOptions options;
  options.max_levels = 1;
  try {
    const AmgHierarchy hierarchy(generated("poisson2d", 50), options);  // 2500 rows, one level
    FAIL() << "a 2500-row dense coarse solve was accepted";
  } catch (const BadInput& error) {
    EXPECT_NE(std::string(error.what()).find("too large for the dense coarse solve"),
              std::string::npos)
        << error.what();
    EXPECT_NE(std::string(error.what()).find("max_levels"), std::string::npos) << error.what();
  }
}

TEST(AmgHierarchy, SingularNeumannProblemIsAClearError) {
  // The 2-D Laplacian with natural boundaries (row sums 0): constants are its null space, on
  // every level of the hierarchy.
  auto a = generated("poisson2d", 30);
  for (index_t row = 0; row < a.rows; ++row) {
    double off = 0.0;
    index_t diagonal = -1;
    for (index_t k = a.row_offsets[row]; k < a.row_offsets[row + 1]; ++k)
      if (a.columns[k] == row)
        diagonal = k;
      else
        off += a.values[k];
    a.values[diagonal] = -off;
  }
  AmgOptions options;
  options.max_coarse_rows = 50;
  try {
    const AmgHierarchy hierarchy(a, options);
    FAIL() << "a singular coarsest matrix was factored";
  } catch (const BadInput& error) {
    EXPECT_NE(std::string(error.what()).find("singular"), std::string::npos) << error.what();
  }
}

TEST(AmgHierarchy, ZeroDiagonalNamesTheRowAndAnEmptyRowToo) {
  auto a = generated("poisson2d", 30);
  for (index_t k = a.row_offsets[417]; k < a.row_offsets[418]; ++k)
    if (a.columns[k] == 417) a.values[k] = 0.0;
  try {
    const AmgHierarchy hierarchy(a, AmgOptions{});
    FAIL() << "a zero diagonal entry was accepted";
  } catch (const BadDiagonal& error) {
    EXPECT_EQ(error.row(), 417);
  }
  CsrMatrix<double> empty_row = laplacian_1d(3);  // row 1 stores nothing
  empty_row.row_offsets = {0, 2, 2, 4};
  empty_row.columns = {0, 1, 1, 2};
  empty_row.values = {2.0, -1.0, -1.0, 2.0};
  try {
    const AmgHierarchy hierarchy(empty_row, AmgOptions{});
    FAIL() << "an empty row was accepted";
  } catch (const BadDiagonal& error) {
    EXPECT_EQ(error.row(), 1);
    EXPECT_EQ(error.problem(), "diagonal entry is zero or missing");
  }
}

}  // namespace
}  // namespace spk
