// The distributed sparse algebra of the distributed AMG setup (distributed/amg/) under mpirun
// -np 1..4: fetch_rows and send_rows_to_owners (row_exchange.hpp), the transpose and the
// Galerkin product P^T A P, each process's result rows against the one-process product of the
// whole matrices (solver/amg/sparse_product.hpp, galerkin_product.hpp) every process also
// computes. Matrices are built identically on every process (fixed seeds); the partitions are
// uneven, with an empty process when there are three or more; n = 1 and nnz = 0 are covered,
// and a bad argument on one process is an agreed error on all. The rectangular halo plan is
// checked through a DistributedMatrix of P: y = P x.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "distributed/amg/distributed_galerkin.hpp"
#include "distributed/amg/distributed_transpose.hpp"
#include "distributed/amg/row_exchange.hpp"
#include "distributed/distributed_matrix.hpp"
#include "distributed/host_blocks.hpp"
#include "solver/amg/galerkin_product.hpp"
#include "solver/amg/sparse_product.hpp"
#include "spmv/host/generators.hpp"
#include "tests/mpi/mpi_test_support.hpp"

namespace spk {
namespace {

using test::world_rank;
using test::world_size;

// A random rows x cols matrix: about `per_row` entries per row (sorted, unique columns), values
// in [-1, 1]; with `diagonal`, every a_ii (i < cols) is present and dominant.
CsrMatrix<double> random_matrix(index_t rows, index_t cols, int per_row, std::uint64_t seed,
                                bool diagonal = false) {
  std::mt19937_64 random(seed);
  std::uniform_int_distribution<index_t> column(0, std::max(cols - 1, 0));
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  CsrMatrix<double> m;
  m.rows = rows;
  m.cols = cols;
  for (index_t i = 0; i < rows; ++i) {
    std::map<index_t, double> row;
    if (cols > 0)
      for (int e = 0; e < per_row; ++e) row[column(random)] = value(random);
    if (diagonal && i < cols) row[i] = 2.0 * per_row;
    for (const auto& [j, v] : row) {
      m.columns.push_back(j);
      m.values.push_back(v);
    }
    m.row_offsets.push_back(m.nnz());
  }
  return m;
}

// A prolongator of simple aggregation: row i -> column i / 4 with a random value, plus an
// extra entry at a random column in about one row of five.
CsrMatrix<double> aggregation_prolongator(index_t fine, std::uint64_t seed) {
  const index_t coarse = (fine + 3) / 4;
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> value(0.5, 1.5);
  std::uniform_int_distribution<index_t> column(0, std::max(coarse - 1, 0));
  CsrMatrix<double> p;
  p.rows = fine;
  p.cols = coarse;
  for (index_t i = 0; i < fine; ++i) {
    std::map<index_t, double> row{{i / 4, value(random)}};
    if (random() % 5 == 0) row[column(random)] += 0.25 * value(random);
    for (const auto& [j, v] : row) {
      p.columns.push_back(j);
      p.values.push_back(v);
    }
    p.row_offsets.push_back(p.nnz());
  }
  return p;
}

// Uneven blocks of `rows` rows over the processes: block p weighs p + 1 + (p % 2) * 3, and
// process 1 is empty when there are three or more; `shift` rotates the weights (so that two
// partitions differ).
RowPartition uneven_partition(global_index_t rows, int shift = 0) {
  const int size = world_size();
  std::vector<global_index_t> weight(static_cast<std::size_t>(size));
  global_index_t total = 0;
  for (int q = 0; q < size; ++q) {
    const int p = (q + shift) % size;
    weight[static_cast<std::size_t>(q)] = (size >= 3 && q == 1) ? 0 : p + 1 + (p % 2) * 3;
    total += weight[static_cast<std::size_t>(q)];
  }
  std::vector<global_index_t> counts(static_cast<std::size_t>(size));
  global_index_t given = 0;
  for (int q = 0; q < size; ++q) {
    counts[static_cast<std::size_t>(q)] = rows * weight[static_cast<std::size_t>(q)] / total;
    given += counts[static_cast<std::size_t>(q)];
  }
  counts[0] += rows - given;
  return partition_from_counts(counts);
}

RowBlock<double> block_of(const CsrMatrix<double>& whole, const RowPartition& partition) {
  RowBlock<double> block =
      rows_of(whole, partition.first_row(world_rank()), partition.end_row(world_rank()));
  block.global_rows = whole.rows;
  return block;
}

// This process's rows of `result` equal the rows of `reference` it owns: same rows and columns,
// values within `tolerance` * max |reference| (and the max over processes is returned).
double expect_rows_match(const RowBlock<double>& result, const CsrMatrix<double>& reference,
                         const RowPartition& partition, double tolerance) {
  const int rank = world_rank();
  EXPECT_EQ(result.global_rows, reference.rows);
  EXPECT_EQ(result.first_row, partition.first_row(rank));
  EXPECT_EQ(result.rows, partition.rows(rank));
  EXPECT_EQ(result.row_offsets.size(), static_cast<std::size_t>(result.rows) + 1);
  double scale = 0.0;
  for (const double v : reference.values) scale = std::max(scale, std::abs(v));
  double worst = 0.0;
  for (index_t row = 0; row < result.rows && row + 1 < index_t(result.row_offsets.size()); ++row) {
    const auto global = static_cast<index_t>(result.first_row + row);
    const index_t begin = reference.row_offsets[global], end = reference.row_offsets[global + 1];
    const std::vector<global_index_t> expected_columns(reference.columns.begin() + begin,
                                                       reference.columns.begin() + end);
    const std::vector<global_index_t> columns(result.columns.begin() + result.row_offsets[row],
                                              result.columns.begin() + result.row_offsets[row + 1]);
    EXPECT_EQ(columns, expected_columns) << "global row " << global;
    if (columns != expected_columns) continue;
    for (index_t k = 0; k < end - begin; ++k)
      worst = std::max(worst, std::abs(result.values[result.row_offsets[row] + k] -
                                       reference.values[begin + k]));
  }
  double relative = scale > 0.0 ? worst / scale : worst;
  double global_worst = 0.0;
  MPI_Allreduce(&relative, &global_worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  EXPECT_LE(global_worst, tolerance);
  return global_worst;
}

// ---------------------------------------------------------------------------------------------
// fetch_rows

// Every process fetches a random set of rows (its own, others', repeats, in random order).
std::vector<global_index_t> random_wanted(global_index_t rows, const RowPartition& partition,
                                          std::uint64_t seed) {
  std::mt19937_64 random(seed + static_cast<std::uint64_t>(world_rank()) * 7919);
  std::vector<global_index_t> wanted;
  if (rows == 0) return wanted;
  std::uniform_int_distribution<global_index_t> row(0, rows - 1);
  const int count = static_cast<int>(random() % 40);
  for (int k = 0; k < count; ++k) wanted.push_back(row(random));
  if (!wanted.empty()) wanted.push_back(wanted.front());  // a repeat
  const int rank = world_rank();
  if (partition.rows(rank) > 0) wanted.push_back(partition.first_row(rank));  // an own row
  return wanted;
}

template <class T>
void expect_fetched(const FetchedRows<T>& fetched, const CsrMatrix<double>& whole,
                    const std::vector<global_index_t>& wanted) {
  ASSERT_EQ(fetched.row_offsets.size(), wanted.size() + 1);
  ASSERT_EQ(fetched.columns.size(), fetched.values.size());
  ASSERT_EQ(static_cast<std::size_t>(fetched.row_offsets.back()), fetched.columns.size());
  for (std::size_t r = 0; r < wanted.size(); ++r) {
    const auto row = static_cast<index_t>(wanted[r]);
    const index_t length = whole.row_offsets[row + 1] - whole.row_offsets[row];
    ASSERT_EQ(fetched.row_offsets[r + 1] - fetched.row_offsets[r], length) << "row " << row;
    for (index_t k = 0; k < length; ++k) {
      EXPECT_EQ(fetched.columns[fetched.row_offsets[r] + k],
                whole.columns[whole.row_offsets[row] + k]);
      EXPECT_EQ(fetched.values[fetched.row_offsets[r] + k],
                static_cast<T>(whole.values[whole.row_offsets[row] + k]));
    }
  }
}

TEST(DistributedAmgAlgebra, FetchRowsReturnsTheWholeMatrixRowsInTheOrderAsked) {
  for (const index_t rows : {index_t{53}, index_t{1}, index_t{3}}) {
    SCOPED_TRACE("rows " + std::to_string(rows));
    const CsrMatrix<double> whole = random_matrix(rows, 29, 4, 11 + rows);
    const RowPartition partition = uneven_partition(rows);
    const RowBlock<double> mine = block_of(whole, partition);
    const std::vector<global_index_t> wanted = random_wanted(rows, partition, 5 + rows);
    expect_fetched(fetch_rows(MPI_COMM_WORLD, mine, partition, wanted), whole, wanted);
    // single precision, and a process that asks for nothing
    const std::vector<global_index_t> none_on_last =
        world_rank() == world_size() - 1 ? std::vector<global_index_t>{} : wanted;
    expect_fetched(fetch_rows(MPI_COMM_WORLD, convert_values<float>(mine), partition, none_on_last),
                   whole, none_on_last);
  }
}

TEST(DistributedAmgAlgebra, FetchRowsOfAnEmptyMatrixAndEmptyRows) {
  const CsrMatrix<double> empty = random_matrix(17, 5, 0, 3);  // nnz = 0
  const RowPartition partition = uneven_partition(17);
  const std::vector<global_index_t> wanted = random_wanted(17, partition, 9);
  expect_fetched(fetch_rows(MPI_COMM_WORLD, block_of(empty, partition), partition, wanted), empty,
                 wanted);
}

TEST(DistributedAmgAlgebra, FetchRowsRefusesOnEveryProcessARowOutOfRangeOnOne) {
  const CsrMatrix<double> whole = random_matrix(20, 20, 3, 1);
  const RowPartition partition = uneven_partition(20);
  std::vector<global_index_t> wanted = {0, 19};
  if (world_rank() == world_size() - 1) wanted.push_back(20);
  EXPECT_THROW(fetch_rows(MPI_COMM_WORLD, block_of(whole, partition), partition, wanted), BadInput);
  // the processes are still in step: a correct call works after it
  wanted.resize(2);
  expect_fetched(fetch_rows(MPI_COMM_WORLD, block_of(whole, partition), partition, wanted), whole,
                 wanted);
}

// ---------------------------------------------------------------------------------------------
// send_rows_to_owners

// Process q's contributions: random rows with repeated rows and columns, dyadic values (the
// sums are exact in any order).
GlobalRows<double> contributions_of(int q, global_index_t rows, global_index_t cols) {
  std::mt19937_64 random(1000 + static_cast<std::uint64_t>(q));
  GlobalRows<double> pieces;
  std::uniform_int_distribution<global_index_t> row(0, rows - 1), column(0, cols - 1);
  const int count = static_cast<int>(random() % 30);
  for (int r = 0; r < count; ++r) {
    pieces.ids.push_back(row(random));
    const int length = static_cast<int>(random() % 5);
    for (int e = 0; e < length; ++e) {
      pieces.columns.push_back(column(random));
      pieces.values.push_back(static_cast<double>(static_cast<int>(random() % 64) - 32) / 8.0);
    }
    pieces.row_offsets.push_back(static_cast<index_t>(pieces.columns.size()));
  }
  return pieces;
}

TEST(DistributedAmgAlgebra, SendRowsToOwnersSumsEveryProcessContributions) {
  const global_index_t rows = 23, cols = 11;
  const RowPartition partition = uneven_partition(rows, 1);
  // The reference: every process's contributions summed (std::map: sorted columns).
  std::vector<std::map<global_index_t, double>> sum(static_cast<std::size_t>(rows));
  std::vector<bool> touched(static_cast<std::size_t>(rows), false);
  for (int q = 0; q < world_size(); ++q) {
    const GlobalRows<double> pieces = contributions_of(q, rows, cols);
    for (std::size_t r = 0; r < pieces.ids.size(); ++r)
      for (index_t k = pieces.row_offsets[r]; k < pieces.row_offsets[r + 1]; ++k)
        sum[static_cast<std::size_t>(pieces.ids[r])][pieces.columns[k]] += pieces.values[k];
  }
  const RowBlock<double> result = send_rows_to_owners(MPI_COMM_WORLD, partition, cols,
                                                      contributions_of(world_rank(), rows, cols));
  EXPECT_EQ(result.global_rows, rows);
  EXPECT_EQ(result.first_row, partition.first_row(world_rank()));
  ASSERT_EQ(result.rows, partition.rows(world_rank()));
  ASSERT_EQ(result.row_offsets.size(), static_cast<std::size_t>(result.rows) + 1);
  for (index_t row = 0; row < result.rows; ++row) {
    const auto& expected = sum[static_cast<std::size_t>(result.first_row + row)];
    ASSERT_EQ(result.row_offsets[row + 1] - result.row_offsets[row],
              static_cast<index_t>(expected.size()));
    index_t k = result.row_offsets[row];
    for (const auto& [column, value] : expected) {  // sorted columns, exact sums
      EXPECT_EQ(result.columns[k], column);
      EXPECT_EQ(result.values[k], value);
      ++k;
    }
  }
  // a column out of range on one process: every process refuses
  GlobalRows<double> bad = contributions_of(world_rank(), rows, cols);
  if (world_rank() == 0) {
    bad.ids.push_back(0);
    bad.columns.push_back(cols);
    bad.values.push_back(1.0);
    bad.row_offsets.push_back(static_cast<index_t>(bad.columns.size()));
  }
  EXPECT_THROW(send_rows_to_owners(MPI_COMM_WORLD, partition, cols, bad), BadInput);
}

// The kept plan: new values of the same contributions give what a fresh send_rows_to_owners
// gives, bit for bit (values that round: the order of the sums matters), own rows included,
// and a process with no contributions or no rows takes part.
TEST(DistributedAmgAlgebra, RowSumsPlanEqualsAFreshExchangeBitForBit) {
  const global_index_t rows = 23, cols = 11;
  const RowPartition partition = uneven_partition(rows, 1);
  GlobalRows<double> mine = contributions_of(world_rank(), rows, cols);
  RowSumsPlan<double> plan;
  const RowBlock<double> first = send_rows_to_owners(MPI_COMM_WORLD, partition, cols, mine, &plan);
  std::mt19937_64 random(77 + static_cast<std::uint64_t>(world_rank()));
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  for (int round = 0; round < 3; ++round) {
    for (double& v : mine.values) v = value(random) * 1e3;  // sums that round
    const RowBlock<double> fresh = send_rows_to_owners(MPI_COMM_WORLD, partition, cols, mine);
    ASSERT_EQ(fresh.columns, first.columns);                       // the same pattern
    std::vector<double> again(fresh.values.size(), std::nan(""));  // poisoned
    again = plan.sum(MPI_COMM_WORLD, mine.values);
    EXPECT_EQ(again, fresh.values) << "round " << round;
  }
  std::vector<double> wrong(mine.values.size() + 1, 1.0);
  EXPECT_THROW(plan.sum(MPI_COMM_WORLD, wrong), Error);
}

// ---------------------------------------------------------------------------------------------
// transpose and Galerkin product

struct AlgebraCase {
  std::string label;
  CsrMatrix<double> a;
  CsrMatrix<double> p;
};

std::vector<AlgebraCase> algebra_cases() {
  std::vector<AlgebraCase> cases;
  const auto add = [&](std::string label, CsrMatrix<double> a, std::uint64_t seed) {
    CsrMatrix<double> p = aggregation_prolongator(a.rows, seed);
    cases.push_back({std::move(label), std::move(a), std::move(p)});
  };
  add("poisson2d n=9", generate_poisson2d(9), 1);
  add("poisson3d n=5", generate_poisson3d(5, 7), 2);
  add("random nonsymmetric n=70", random_matrix(70, 70, 5, 3, true), 3);
  add("n=1", random_matrix(1, 1, 1, 4, true), 4);
  add("nnz(A)=0", random_matrix(13, 13, 0, 5), 5);
  CsrMatrix<double> zero_p = aggregation_prolongator(6, 6);  // nnz(P) = 0 (P: 6 x 2)
  zero_p.row_offsets.assign(7, 0);
  zero_p.columns.clear();
  zero_p.values.clear();
  cases.push_back({"nnz(P)=0", random_matrix(6, 6, 3, 7, true), zero_p});
  return cases;
}

TEST(DistributedAmgAlgebra, TransposeRowsEqualTheWholeTranspose) {
  for (const AlgebraCase& c : algebra_cases()) {
    SCOPED_TRACE(c.label);
    for (const CsrMatrix<double>* m : {&c.p, &c.a}) {
      const RowPartition rows = uneven_partition(m->rows);
      const RowPartition columns = uneven_partition(m->cols, 1);
      const RowBlock<double> t = transpose_rows(MPI_COMM_WORLD, block_of(*m, rows), rows, columns);
      EXPECT_EQ(expect_rows_match(t, transpose(*m, nullptr), columns, 0.0), 0.0);  // exact
    }
  }
}

TEST(DistributedAmgAlgebra, GalerkinRowsEqualTheOneProcessProduct) {
  for (const AlgebraCase& c : algebra_cases()) {
    SCOPED_TRACE(c.label);
    CsrMatrix<double> reference;
    GalerkinProduct product(c.a, c.p, reference);
    const RowPartition fine = uneven_partition(c.a.rows);
    const RowPartition coarse = uneven_partition(c.p.cols, 2);
    const RowBlock<double> coarse_rows =
        galerkin_rows(MPI_COMM_WORLD, block_of(c.a, fine), fine, block_of(c.p, fine), coarse);
    const double error = expect_rows_match(coarse_rows, reference, coarse, 1e-13);
    if (world_rank() == 0)
      std::printf("  %s, %d processes: A_c %d x %d, %d entries, max relative error %.2e\n",
                  c.label.c_str(), world_size(), reference.rows, reference.cols, reference.nnz(),
                  error);

    // Re-setup: new values of A (same pattern) give the same pattern and the new product.
    CsrMatrix<double> a2 = c.a;
    for (std::size_t k = 0; k < a2.values.size(); ++k)
      a2.values[k] = a2.values[k] * 1.5 + 0.125 * static_cast<double>(k % 3);
    product.compute(a2, c.p, reference);
    const RowBlock<double> again =
        galerkin_rows(MPI_COMM_WORLD, block_of(a2, fine), fine, block_of(c.p, fine), coarse);
    EXPECT_EQ(again.row_offsets, coarse_rows.row_offsets);
    EXPECT_EQ(again.columns, coarse_rows.columns);
    expect_rows_match(again, reference, coarse, 1e-13);
  }
}

TEST(DistributedAmgAlgebra, GalerkinRefusesOnEveryProcessABadColumnOnOne) {
  const CsrMatrix<double> a = generate_poisson2d(5);
  const CsrMatrix<double> p = aggregation_prolongator(a.rows, 8);
  const RowPartition fine = uneven_partition(a.rows);
  const RowPartition coarse = uneven_partition(p.cols);
  RowBlock<double> p_rows = block_of(p, fine);
  if (world_rank() == 0 && p_rows.nnz() > 0) p_rows.columns[0] = p.cols;  // past the coarse range
  EXPECT_THROW(galerkin_rows(MPI_COMM_WORLD, block_of(a, fine), fine, p_rows, coarse), BadInput);
}

// The rectangular halo plan: a DistributedMatrix of P's rows (fine partition) with the coarse
// partition as its columns multiplies the coarse vector: y = P x on each process's fine rows.
TEST(DistributedAmgAlgebra, RectangularDistributedMatrixMultipliesByTheColumnPartition) {
  const CsrMatrix<double> p = aggregation_prolongator(61, 9);
  const RowPartition fine = uneven_partition(p.rows);
  const RowPartition coarse = uneven_partition(p.cols, 1);
  const int rank = world_rank();
  SplitRows<double> split = split_local_and_halo(block_of(p, fine), fine, coarse, rank);
  DistributedMatrix<double> matrix(MPI_COMM_WORLD, std::move(split),
                                   host_blocks<double>(MPI_COMM_WORLD));
  EXPECT_EQ(matrix.op().rows(), fine.rows(rank));
  EXPECT_EQ(matrix.op().cols(), coarse.rows(rank));
  std::vector<double> x(static_cast<std::size_t>(p.cols));
  for (std::size_t j = 0; j < x.size(); ++j) x[j] = 1.0 + 0.5 * static_cast<double>(j * j % 7);
  const std::vector<double> x_own(x.begin() + coarse.first_row(rank),
                                  x.begin() + coarse.end_row(rank));
  std::vector<double> y(static_cast<std::size_t>(fine.rows(rank)), -1e300);  // poisoned
  matrix.op().apply_scaled(1.0, x_own.data(), 0.0, y.data());
  for (index_t row = 0; row < fine.rows(rank); ++row) {
    const auto global = static_cast<index_t>(fine.first_row(rank) + row);
    double expected = 0.0;
    for (index_t k = p.row_offsets[global]; k < p.row_offsets[global + 1]; ++k)
      expected += p.values[k] * x[static_cast<std::size_t>(p.columns[k])];
    EXPECT_NEAR(y[static_cast<std::size_t>(row)], expected, 1e-14 * std::abs(expected))
        << "row " << global;
  }
}

}  // namespace
}  // namespace spk
