// Block Jacobi on the CPU path under mpirun -np 1..4 (spk_tests_mpi): every process
// preconditions with the local kind on its own diagonal block, with no communication. Checked
// here: each local kind converges with the true residual (recomputed on the whole matrix from
// the gathered x) met at every process count; on one process the count is the local kind's
// own; it beats Jacobi on 7-point Poisson and ILU(0) beats Jacobi under BiCGSTAB and GMRES on
// upwind convection-diffusion; update_values is a fresh setup; a block that breaks IC(0) on one
// process is one agreed BadDiagonal naming that rank on every process.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "distributed/agreed_errors.hpp"
#include "tests/mpi/distributed_comparison.hpp"
#include "tests/mpi/mpi_test_support.hpp"
#include "tests/solver_test_support.hpp"

namespace spk {
namespace {

using test::cpu_options;
using test::expect_every_process_agrees;
using test::generated_case;
using test::my_part;
using test::my_rows;
using test::world_rank;
using test::world_size;

Options block_jacobi(Method method, Preconditioner local) {
  Options options = cpu_options(method, Preconditioner::block_jacobi);
  options.solver.preconditioner_options.local = local;
  return options;
}

// Every process's part of x, in rank order: the whole x on every process.
std::vector<double> gathered_vector(const std::vector<double>& mine,
                                    const RowPartition& partition) {
  std::vector<int> counts, offsets;
  for (int rank = 0; rank < world_size(); ++rank) {
    counts.push_back(static_cast<int>(partition.end_row(rank) - partition.first_row(rank)));
    offsets.push_back(static_cast<int>(partition.first_row(rank)));
  }
  std::vector<double> whole(static_cast<std::size_t>(partition.global_rows()));
  MPI_Allgatherv(mine.data(), static_cast<int>(mine.size()), MPI_DOUBLE, whole.data(),
                 counts.data(), offsets.data(), MPI_DOUBLE, MPI_COMM_WORLD);
  return whole;
}

struct DistributedRun {
  SolveResult result;
  double true_relative = 0.0;  // ||b - A x|| / ||b|| on the whole matrix, from the gathered x
  PreconditionerInfo info;
};

DistributedRun solve_distributed(const CsrMatrix<double>& whole, const Options& options,
                                 RowBalance balance = RowBalance::nonzeros) {
  const std::vector<double> b = test::random_vector(static_cast<std::size_t>(whole.rows), 7);
  const RowPartition partition = test::partition_of(whole, balance);
  const RowBlock<double> rows = my_rows(whole, partition);
  DistributedSolver<double> solver(MPI_COMM_WORLD, arrays_of(rows), options);
  const std::vector<double> b_local = my_part(b, partition);
  std::vector<double> x_local(b_local.size(), 0.0);
  DistributedRun run;
  run.result = solver.solve(b_local, x_local);
  run.true_relative = test::true_relative_residual(whole, b, gathered_vector(x_local, partition));
  run.info = solver.setup_info().preconditioner;
  return run;
}

int one_process_iterations(const CsrMatrix<double>& whole, const Options& options) {
  const std::vector<double> b = test::random_vector(static_cast<std::size_t>(whole.rows), 7);
  Solver<double> solver(arrays_of(whole), options);
  std::vector<double> x(b.size(), 0.0);
  const SolveResult result = solver.solve(b, x);
  EXPECT_EQ(result.status, SolveStatus::converged) << result.message;
  return result.iterations;
}

void expect_converged(const DistributedRun& run, const char* label) {
  EXPECT_EQ(run.result.status, SolveStatus::converged) << label << ": " << run.result.message;
  EXPECT_LE(run.true_relative, 1.0001e-8) << label;
  EXPECT_LE(run.result.true_residual, run.result.threshold) << label;
  expect_every_process_agrees(run.result);
}

// Each local kind on 7-point Poisson under CG: converged with the true residual met; on one
// process the local kind's own count; over any number, fewer iterations than Jacobi.
TEST(BlockJacobi, EveryLocalKindOnPoissonBeatsJacobi) {
  const CsrMatrix<double> whole = generated_case("poisson3d", 14);
  const DistributedRun jacobi =
      solve_distributed(whole, cpu_options(Method::cg, Preconditioner::jacobi));
  expect_converged(jacobi, "jacobi");
  for (const Preconditioner local : {Preconditioner::ic0, Preconditioner::ilu0, Preconditioner::amg,
                                     Preconditioner::chebyshev}) {
    SCOPED_TRACE(to_string(local));
    const DistributedRun run = solve_distributed(whole, block_jacobi(Method::cg, local));
    expect_converged(run, to_string(local));
    EXPECT_LT(run.result.iterations, jacobi.result.iterations);
    EXPECT_EQ(run.info.name, "block_jacobi");
    ASSERT_GE(run.info.details.size(), 3u);
    EXPECT_EQ(run.info.details[0],
              (std::pair<std::string, std::string>{"local", to_string(local)}));
    EXPECT_EQ(run.info.details[1].first, "block_rows");
    if (world_size() == 1) {
      EXPECT_EQ(run.result.iterations,
                one_process_iterations(whole, cpu_options(Method::cg, local)));
    }
    if (world_rank() == 0)
      std::printf("  block_jacobi(%s), %d processes: %d iterations (jacobi %d)\n", to_string(local),
                  world_size(), run.result.iterations, jacobi.result.iterations);
  }
}

// ILU(0) blocks under BiCGSTAB and GMRES on upwind convection-diffusion, Peclet 1 and 10:
// converged, fewer iterations than Jacobi.
TEST(BlockJacobi, Ilu0OnUpwindConvectionDiffusionBeatsJacobi) {
  for (const double peclet : {1.0, 10.0}) {
    const CsrMatrix<double> whole = generated_case("convdiff3d", 14, 7, peclet, "upwind");
    for (const Method method : {Method::bicgstab, Method::gmres}) {
      const std::string label =
          std::string(to_string(method)) + " Peclet " + std::to_string(static_cast<int>(peclet));
      SCOPED_TRACE(label);
      const DistributedRun jacobi =
          solve_distributed(whole, cpu_options(method, Preconditioner::jacobi));
      const DistributedRun ilu0 =
          solve_distributed(whole, block_jacobi(method, Preconditioner::ilu0));
      expect_converged(jacobi, "jacobi");
      expect_converged(ilu0, "block_jacobi(ilu0)");
      EXPECT_LT(ilu0.result.iterations, jacobi.result.iterations);
      if (world_size() == 1) {
        EXPECT_EQ(ilu0.result.iterations,
                  one_process_iterations(whole, cpu_options(method, Preconditioner::ilu0)));
      }
      if (world_rank() == 0)
        std::printf("  %s, %d processes: block_jacobi(ilu0) %d iterations, jacobi %d\n",
                    label.c_str(), world_size(), ilu0.result.iterations, jacobi.result.iterations);
    }
  }
}

// update_values refreshes every process's local preconditioner: the same count and x as a
// solver set up on the new values.
TEST(BlockJacobi, UpdateValuesMatchesAFreshSolver) {
  const CsrMatrix<double> whole = generated_case("poisson3d", 10);
  const CsrMatrix<double> shifted = test::with_random_diagonal_shift(whole, 2.0, 9);
  const RowPartition partition = test::partition_of(whole, RowBalance::nonzeros);
  const RowBlock<double> rows = my_rows(whole, partition);
  const RowBlock<double> new_rows = my_rows(shifted, partition);
  const std::vector<double> b =
      my_part(test::random_vector(static_cast<std::size_t>(whole.rows), 4), partition);
  for (const Preconditioner local : {Preconditioner::ic0, Preconditioner::ilu0, Preconditioner::amg,
                                     Preconditioner::chebyshev}) {
    SCOPED_TRACE(to_string(local));
    const Options options = block_jacobi(Method::cg, local);
    DistributedSolver<double> updated(MPI_COMM_WORLD, arrays_of(rows), options);
    std::vector<double> x_before(b.size(), 0.0);
    const SolveResult before = updated.solve(b, x_before);
    updated.update_values(new_rows.values);
    DistributedSolver<double> fresh(MPI_COMM_WORLD, arrays_of(new_rows), options);
    std::vector<double> x_updated(b.size(), 0.0), x_fresh(b.size(), 0.0);
    const SolveResult after = updated.solve(b, x_updated);
    const SolveResult expected = fresh.solve(b, x_fresh);
    ASSERT_EQ(expected.status, SolveStatus::converged) << expected.message;
    EXPECT_EQ(after.status, SolveStatus::converged);
    EXPECT_EQ(after.iterations, expected.iterations);
    EXPECT_EQ(x_updated, x_fresh);
    EXPECT_NE(x_updated, x_before);  // the new system, not the old one
    EXPECT_LE(test::true_relative_residual(shifted, gathered_vector(b, partition),
                                           gathered_vector(x_updated, partition)),
              1.0001e-8);
    (void)before;
  }
}

// The message and row of the error every process threw (each must throw BadDiagonal, agreed).
struct AgreedFault {
  std::string message;
  long long row = -1;
};
template <class Action>
AgreedFault agreed_bad_diagonal(Action&& action) {
  AgreedFault fault;
  try {
    action();
    ADD_FAILURE() << "no error";
  } catch (const BadDiagonal& error) {
    fault.message = error.what();
    fault.row = error.row();
    EXPECT_TRUE(world_size() == 1 || is_agreed(error)) << error.what();
  }
  for (const long long row : test::gathered(fault.row)) EXPECT_EQ(row, fault.row);
  return fault;
}

// The last process's rows of 2-D Poisson with a_ii < 0 at its second row: IC(0) with shift
// none breaks on that block only.
struct BrokenBlock {
  RowBlock<double> rows;
  global_index_t bad_row = 0;
};
BrokenBlock broken_last_block(const CsrMatrix<double>& whole, const RowPartition& partition) {
  BrokenBlock broken{my_rows(whole, partition), 0};
  const int last = world_size() - 1;
  broken.bad_row = partition.first_row(last) + 1;
  if (world_rank() == last)
    for (index_t k = broken.rows.row_offsets[1]; k < broken.rows.row_offsets[2]; ++k)
      if (broken.rows.columns[k] == broken.bad_row) broken.rows.values[k] = -4.0;
  return broken;
}

void expect_names_the_last_rank(const AgreedFault& fault, global_index_t bad_row) {
  EXPECT_EQ(fault.row, bad_row);
  EXPECT_NE(fault.message.find("block_jacobi(ic0): row " + std::to_string(bad_row)),
            std::string::npos)
      << fault.message;
  if (world_size() > 1) {
    EXPECT_NE(fault.message.find("rank " + std::to_string(world_size() - 1) + "'s diagonal block"),
              std::string::npos)
        << fault.message;
  }
}

TEST(BlockJacobiFaults, ABlockThatBreaksIc0IsOneAgreedErrorNamingItsRank) {
  const CsrMatrix<double> whole = generated_case("poisson2d", 12);
  const RowPartition partition = test::partition_of(whole, RowBalance::rows);
  const BrokenBlock broken = broken_last_block(whole, partition);
  Options options = block_jacobi(Method::cg, Preconditioner::ic0);
  options.solver.preconditioner_options.factorization.shift = FactorShift::none;
  const AgreedFault fault = agreed_bad_diagonal(
      [&] { DistributedSolver<double> solver(MPI_COMM_WORLD, arrays_of(broken.rows), options); });
  expect_names_the_last_rank(fault, broken.bad_row);
}

// The same fault brought by update_values: agreed on every process, and the next solve refuses
// the broken factors on every process too (no process waits for another).
TEST(BlockJacobiFaults, AnUpdateThatBreaksIc0IsAgreedAndTheSolveRefused) {
  const CsrMatrix<double> whole = generated_case("poisson2d", 12);
  const RowPartition partition = test::partition_of(whole, RowBalance::rows);
  const RowBlock<double> rows = my_rows(whole, partition);
  const BrokenBlock broken = broken_last_block(whole, partition);
  Options options = block_jacobi(Method::cg, Preconditioner::ic0);
  options.solver.preconditioner_options.factorization.shift = FactorShift::none;
  DistributedSolver<double> solver(MPI_COMM_WORLD, arrays_of(rows), options);
  const std::vector<double> b(static_cast<std::size_t>(rows.rows), 1.0);
  std::vector<double> x(b.size(), 0.0);
  EXPECT_EQ(solver.solve(b, x).status, SolveStatus::converged);
  expect_names_the_last_rank(agreed_bad_diagonal([&] { solver.update_values(broken.rows.values); }),
                             broken.bad_row);
  expect_names_the_last_rank(agreed_bad_diagonal([&] { solver.solve(b, x); }), broken.bad_row);
  solver.update_values(rows.values);  // good values again: the solver works again
  std::fill(x.begin(), x.end(), 0.0);
  EXPECT_EQ(solver.solve(b, x).status, SolveStatus::converged);
}

// Bare ic0/ilu0 over several processes point to block_jacobi.
TEST(BlockJacobiFaults, BareFactorizationsPointToBlockJacobi) {
  if (world_size() == 1) GTEST_SKIP() << "one process: the block is the matrix";
  const CsrMatrix<double> whole = generated_case("poisson2d", 8);
  const RowPartition partition = test::partition_of(whole, RowBalance::rows);
  const RowBlock<double> rows = my_rows(whole, partition);
  std::string message;
  try {
    DistributedSolver<double> solver(MPI_COMM_WORLD, arrays_of(rows),
                                     cpu_options(Method::bicgstab, Preconditioner::ilu0));
  } catch (const NotSupported& error) {
    message = error.what();
  }
  EXPECT_NE(message.find("use preconditioner: block_jacobi with preconditioner_options.local: "
                         "ilu0"),
            std::string::npos)
      << message;
}

}  // namespace
}  // namespace spk
