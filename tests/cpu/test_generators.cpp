// Matrix generators: exact sizes, entries against independent constructions, symmetry and
// dominance (via compute_matrix_stats), SPD (dense Cholesky), determinism, bad parameters.
#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>
#include <limits>

#include "spmv/host/generators.hpp"
#include "spmv/host/matrix_stats.hpp"
#include "tests/cpu/host_matrix_testing.hpp"

namespace spk {
namespace {

using test::expect_error;
using test::to_dense;

using Dense = std::vector<double>;  // row-major square

Dense identity(int n) {
  Dense result(static_cast<std::size_t>(n) * n, 0.0);
  for (int i = 0; i < n; ++i) result[i * n + i] = 1.0;
  return result;
}

// Tridiagonal n x n with (lower, diagonal, upper) constants.
Dense tridiagonal(int n, double lower, double diagonal, double upper) {
  Dense result(static_cast<std::size_t>(n) * n, 0.0);
  for (int i = 0; i < n; ++i) {
    result[i * n + i] = diagonal;
    if (i > 0) result[i * n + i - 1] = lower;
    if (i + 1 < n) result[i * n + i + 1] = upper;
  }
  return result;
}

// Kronecker product A (x) B of square matrices of orders a and b.
Dense kron(const Dense& a_matrix, int a, const Dense& b_matrix, int b) {
  const int n = a * b;
  Dense result(static_cast<std::size_t>(n) * n, 0.0);
  for (int i = 0; i < a; ++i)
    for (int j = 0; j < a; ++j)
      for (int k = 0; k < b; ++k)
        for (int l = 0; l < b; ++l)
          result[(i * b + k) * n + (j * b + l)] = a_matrix[i * a + j] * b_matrix[k * b + l];
  return result;
}

Dense add(Dense a, const Dense& b, double scale = 1.0) {
  for (std::size_t i = 0; i < a.size(); ++i) a[i] += scale * b[i];
  return a;
}

// True when the dense symmetric matrix admits a Cholesky factorization (is SPD).
bool cholesky_succeeds(Dense a, int n) {
  for (int j = 0; j < n; ++j) {
    double pivot = a[j * n + j];
    for (int k = 0; k < j; ++k) pivot -= a[j * n + k] * a[j * n + k];
    if (!(pivot > 0.0)) return false;
    a[j * n + j] = std::sqrt(pivot);
    for (int i = j + 1; i < n; ++i) {
      double sum = a[i * n + j];
      for (int k = 0; k < j; ++k) sum -= a[i * n + k] * a[j * n + k];
      a[i * n + j] = sum / a[j * n + j];
    }
  }
  return true;
}

bool same_matrix(const CsrMatrix<double>& a, const CsrMatrix<double>& b) {
  return a.rows == b.rows && a.cols == b.cols && a.row_offsets == b.row_offsets &&
         a.columns == b.columns && a.values == b.values;
}

// Row of grid point (x, y, z) on an n^3 grid (x fastest).
index_t grid_row(int n, int x, int y, int z) {
  return (z * n + y) * n + x;
}

double entry(const CsrMatrix<double>& matrix, index_t row, index_t column) {
  for (index_t k = matrix.row_offsets[row]; k < matrix.row_offsets[row + 1]; ++k)
    if (matrix.columns[k] == column) return matrix.values[k];
  return 0.0;
}

// ---- sizes ---------------------------------------------------------------------------

TEST(Generators, Poisson2dSizesMatchTheFormula) {
  for (int n : {1, 2, 3, 7, 40}) {
    const CsrMatrix<double> matrix = generate_poisson2d(n);
    test::expect_valid_csr(matrix);
    EXPECT_EQ(matrix.rows, n * n);
    EXPECT_EQ(matrix.cols, n * n);
    EXPECT_EQ(matrix.nnz(), 5 * n * n - 4 * n) << "n = " << n;
  }
}

TEST(Generators, Poisson3dSizesMatchTheFormulas) {
  for (int n : {1, 2, 3, 6, 17}) {
    const CsrMatrix<double> seven = generate_poisson3d(n, 7);
    test::expect_valid_csr(seven);
    EXPECT_EQ(seven.rows, n * n * n);
    EXPECT_EQ(seven.nnz(), 7 * n * n * n - 6 * n * n) << "n = " << n;
    const CsrMatrix<double> twenty_seven = generate_poisson3d(n, 27);
    test::expect_valid_csr(twenty_seven);
    EXPECT_EQ(twenty_seven.nnz(), (3 * n - 2) * (3 * n - 2) * (3 * n - 2)) << "n = " << n;
  }
  const CsrMatrix<double> matrix = generate_poisson3d(5, 27);
  EXPECT_EQ(matrix.row_length(grid_row(5, 2, 2, 2)), 27);
  EXPECT_EQ(matrix.row_length(grid_row(5, 0, 0, 0)), 8);
}

TEST(Generators, Elasticity3dSizesAndInteriorRowLength) {
  for (int n : {1, 2, 3, 5}) {
    const CsrMatrix<double> matrix = generate_elasticity3d(n);
    test::expect_valid_csr(matrix);
    EXPECT_EQ(matrix.rows, 3 * n * n * n);
    EXPECT_EQ(matrix.nnz(), 9 * (3 * n - 2) * (3 * n - 2) * (3 * n - 2)) << "n = " << n;
  }
  const CsrMatrix<double> matrix = generate_elasticity3d(3);
  for (int component = 0; component < 3; ++component)
    EXPECT_EQ(matrix.row_length(3 * grid_row(3, 1, 1, 1) + component), 81);
}

TEST(Generators, ConvdiffHasThePoissonPattern) {
  for (ConvectionScheme scheme : {ConvectionScheme::upwind, ConvectionScheme::central}) {
    const CsrMatrix<double> two = generate_convdiff2d(9, 1.0, scheme);  // central: zeros kept
    EXPECT_EQ(two.row_offsets, generate_poisson2d(9).row_offsets);
    EXPECT_EQ(two.columns, generate_poisson2d(9).columns);
    const CsrMatrix<double> three = generate_convdiff3d(6, 1.0, scheme);
    EXPECT_EQ(three.row_offsets, generate_poisson3d(6, 7).row_offsets);
    EXPECT_EQ(three.columns, generate_poisson3d(6, 7).columns);
  }
}

// ---- entries against independent constructions --------------------------------------

TEST(Generators, PoissonEqualsKroneckerSumsOfTheSecondDifference) {
  for (int n : {1, 2, 4}) {
    const Dense t = tridiagonal(n, -1, 2, -1), i = identity(n);
    EXPECT_EQ(to_dense(generate_poisson2d(n)), add(kron(i, n, t, n), kron(t, n, i, n)));
    const Dense ii = kron(i, n, i, n);
    const Dense seven =
        add(add(kron(ii, n * n, t, n), kron(i, n, kron(t, n, i, n), n * n)), kron(t, n, ii, n * n));
    EXPECT_EQ(to_dense(generate_poisson3d(n, 7)), seven) << "n = " << n;
    // 27-point: 27 I - B (x) B (x) B with B = tridiag(1, 1, 1): -1 to all 26 neighbours.
    const Dense b = tridiagonal(n, 1, 1, 1);
    const Dense twenty_seven =
        add(kron(identity(n * n), n * n, i, n), kron(b, n, kron(b, n, b, n), n * n), -1.0);
    Dense expected = twenty_seven;  // I - BBB: 0 on the diagonal, -1 to the neighbours
    for (int row = 0; row < n * n * n; ++row) expected[row * n * n * n + row] += 26.0;
    EXPECT_EQ(to_dense(generate_poisson3d(n, 27)), expected) << "n = " << n;
  }
}

TEST(Generators, ConvdiffRowsFollowTheDocumentedSchemes) {
  const double pe = 0.5;
  const int n = 3;
  const index_t centre = grid_row(n, 1, 1, 0);
  const CsrMatrix<double> upwind = generate_convdiff2d(n, pe, ConvectionScheme::upwind);
  EXPECT_EQ(entry(upwind, centre, centre), 4.0 + 4.0 * pe);
  EXPECT_EQ(entry(upwind, centre, centre - 1), -1.0 - 2.0 * pe);  // west, upstream
  EXPECT_EQ(entry(upwind, centre, centre + 1), -1.0);             // east
  EXPECT_EQ(entry(upwind, centre, centre - n), -1.0 - 2.0 * pe);  // south, upstream
  EXPECT_EQ(entry(upwind, centre, centre + n), -1.0);             // north

  const CsrMatrix<double> central = generate_convdiff2d(n, pe, ConvectionScheme::central);
  EXPECT_EQ(entry(central, centre, centre), 4.0);
  EXPECT_EQ(entry(central, centre, centre - 1), -1.0 - pe);
  EXPECT_EQ(entry(central, centre, centre + 1), -1.0 + pe);

  const index_t centre3 = grid_row(n, 1, 1, 1);
  const CsrMatrix<double> upwind3 = generate_convdiff3d(n, pe, ConvectionScheme::upwind);
  EXPECT_EQ(entry(upwind3, centre3, centre3), 6.0 + 6.0 * pe);
  EXPECT_EQ(entry(upwind3, centre3, centre3 - n * n), -1.0 - 2.0 * pe);  // below, upstream
  EXPECT_EQ(entry(upwind3, centre3, centre3 + n * n), -1.0);

  EXPECT_EQ(to_dense(generate_convdiff3d(4, 0.0, ConvectionScheme::central)),
            to_dense(generate_poisson3d(4, 7)));
}

TEST(Generators, ElasticityBlocksAreTheDocumentedOnes) {
  const int n = 3;
  const CsrMatrix<double> matrix = generate_elasticity3d(n);
  const index_t point = grid_row(n, 1, 1, 1);
  const auto at = [&](index_t p, int a, index_t q, int b) {
    return entry(matrix, 3 * p + a, 3 * q + b);
  };
  EXPECT_EQ(at(point, 0, point, 0), 28.0);                     // 2W, W = 6 + 12/2 + 8/4
  EXPECT_EQ(at(point, 0, point, 1), -3.5);                     // -cW
  EXPECT_EQ(at(point, 2, point + 1, 2), -1.0);                 // face neighbour, diagonal of -C
  EXPECT_EQ(at(point, 2, point + 1, 0), -0.25);                // face, coupling c
  EXPECT_EQ(at(point, 1, point + 1 + n, 1), -0.5);             // edge
  EXPECT_EQ(at(point, 1, point + 1 + n + n * n, 0), -0.0625);  // corner: -c/4
  // Interior rows sum to zero: exactly weakly dominant.
  double row_sum = 0.0;
  for (index_t k = matrix.row_offsets[3 * point]; k < matrix.row_offsets[3 * point + 1]; ++k)
    row_sum += matrix.values[k];
  EXPECT_EQ(row_sum, 0.0);
}

// ---- symmetry, dominance, definiteness -----------------------------------------------

TEST(Generators, SpdGeneratorsAreSymmetricAndDiagonallyDominant) {
  const std::vector<std::pair<const char*, CsrMatrix<double>>> cases = {
      {"poisson2d", generate_poisson2d(12)},
      {"poisson3d-7", generate_poisson3d(7, 7)},
      {"poisson3d-27", generate_poisson3d(6, 27)},
      {"elasticity3d", generate_elasticity3d(5)}};
  for (const auto& [name, matrix] : cases) {
    const MatrixStats stats = compute_matrix_stats(matrix);
    EXPECT_TRUE(stats.structurally_symmetric) << name;
    EXPECT_TRUE(stats.numerically_symmetric) << name;
    EXPECT_TRUE(stats.diagonally_dominant) << name;
    EXPECT_GT(stats.strictly_dominant_rows, 0) << name;  // the boundary rows
    EXPECT_LT(stats.strictly_dominant_rows, stats.rows) << name;
    EXPECT_EQ(stats.zero_or_missing_diagonal, 0) << name;
  }
  // Poisson: exactly the boundary rows are strict.
  EXPECT_EQ(compute_matrix_stats(generate_poisson2d(12)).strictly_dominant_rows, 144 - 100);
}

TEST(Generators, SpdGeneratorsAdmitACholeskyFactorization) {
  EXPECT_TRUE(cholesky_succeeds(to_dense(generate_poisson2d(6)), 36));
  EXPECT_TRUE(cholesky_succeeds(to_dense(generate_poisson3d(4, 7)), 64));
  EXPECT_TRUE(cholesky_succeeds(to_dense(generate_poisson3d(4, 27)), 64));
  EXPECT_TRUE(cholesky_succeeds(to_dense(generate_elasticity3d(3)), 81));
  EXPECT_TRUE(cholesky_succeeds(to_dense(generate_elasticity3d(4)), 192));
  // The check can fail: an indefinite matrix is refused.
  Dense indefinite = to_dense(generate_poisson2d(3));
  indefinite[0] = -1.0;
  EXPECT_FALSE(cholesky_succeeds(indefinite, 9));
}

TEST(Generators, ConvdiffIsNonsymmetricAndUpwindStaysDominant) {
  for (double pe : {0.1, 1.0, 10.0, 1000.0}) {
    const MatrixStats upwind =
        compute_matrix_stats(generate_convdiff2d(10, pe, ConvectionScheme::upwind));
    EXPECT_TRUE(upwind.structurally_symmetric);
    EXPECT_FALSE(upwind.numerically_symmetric) << "Pe " << pe;
    EXPECT_TRUE(upwind.diagonally_dominant) << "Pe " << pe;
    const MatrixStats upwind3 =
        compute_matrix_stats(generate_convdiff3d(6, pe, ConvectionScheme::upwind));
    EXPECT_FALSE(upwind3.numerically_symmetric) << "Pe " << pe;
    EXPECT_TRUE(upwind3.diagonally_dominant) << "Pe " << pe;
  }
  const MatrixStats central_small =
      compute_matrix_stats(generate_convdiff3d(6, 0.5, ConvectionScheme::central));
  EXPECT_FALSE(central_small.numerically_symmetric);
  EXPECT_TRUE(central_small.diagonally_dominant);
  const MatrixStats central_large =
      compute_matrix_stats(generate_convdiff3d(6, 2.0, ConvectionScheme::central));
  EXPECT_FALSE(central_large.diagonally_dominant);  // documented: Pe > 1 loses dominance
}

// ---- powerlaw ------------------------------------------------------------------------

TEST(Generators, PowerlawIsDeterministicAndSeedDependent) {
  const CsrMatrix<double> first = generate_powerlaw(5000, 8.0, 2.0, 42);
  const CsrMatrix<double> again = generate_powerlaw(5000, 8.0, 2.0, 42);
  const CsrMatrix<double> other = generate_powerlaw(5000, 8.0, 2.0, 43);
  test::expect_valid_csr(first);
  test::expect_valid_csr(other);
  EXPECT_TRUE(same_matrix(first, again));
  EXPECT_FALSE(same_matrix(first, other));
  EXPECT_NE(first.row_offsets, other.row_offsets);
}

TEST(Generators, PowerlawDoesNotDependOnTheThreadCount) {
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  const CsrMatrix<double> serial = generate_powerlaw(3000, 6.0, 1.5, 9);
  omp_set_num_threads(3);
  const CsrMatrix<double> parallel = generate_powerlaw(3000, 6.0, 1.5, 9);
  omp_set_num_threads(threads);
  EXPECT_TRUE(same_matrix(serial, parallel));
}

TEST(Generators, PowerlawHasTheRequestedMeanAHeavyTailAndADominantDiagonal) {
  const int n = 100000;
  const CsrMatrix<double> matrix = generate_powerlaw(n, 8.0, 2.0, 1);
  test::expect_valid_csr(matrix);
  const MatrixStats stats = compute_matrix_stats(matrix);
  EXPECT_NEAR(stats.avg_row_length, 8.0, 0.8);
  EXPECT_GT(stats.max_row_length, 20 * 8);  // heavy tail: Pareto(2) max ~ sqrt(n) * x_min
  EXPECT_EQ(stats.strictly_dominant_rows, n);
  EXPECT_EQ(stats.zero_or_missing_diagonal, 0);
  EXPECT_FALSE(stats.structurally_symmetric);
  EXPECT_FALSE(stats.numerically_symmetric);

  // A larger exponent is a lighter tail at the same mean.
  const MatrixStats light = compute_matrix_stats(generate_powerlaw(n, 8.0, 4.0, 1));
  EXPECT_NEAR(light.avg_row_length, 8.0, 0.8);
  EXPECT_LT(light.max_row_length, stats.max_row_length);
  EXPECT_LT(light.row_length_stddev, stats.row_length_stddev);
}

TEST(Generators, PowerlawExtremes) {
  const CsrMatrix<double> diagonal = generate_powerlaw(50, 1.0, 2.0, 3);
  EXPECT_EQ(diagonal.nnz(), 50);
  for (index_t row = 0; row < 50; ++row) {
    EXPECT_EQ(diagonal.columns[row], row);
    EXPECT_EQ(diagonal.values[row], 1.0);
  }
  const CsrMatrix<double> one = generate_powerlaw(1, 1.0, 2.0, 3);
  EXPECT_EQ(one.nnz(), 1);
  const CsrMatrix<double> nearly_dense = generate_powerlaw(40, 40.0, 3.0, 5);
  test::expect_valid_csr(nearly_dense);
  EXPECT_GT(nearly_dense.nnz(), 40 * 30);  // rows of more than half the columns: complement path
  EXPECT_EQ(compute_matrix_stats(nearly_dense).strictly_dominant_rows, 40);
}

// ---- rmat and circuit (graph Laplacians plus identity) ----------------------------------

// Off-diagonals of a row are negative, the diagonal is 1 + the sum of their magnitudes.
void expect_shifted_laplacian_rows(const CsrMatrix<double>& matrix, const std::string& name) {
  for (index_t row = 0; row < matrix.rows; ++row) {
    double off_diagonal_sum = 0.0, diagonal = 0.0;
    for (index_t k = matrix.row_offsets[row]; k < matrix.row_offsets[row + 1]; ++k) {
      if (matrix.columns[k] == row) {
        diagonal = matrix.values[k];
      } else {
        ASSERT_LT(matrix.values[k], 0.0) << name << " row " << row;
        off_diagonal_sum -= matrix.values[k];
      }
    }
    ASSERT_NEAR(diagonal, 1.0 + off_diagonal_sum, 1e-12 * (1.0 + off_diagonal_sum))
        << name << " row " << row;
  }
}

// Symmetric, every row strictly dominant with a positive diagonal (so SPD), the shape of a
// shifted Laplacian, valid CSR.
void expect_symmetric_dominant(const CsrMatrix<double>& matrix, const std::string& name) {
  test::expect_valid_csr(matrix);
  const MatrixStats stats = compute_matrix_stats(matrix);
  EXPECT_TRUE(stats.structurally_symmetric) << name;
  EXPECT_TRUE(stats.numerically_symmetric) << name;
  EXPECT_EQ(stats.strictly_dominant_rows, matrix.rows) << name;
  EXPECT_EQ(stats.zero_or_missing_diagonal, 0) << name;
  expect_shifted_laplacian_rows(matrix, name);
}

TEST(Generators, RmatIsASymmetricDominantUnweightedLaplacianPlusIdentity) {
  const CsrMatrix<double> matrix = generate_rmat(12, 16, 1);
  EXPECT_EQ(matrix.rows, 4096);
  EXPECT_EQ(matrix.cols, 4096);
  expect_symmetric_dominant(matrix, "rmat 12");
  for (index_t row = 0; row < matrix.rows; ++row)
    for (index_t k = matrix.row_offsets[row]; k < matrix.row_offsets[row + 1]; ++k)
      ASSERT_EQ(matrix.values[k], matrix.columns[k] == row ? matrix.row_length(row) : -1.0)
          << "row " << row << ": -1 off the diagonal, degree + 1 on it";
  // At most 2 x 16 x 4096 directions of edges, fewer after merging duplicates and self-loops.
  EXPECT_LT(matrix.nnz(), 4096 + 2 * 16 * 4096);
  EXPECT_GT(matrix.nnz(), 4096 + 16 * 4096);
}

TEST(Generators, RmatRowLengthsAreSkewed) {
  const MatrixStats stats = compute_matrix_stats(generate_rmat(16, 16, 3));
  EXPECT_GT(stats.avg_row_length, 16.0);
  EXPECT_LT(stats.avg_row_length, 33.0);
  EXPECT_GT(stats.max_row_length, 50 * stats.avg_row_length);  // R-MAT hubs
  EXPECT_GT(stats.row_length_variation, 2.0);
  EXPECT_EQ(stats.min_row_length, 1);  // isolated vertices keep only their diagonal
}

TEST(Generators, RmatIsDeterministicSeedDependentAndThreadCountIndependent) {
  const CsrMatrix<double> first = generate_rmat(10, 8, 42);
  EXPECT_TRUE(same_matrix(first, generate_rmat(10, 8, 42)));
  EXPECT_FALSE(same_matrix(first, generate_rmat(10, 8, 43)));
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  const CsrMatrix<double> serial = generate_rmat(13, 4, 9);
  omp_set_num_threads(3);
  const CsrMatrix<double> parallel = generate_rmat(13, 4, 9);
  omp_set_num_threads(threads);
  EXPECT_TRUE(same_matrix(serial, parallel));
}

TEST(Generators, RmatTinyScales) {
  const CsrMatrix<double> one = generate_rmat(0, 16, 1);  // one vertex: every edge a self-loop
  EXPECT_EQ(one.rows, 1);
  EXPECT_EQ(one.nnz(), 1);
  EXPECT_EQ(one.values[0], 1.0);
  const CsrMatrix<double> two = generate_rmat(1, 16, 1);
  EXPECT_EQ(two.rows, 2);
  expect_symmetric_dominant(two, "rmat 1");
  EXPECT_EQ(two.nnz(), 4);  // 32 edges draw (0,1) or (1,0) at least once: [[2,-1],[-1,2]]
  EXPECT_EQ(to_dense(two), (Dense{2.0, -1.0, -1.0, 2.0}));
}

TEST(Generators, RmatSmallIsPositiveDefinite) {
  const CsrMatrix<double> matrix = generate_rmat(5, 4, 2);
  EXPECT_TRUE(cholesky_succeeds(to_dense(matrix), matrix.rows));
}

TEST(Generators, CircuitIsSymmetricDominantWithShortRowsAndAFewDenseOnes) {
  const int n = 200000;
  const CsrMatrix<double> matrix = generate_circuit(n, 4, 0.05, 1);
  EXPECT_EQ(matrix.rows, n);
  expect_symmetric_dominant(matrix, "circuit");
  index_t short_rows = 0, dense_rows = 0;
  for (index_t row = 0; row < n; ++row) {
    const index_t length = matrix.row_length(row);
    if (length >= 2 && length <= 6) ++short_rows;
    if (length > 1000) ++dense_rows;
  }
  EXPECT_GT(short_rows, 0.95 * n);  // netlist rows: diagonal, chain, local couplings, nets
  EXPECT_EQ(dense_rows, 4);         // the power/ground nets
  const MatrixStats stats = compute_matrix_stats(matrix);
  EXPECT_NEAR(stats.max_row_length, 0.05 * n, 0.005 * n);  // a net touches ~5% of the nodes
  EXPECT_NEAR(stats.avg_row_length, 4.0 + 2.0 * 4 * 0.05, 0.3);
  // Local couplings stay within 64 columns of the diagonal, except the nets' columns.
  for (index_t row = 0; row < n; row += 997) {
    index_t far = 0;
    for (index_t k = matrix.row_offsets[row]; k < matrix.row_offsets[row + 1]; ++k)
      if (std::abs(matrix.columns[k] - row) > 64) ++far;
    EXPECT_LE(far, matrix.row_length(row) > 1000 ? matrix.row_length(row) : 4) << "row " << row;
  }
}

TEST(Generators, CircuitIsDeterministicSeedDependentAndThreadCountIndependent) {
  const CsrMatrix<double> first = generate_circuit(20000, 3, 0.02, 5);
  EXPECT_TRUE(same_matrix(first, generate_circuit(20000, 3, 0.02, 5)));
  EXPECT_FALSE(same_matrix(first, generate_circuit(20000, 3, 0.02, 6)));
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  const CsrMatrix<double> serial = generate_circuit(30000, 5, 0.1, 9);
  omp_set_num_threads(3);
  const CsrMatrix<double> parallel = generate_circuit(30000, 5, 0.1, 9);
  omp_set_num_threads(threads);
  EXPECT_TRUE(same_matrix(serial, parallel));
}

TEST(Generators, CircuitExtremes) {
  const CsrMatrix<double> one = generate_circuit(1, 1, 1.0, 1);  // the node is its own net
  EXPECT_EQ(one.nnz(), 1);
  EXPECT_EQ(one.values[0], 1.0);
  const CsrMatrix<double> no_nets = generate_circuit(1000, 0, 0.5, 1);
  expect_symmetric_dominant(no_nets, "circuit without nets");
  EXPECT_LE(compute_matrix_stats(no_nets).max_row_length, 12);
  const CsrMatrix<double> full_nets = generate_circuit(300, 2, 1.0, 1);  // nets touch every node
  expect_symmetric_dominant(full_nets, "circuit, nets of every node");
  EXPECT_EQ(compute_matrix_stats(full_nets).max_row_length, 300);
  const CsrMatrix<double> small = generate_circuit(40, 2, 0.3, 4);
  EXPECT_TRUE(cholesky_succeeds(to_dense(small), 40));
}

// ---- dispatch and bad parameters -----------------------------------------------------

TEST(Generators, EveryListedKindGenerates) {
  for (const std::string& kind : generator_kinds()) {
    GeneratorSpec spec;
    spec.kind = kind;
    spec.n = kind == "powerlaw" ? 200 : 4;
    spec.scale = 6;  // rmat
    const CsrMatrix<double> matrix = generate_matrix(spec);
    test::expect_valid_csr(matrix);
    EXPECT_GT(matrix.nnz(), 0) << kind;
  }
  GeneratorSpec spec;
  spec.kind = "poisson3d";
  spec.n = 5;
  spec.stencil = 27;
  EXPECT_TRUE(same_matrix(generate_matrix(spec), generate_poisson3d(5, 27)));
  spec.kind = "convdiff2d";
  spec.convection = "central";
  spec.peclet = 3.0;
  EXPECT_TRUE(
      same_matrix(generate_matrix(spec), generate_convdiff2d(5, 3.0, ConvectionScheme::central)));
  spec.kind = "rmat";
  spec.scale = 7;
  spec.edge_factor = 5;
  spec.seed = 11;
  EXPECT_TRUE(same_matrix(generate_matrix(spec), generate_rmat(7, 5, 11)));
  spec.kind = "circuit";
  spec.n = 500;
  spec.dense_rows = 2;
  spec.dense_fraction = 0.25;
  EXPECT_TRUE(same_matrix(generate_matrix(spec), generate_circuit(500, 2, 0.25, 11)));
}

TEST(Generators, BadParametersThrowBadInputNamingThem) {
  const auto spec_with = [](const std::string& kind, int n) {
    GeneratorSpec spec;
    spec.kind = kind;
    spec.n = n;
    return spec;
  };
  expect_error<BadInput>([&] { generate_matrix(spec_with("poisson4d", 4)); },
                         "unknown generator kind 'poisson4d'", "poisson2d, poisson3d");
  for (const std::string& kind : generator_kinds())
    for (int n : {0, -3}) {
      if (kind == "rmat") continue;  // sized by scale, n is not used
      GeneratorSpec spec = spec_with(kind, n);
      spec.dense_rows = 0;  // circuit: n is checked first anyway
      expect_error<BadInput>([&] { generate_matrix(spec); }, kind,
                             "n = " + std::to_string(n) + " must be at least 1");
    }
  expect_error<BadInput>([] { generate_poisson3d(4, 9); }, "poisson3d: stencil = 9",
                         "expected 7 or 27");
  expect_error<BadInput>([] { generate_convdiff2d(4, -1.0, ConvectionScheme::upwind); },
                         "convdiff2d: peclet", "must be finite and >= 0");
  expect_error<BadInput>(
      [] {
        generate_convdiff3d(4, std::numeric_limits<double>::quiet_NaN(), ConvectionScheme::central);
      },
      "convdiff3d: peclet", "must be finite");
  GeneratorSpec downwind = spec_with("convdiff3d", 4);
  downwind.convection = "downwind";
  expect_error<BadInput>([&] { generate_matrix(downwind); }, "convdiff3d: convection = 'downwind'",
                         "expected upwind, central");
  expect_error<BadInput>([] { generate_powerlaw(100, 0.5, 2.0, 1); }, "powerlaw: avg_row_length",
                         "must be in [1, n = 100]");
  expect_error<BadInput>([] { generate_powerlaw(100, 101.0, 2.0, 1); }, "powerlaw: avg_row_length",
                         "");
  expect_error<BadInput>([] { generate_powerlaw(100, 8.0, 1.0, 1); }, "powerlaw: exponent",
                         "greater than 1");
  expect_error<BadInput>(
      [] { generate_powerlaw(100, 8.0, std::numeric_limits<double>::infinity(), 1); },
      "powerlaw: exponent", "");
  expect_error<BadInput>([] { generate_rmat(-1, 16, 1); }, "rmat: scale = -1", "[0, 30]");
  expect_error<BadInput>([] { generate_rmat(31, 16, 1); }, "rmat: scale = 31", "[0, 30]");
  expect_error<BadInput>([] { generate_rmat(4, 0, 1); }, "rmat: edge_factor = 0",
                         "must be at least 1");
  expect_error<BadInput>([] { generate_circuit(4, 5, 0.1, 1); }, "circuit: dense_rows = 5",
                         "must be in [0, n = 4]");
  expect_error<BadInput>([] { generate_circuit(4, -1, 0.1, 1); }, "circuit: dense_rows = -1", "");
  expect_error<BadInput>([] { generate_circuit(100, 2, 1.5, 1); }, "circuit: dense_fraction",
                         "must be in [0, 1]");
  expect_error<BadInput>(
      [] { generate_circuit(100, 2, std::numeric_limits<double>::quiet_NaN(), 1); },
      "circuit: dense_fraction", "must be in [0, 1]");
}

TEST(Generators, SizesPastThe32BitRangeAreRefusedBeforeAllocating) {
  expect_error<BadInput>([] { generate_poisson3d(2000, 7); }, "poisson3d n=2000 stencil=7: rows",
                         "rows = 8000000000 exceeds the 32-bit index limit");
  expect_error<BadInput>([] { generate_poisson3d(1300, 27); }, "poisson3d n=1300 stencil=27: rows",
                         "");
  expect_error<BadInput>([] { generate_poisson3d(600, 27); },
                         "poisson3d n=600 stencil=27: nonzeros", "exceeds the 32-bit index limit");
  expect_error<BadInput>([] { generate_poisson2d(50000); }, "poisson2d n=50000: rows", "");
  expect_error<BadInput>([] { generate_poisson3d(2100000000, 7); }, "poisson3d n=2100000000",
                         "rows exceed the 32-bit index limit 2147483647 (and 64 bits)");
  expect_error<BadInput>([] { generate_elasticity3d(900); }, "elasticity3d n=900: rows", "");
  expect_error<BadInput>([] { generate_elasticity3d(300); }, "elasticity3d n=300: nonzeros", "");
  expect_error<BadInput>([] { generate_powerlaw(2000000000, 8.0, 2.0, 1); },
                         "powerlaw n=2000000000", "exceeds the 32-bit index limit");
  expect_error<BadInput>([] { generate_rmat(26, 32, 1); }, "rmat scale=26 edge_factor=32",
                         "exceeds the 32-bit index limit");
  expect_error<BadInput>([] { generate_circuit(500000000, 0, 0.0, 1); },
                         "circuit n=500000000 dense_rows=0: expected nonzeros",
                         "exceeds the 32-bit index limit");
  expect_error<BadInput>([] { generate_circuit(100000000, 100, 1.0, 1); },
                         "circuit n=100000000 dense_rows=100: expected nonzeros", "");
}

}  // namespace
}  // namespace spk
