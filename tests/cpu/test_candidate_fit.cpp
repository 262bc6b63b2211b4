// fit_candidates (solver/amg/candidate_fit.hpp), the tentative prolongator for k near-null-space
// vectors on nodal aggregates: T^T T = I and T B_c = B in fp64 on random and rigid-body
// candidates, the block layout (k columns per aggregate, every dof of a node in its node's
// aggregate), the k = 1 case equal to tentative_prolongator, rank-deficient aggregates, and the
// bad inputs.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "solver/amg/candidate_fit.hpp"
#include "solver/amg/tentative_prolongator.hpp"
#include "spkrylov/errors.hpp"

namespace spk {
namespace {

// Nodes 0..nodes-1 in aggregates of `size` consecutive nodes (the last one shorter).
Aggregates consecutive_aggregates(index_t nodes, index_t size) {
  Aggregates aggregates;
  aggregates.aggregate_of.resize(static_cast<std::size_t>(nodes));
  for (index_t node = 0; node < nodes; ++node)
    aggregates.aggregate_of[static_cast<std::size_t>(node)] = node / size;
  aggregates.count = (nodes + size - 1) / size;
  for (index_t j = 0; j < aggregates.count; ++j) aggregates.roots.push_back(j * size);
  return aggregates;
}

// The 6 rigid-body modes of 3-D elasticity at node coordinates (x, y, z) of a grid: 3
// translations and 3 rotations, dofs interleaved (x, y, z of node 0, then node 1, ...).
std::vector<double> rigid_body_modes(int n) {
  std::vector<double> b;
  for (int z = 0; z < n; ++z)
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x) {
        const double px = x - 0.5 * (n - 1), py = y - 0.5 * (n - 1), pz = z - 0.5 * (n - 1);
        const double rows[3][6] = {
            {1, 0, 0, -py, 0, pz}, {0, 1, 0, px, -pz, 0}, {0, 0, 1, 0, py, -px}};
        for (const auto& row : rows) b.insert(b.end(), row, row + 6);
      }
  return b;
}

// max |T^T T - I| (every column, completed ones included), and max |T B_c - B| / max |B|.
struct FitErrors {
  double orthonormality = 0.0;
  double reproduction = 0.0;
};

FitErrors errors_of(const CandidateFit& fit, const std::vector<double>& b) {
  const CsrMatrix<double>& t = fit.matrix;
  const auto k = static_cast<std::size_t>(fit.candidates);
  const auto cols = static_cast<std::size_t>(t.cols);
  std::vector<double> gram(cols * cols, 0.0);
  for (index_t row = 0; row < t.rows; ++row)
    for (index_t a = t.row_offsets[row]; a < t.row_offsets[row + 1]; ++a)
      for (index_t c = t.row_offsets[row]; c < t.row_offsets[row + 1]; ++c)
        gram[static_cast<std::size_t>(t.columns[a]) * cols + t.columns[c]] +=
            t.values[a] * t.values[c];
  FitErrors errors;
  for (std::size_t i = 0; i < cols; ++i)
    for (std::size_t j = 0; j < cols; ++j)
      errors.orthonormality =
          std::max(errors.orthonormality, std::abs(gram[i * cols + j] - (i == j ? 1.0 : 0.0)));
  double scale = 0.0;
  for (const double value : b) scale = std::max(scale, std::abs(value));
  for (index_t row = 0; row < t.rows; ++row)
    for (std::size_t c = 0; c < k; ++c) {
      double sum = 0.0;
      for (index_t a = t.row_offsets[row]; a < t.row_offsets[row + 1]; ++a)
        sum += t.values[a] * fit.coarse_candidates[static_cast<std::size_t>(t.columns[a]) * k + c];
      errors.reproduction = std::max(
          errors.reproduction, std::abs(sum - b[static_cast<std::size_t>(row) * k + c]) / scale);
    }
  return errors;
}

TEST(CandidateFit, RigidBodyModesOnNodalAggregatesAreReproducedByAnOrthonormalT) {
  const int n = 6;  // 216 nodes, 648 dofs
  const Aggregates aggregates = consecutive_aggregates(n * n * n, 27);
  const std::vector<double> b = rigid_body_modes(n);
  const CandidateFit fit = fit_candidates(aggregates, 3, b, 6);
  EXPECT_EQ(fit.matrix.rows, 648);
  EXPECT_EQ(fit.matrix.cols, aggregates.count * 6);
  EXPECT_EQ(fit.dependent_columns, 0);
  const FitErrors errors = errors_of(fit, b);
  EXPECT_LT(errors.orthonormality, 1e-13);
  EXPECT_LT(errors.reproduction, 1e-13);
  // Every dof of a node sits in its node's aggregate's k columns; R is upper triangular.
  for (index_t row = 0; row < fit.matrix.rows; ++row)
    for (index_t a = fit.matrix.row_offsets[row]; a < fit.matrix.row_offsets[row + 1]; ++a)
      EXPECT_EQ(fit.matrix.columns[a] / 6,
                aggregates.aggregate_of[static_cast<std::size_t>(row / 3)]);
  for (index_t j = 0; j < aggregates.count; ++j)
    for (int c = 0; c < 6; ++c)
      for (int p = c + 1; p < 6; ++p)
        EXPECT_EQ(fit.coarse_candidates[(static_cast<std::size_t>(j) * 6 + p) * 6 + c], 0.0);
}

TEST(CandidateFit, RandomCandidatesAndAShortLastAggregate) {
  const unsigned seed = std::random_device{}();
  SCOPED_TRACE("random seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  const Aggregates aggregates = consecutive_aggregates(51, 7);  // last aggregate: 2 nodes
  std::vector<double> b(51 * 2 * 3);
  for (double& v : b) v = value(rng);
  const CandidateFit fit = fit_candidates(aggregates, 2, b, 3);
  EXPECT_EQ(fit.dependent_columns, 0);  // 4 dofs of random values: rank 3
  const FitErrors errors = errors_of(fit, b);
  EXPECT_LT(errors.orthonormality, 1e-13);
  EXPECT_LT(errors.reproduction, 1e-12);
}

TEST(CandidateFit, TwoNodeAggregatesCompleteTheRotationTheirModesLack) {
  // 2 nodes span 5 of the 6 rigid-body modes (the rotation about the line through them moves
  // neither): each aggregate completes one column, T stays orthonormal and T B_c = B.
  const int n = 4;
  const Aggregates aggregates = consecutive_aggregates(n * n * n, 2);
  const std::vector<double> b = rigid_body_modes(n);
  const CandidateFit fit = fit_candidates(aggregates, 3, b, 6);
  EXPECT_EQ(fit.dependent_columns, aggregates.count);
  const FitErrors errors = errors_of(fit, b);
  EXPECT_LT(errors.orthonormality, 1e-13);
  EXPECT_LT(errors.reproduction, 1e-13);
}

TEST(CandidateFit, LeftOutNodesHaveEmptyRows) {
  Aggregates aggregates = consecutive_aggregates(12, 3);
  aggregates.aggregate_of[4] = -1;  // node 4 left out: aggregate 1 keeps nodes 3 and 5
  std::vector<double> b(12 * 2 * 2);
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = std::cos(0.7 * static_cast<double>(i));
  const CandidateFit fit = fit_candidates(aggregates, 2, b, 2);
  EXPECT_EQ(fit.matrix.row_offsets[9] - fit.matrix.row_offsets[8], 0);  // dofs 8, 9: node 4
  EXPECT_EQ(fit.matrix.row_offsets[10] - fit.matrix.row_offsets[9], 0);
  EXPECT_EQ(fit.matrix.nnz(), (12 - 1) * 2 * 2);
  EXPECT_LT(errors_of(fit, b).orthonormality, 1e-13);
  // T B_c = B on every row but node 4's
  for (index_t row = 0; row < fit.matrix.rows; ++row) {
    if (row / 2 == 4) continue;
    for (int c = 0; c < 2; ++c) {
      double sum = 0.0;
      for (index_t a = fit.matrix.row_offsets[row]; a < fit.matrix.row_offsets[row + 1]; ++a)
        sum += fit.matrix.values[a] *
               fit.coarse_candidates[static_cast<std::size_t>(fit.matrix.columns[a]) * 2 + c];
      EXPECT_NEAR(sum, b[static_cast<std::size_t>(row) * 2 + c], 1e-14);
    }
  }
}

TEST(CandidateFit, AnAggregateWithFewerUnknownsThanVectorsIsRefused) {
  const Aggregates aggregates = consecutive_aggregates(50, 7);  // last aggregate: 1 node
  const std::vector<double> b(50 * 2 * 3, 1.0);
  try {
    fit_candidates(aggregates, 2, b, 3);
    FAIL() << "2 unknowns for 3 vectors were accepted";
  } catch (const BadInput& error) {
    EXPECT_NE(std::string(error.what()).find("aggregate 7 has 2 unknowns for 3"), std::string::npos)
        << error.what();
  }
}

TEST(CandidateFit, OneVectorIsTheTentativeProlongator) {
  const Aggregates aggregates = consecutive_aggregates(40, 6);
  std::vector<double> b(40);
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = 1.0 + 0.1 * static_cast<double>(i % 5);
  const CandidateFit fit = fit_candidates(aggregates, 1, b, 1);
  const TentativeProlongator reference = tentative_prolongator(aggregates, b);
  EXPECT_EQ(fit.matrix.columns, reference.matrix.columns);
  ASSERT_EQ(fit.matrix.values.size(), reference.matrix.values.size());
  for (std::size_t i = 0; i < fit.matrix.values.size(); ++i)
    EXPECT_NEAR(fit.matrix.values[i], reference.matrix.values[i], 1e-15);
  for (std::size_t j = 0; j < reference.coarse_candidates.size(); ++j)
    EXPECT_NEAR(fit.coarse_candidates[j], reference.coarse_candidates[j], 1e-14);
}

TEST(CandidateFit, EqualVectorsCompleteTheBasisAndStillReproduceB) {
  const Aggregates aggregates = consecutive_aggregates(12, 4);
  std::vector<double> b;
  for (int row = 0; row < 12; ++row) b.insert(b.end(), {1.0 + row, 1.0 + row});  // k = 2, equal
  const CandidateFit fit = fit_candidates(aggregates, 1, b, 2);
  EXPECT_EQ(fit.dependent_columns, 3);  // one per aggregate, completed
  EXPECT_LT(errors_of(fit, b).orthonormality, 1e-14);
  EXPECT_LT(errors_of(fit, b).reproduction, 1e-14);
}

TEST(CandidateFit, BadInputIsRefusedWithOneLine) {
  const Aggregates aggregates = consecutive_aggregates(4, 2);
  EXPECT_THROW(fit_candidates(aggregates, 1, std::vector<double>(5), 1), BadInput);  // size
  EXPECT_THROW(fit_candidates(aggregates, 0, std::vector<double>(4), 1), BadInput);  // block
  EXPECT_THROW(fit_candidates(aggregates, 1, std::vector<double>(4 * 17), 17), BadInput);
  std::vector<double> b(4, 1.0);
  b[2] = std::nan("");
  try {
    fit_candidates(aggregates, 1, b, 1);
    FAIL() << "a NaN was accepted";
  } catch (const BadInput& error) {
    EXPECT_NE(std::string(error.what()).find("row 2"), std::string::npos) << error.what();
  }
}

}  // namespace
}  // namespace spk
