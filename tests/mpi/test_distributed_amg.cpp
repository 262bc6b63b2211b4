// The distributed smoothed-aggregation AMG (distributed/amg/) on the CPU path under mpirun
// -np 1..4, against the one-process AMG every process also runs on the whole matrix: the
// hierarchy at one process is the one-process hierarchy, the counts over several processes stay
// within 1.3x of it (aggregates do not cross processes), the true residual is met, re-setup
// works, processes without rows take part, and a bad diagonal is one agreed error. AMG for
// systems (beam3d, rigid-body modes) over node-aligned blocks, and a misaligned block refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "solver/amg/near_nullspace.hpp"
#include "spkrylov/errors.hpp"
#include "tests/mpi/distributed_comparison.hpp"
#include "tests/mpi/mpi_test_support.hpp"
#include "tests/solver_test_support.hpp"

namespace spk {
namespace {

using test::cpu_options;
using test::generated_case;
using test::my_part;
using test::my_rows;
using test::world_rank;
using test::world_size;

struct AmgCase {
  const char* label;
  CsrMatrix<double> (*matrix)();
  Method method;
};

std::ostream& operator<<(std::ostream& out, const AmgCase& c) {
  return out << c.label;
}

const AmgCase amg_cases[] = {
    {"poisson3d_16_cg", [] { return generated_case("poisson3d", 16); }, Method::cg},
    {"poisson2d_64_cg", [] { return generated_case("poisson2d", 64); }, Method::cg},
    {"poisson3d27_12_cg", [] { return generated_case("poisson3d", 12, 27); }, Method::cg},
    {"convdiff2d_48_bicgstab", [] { return generated_case("convdiff2d", 48, 7, 1.0); },
     Method::bicgstab},
    {"convdiff3d_12_gmres", [] { return generated_case("convdiff3d", 12, 7, 1.0); }, Method::gmres},
};

class DistributedAmg : public ::testing::TestWithParam<std::tuple<AmgCase, RowBalance>> {};

TEST_P(DistributedAmg, CountWithinOnePointThreeOfOneProcess) {
  const auto& [c, balance] = GetParam();
  const test::Comparison result =
      test::solve_both(c.matrix(), cpu_options(c.method, Preconditioner::amg), balance);
  ASSERT_EQ(result.single.status, SolveStatus::converged) << result.single.message;
  EXPECT_EQ(result.distributed.status, SolveStatus::converged) << result.distributed.message;
  EXPECT_LE(result.distributed.true_residual, result.distributed.threshold);
  test::expect_every_process_agrees(result.distributed);
  if (world_size() == 1)  // one process: the same hierarchy, the same cycle
    EXPECT_NEAR(result.distributed.iterations, result.single.iterations, 1);
  else
    EXPECT_LE(result.distributed.iterations, 1.3 * result.single.iterations + 1);
  if (world_rank() == 0)
    std::printf("  %s, %d processes, partition %s: %d iterations (one process: %d)\n", c.label,
                world_size(), to_string(balance), result.distributed.iterations,
                result.single.iterations);
}

INSTANTIATE_TEST_SUITE_P(Cases, DistributedAmg,
                         ::testing::Combine(::testing::ValuesIn(amg_cases),
                                            ::testing::Values(RowBalance::nonzeros,
                                                              RowBalance::rows)),
                         [](const auto& test) {
                           return std::string(std::get<0>(test.param).label) + "_" +
                                  to_string(std::get<1>(test.param));
                         });

// The levels the report gives: global rows and nonzeros. One process: the one-process
// hierarchy's exactly. Several: the same finest level, and every level coarser than the last.
TEST(DistributedAmgHierarchy, LevelsAreTheOneProcessLevelsAtOneProcess) {
  const CsrMatrix<double> whole = generated_case("poisson3d", 16);
  const Options options = cpu_options(Method::cg, Preconditioner::amg);
  Solver<double> single(arrays_of(whole), options);
  const RowPartition partition = test::partition_of(whole, RowBalance::nonzeros);
  const RowBlock<double> rows = my_rows(whole, partition);
  DistributedSolver<double> solver(MPI_COMM_WORLD, arrays_of(rows), options);
  const auto& mine = solver.setup_info().preconditioner.levels;
  const auto& one = single.setup_info().preconditioner.levels;
  ASSERT_GE(mine.size(), 2u);
  EXPECT_EQ(mine[0].rows, one[0].rows);
  EXPECT_EQ(mine[0].nnz, one[0].nnz);
  for (std::size_t l = 1; l < mine.size(); ++l) EXPECT_LT(mine[l].rows, mine[l - 1].rows);
  if (world_size() == 1) {
    ASSERT_EQ(mine.size(), one.size());
    for (std::size_t l = 0; l < mine.size(); ++l) {
      EXPECT_EQ(mine[l].rows, one[l].rows) << "level " << l;
      EXPECT_EQ(mine[l].nnz, one[l].nnz) << "level " << l;
    }
  }
  for (const long long levels : test::gathered(static_cast<long long>(mine.size())))
    EXPECT_EQ(levels, static_cast<long long>(mine.size()));
}

// A solver set up on poisson2d 48^2 and given new values by update_values (every value times 3,
// plus `shift` on the diagonal), against a fresh solver of the new values; b = ones.
struct UpdatedAndFresh {
  SolveResult updated, fresh;
  std::string updated_resetup, fresh_resetup;  // the reports' resetup_ms
};

UpdatedAndFresh update_and_compare(const Options& options, double shift) {
  CsrMatrix<double> whole = generated_case("poisson2d", 48);
  const RowPartition partition = test::partition_of(whole, RowBalance::rows);
  DistributedSolver<double> updated(MPI_COMM_WORLD, arrays_of(my_rows(whole, partition)), options);
  for (double& value : whole.values) value *= 3.0;  // a new system, same pattern
  for (index_t i = 0; i < whole.rows; ++i)
    for (index_t k = whole.row_offsets[i]; k < whole.row_offsets[i + 1]; ++k)
      if (whole.columns[k] == i) whole.values[k] += shift;
  const RowBlock<double> rows = my_rows(whole, partition);
  updated.update_values(rows.values);
  DistributedSolver<double> fresh(MPI_COMM_WORLD, arrays_of(rows), options);
  const std::vector<double> b(static_cast<std::size_t>(rows.rows), 1.0);
  std::vector<double> x_updated(b.size(), 0.0), x_fresh(b.size(), 0.0);
  UpdatedAndFresh result;
  result.updated = updated.solve(b, x_updated);
  result.fresh = fresh.solve(b, x_fresh);
  result.updated_resetup = test::detail(updated.setup_info().preconditioner, "resetup_ms");
  result.fresh_resetup = test::detail(fresh.setup_info().preconditioner, "resetup_ms");
  return result;
}

// The updated solver converged, met its true residual, took the fresh solver's count (within
// 1), and every process reports the same.
void expect_solves_like_fresh(const UpdatedAndFresh& r) {
  EXPECT_EQ(r.updated.status, SolveStatus::converged) << r.updated.message;
  EXPECT_LE(r.updated.true_residual, r.updated.threshold);
  EXPECT_NEAR(r.updated.iterations, r.fresh.iterations, 1);
  test::expect_every_process_agrees(r.updated);
}

// update_values re-runs the setup's numbers on the same aggregates: the count of a fresh
// solver on the new values.
TEST(DistributedAmgHierarchy, UpdateValuesSolvesLikeAFreshSolver) {
  const UpdatedAndFresh r = update_and_compare(cpu_options(Method::cg, Preconditioner::amg), 0.5);
  expect_solves_like_fresh(r);
  // the report tells the re-setup, as on one process
  EXPECT_NE(r.updated_resetup, "not run");
  EXPECT_EQ(r.fresh_resetup, "not run");
}

// resetup: galerkin over processes: P and R kept. Every value scaled keeps D^-1 A, hence P: the
// count is a fresh solver's.
TEST(DistributedAmgHierarchy, GalerkinResetupKeepsTheProlongator) {
  Options options = cpu_options(Method::cg, Preconditioner::amg);
  options.solver.preconditioner_options.amg.resetup = AmgResetup::galerkin;
  const UpdatedAndFresh r = update_and_compare(options, 0.0);
  expect_solves_like_fresh(r);
}

// resetup: rebuild over processes: nothing kept, the hierarchy built again on the new values
// (a changed diagonal): a fresh solver's count.
TEST(DistributedAmgHierarchy, RebuildResetupSolvesLikeAFreshSolver) {
  Options options = cpu_options(Method::cg, Preconditioner::amg);
  options.solver.preconditioner_options.amg.resetup = AmgResetup::rebuild;
  const UpdatedAndFresh r = update_and_compare(options, 0.5);
  expect_solves_like_fresh(r);
  EXPECT_NE(r.updated_resetup, "not run");
}

// A zero a_ii on the last process: every process throws the same agreed BadDiagonal, with the
// global row and the rank named (global_diagonal_fault.hpp).
TEST(DistributedAmgHierarchy, BadDiagonalOnOneProcessNamesItsRankAndGlobalRow) {
  global_index_t bad_row = 0;
  const RowBlock<double> rows =
      test::rows_with_zero_pivot_on_last(generated_case("poisson2d", 12), &bad_row);
  const int last = world_size() - 1;
  std::string message;
  long long row = -1;
  try {
    DistributedSolver<double> solver(MPI_COMM_WORLD, arrays_of(rows),
                                     cpu_options(Method::cg, Preconditioner::amg));
    ADD_FAILURE() << "no error";
  } catch (const BadDiagonal& error) {
    message = error.what();
    row = error.row();
  }
  EXPECT_EQ(row, bad_row) << message;
  if (world_size() > 1) {
    EXPECT_NE(message.find("rank " + std::to_string(last)), std::string::npos) << message;
  }
  for (const long long thrown : test::gathered(row)) EXPECT_EQ(thrown, bad_row);
}

// A process without rows (the partition gives the last one none) still takes part in every
// level's products and sums.
TEST(DistributedAmgHierarchy, ProcessWithoutRowsTakesPart) {
  const CsrMatrix<double> whole = generated_case("poisson2d", 40);
  std::vector<global_index_t> counts(static_cast<std::size_t>(world_size()), 0);
  const int busy = std::max(1, world_size() - 1);
  for (int p = 0; p < busy; ++p)
    counts[static_cast<std::size_t>(p)] = whole.rows / busy + (p < whole.rows % busy ? 1 : 0);
  const RowPartition partition = partition_from_counts(counts);
  const RowBlock<double> rows = my_rows(whole, partition);
  DistributedSolver<double> solver(MPI_COMM_WORLD, arrays_of(rows),
                                   cpu_options(Method::cg, Preconditioner::amg));
  const std::vector<double> b(static_cast<std::size_t>(rows.rows), 1.0);
  std::vector<double> x(b.size(), 0.0);
  const SolveResult result = solver.solve(b, x);
  EXPECT_EQ(result.status, SolveStatus::converged) << result.message;
  EXPECT_LE(result.true_residual, result.threshold);
  test::expect_every_process_agrees(result);
}

// Agglomeration (amg.agglomerate_rows): a coarse level with fewer rows per process than asked
// moves onto fewer processes and the coarser levels are built there. The solve converges with
// the true residual met, within 1.3x of one process's count, re-setup works on the moved
// levels, and the report says where it happened. A problem small enough that a coarse
// level moves onto one process, at np 2..4 (np 1: nothing to move, the detail is absent).
TEST(DistributedAmgHierarchy, AgglomerationMovesSmallCoarseLevelsOntoFewerProcesses) {
  const CsrMatrix<double> whole = generated_case("poisson3d", 16);
  Options options = cpu_options(Method::cg, Preconditioner::amg);
  options.solver.preconditioner_options.amg.agglomerate_rows = 100;
  options.solver.preconditioner_options.amg.max_coarse_rows = 6;
  const std::vector<double> b = test::random_vector(static_cast<std::size_t>(whole.rows), 3);
  Solver<double> single(arrays_of(whole), options);
  std::vector<double> x_single(b.size(), 0.0);
  const SolveResult one = single.solve(b, x_single);
  ASSERT_EQ(one.status, SolveStatus::converged) << one.message;

  const RowPartition partition = test::partition_of(whole, RowBalance::rows);
  const RowBlock<double> rows = my_rows(whole, partition);
  DistributedSolver<double> solver(MPI_COMM_WORLD, arrays_of(rows), options);
  const std::vector<double> b_local = my_part(b, partition);
  std::vector<double> x(b_local.size(), 0.0);
  const SolveResult result = solver.solve(b_local, x);
  EXPECT_EQ(result.status, SolveStatus::converged) << result.message;
  EXPECT_LE(result.true_residual, result.threshold);
  test::expect_every_process_agrees(result);
  EXPECT_LE(result.iterations, 1.3 * one.iterations + 1);
  const PreconditionerInfo& info = solver.setup_info().preconditioner;
  ASSERT_GE(info.levels.size(), 3u);
  const std::string where = test::detail(info, "agglomeration");
  if (world_size() == 1) {
    EXPECT_EQ(where, "");  // one process: no rows_per_process, nothing moved
  } else {
    // 4096 rows: a coarse level of a few hundred rows, then one below 100 a process, which
    // moves onto one process (the levels below it stay there)
    EXPECT_EQ(where.find("level "), 0u) << where;
    EXPECT_NE(where.find("onto 1 of " + std::to_string(world_size()) + " processes"),
              std::string::npos)
        << where;
    EXPECT_NE(test::detail(info, "rows_per_process").find(", 0.."), std::string::npos)
        << test::detail(info, "rows_per_process");
  }
  // Re-setup on the moved levels: new values (the matrix scaled), the same count.
  std::vector<double> scaled = rows.values;
  for (double& v : scaled) v *= 2.0;
  solver.update_values(scaled);
  std::fill(x.begin(), x.end(), 0.0);
  const SolveResult again = solver.solve(b_local, x);
  EXPECT_EQ(again.status, SolveStatus::converged) << again.message;
  EXPECT_LE(again.true_residual, again.threshold);
  EXPECT_NEAR(again.iterations, result.iterations, 1);
  if (world_rank() == 0)
    std::printf(
        "  poisson3d n=16, agglomerate_rows 100, %d processes: %d iterations (one "
        "process: %d); agglomeration: %s\n",
        world_size(), result.iterations, one.iterations, where.empty() ? "none" : where.c_str());
}

// AMG for systems: the clamped beam (beam3d, 3 dofs a node) with its 6 rigid-body modes, each
// process given its nodes' rows and their coordinates (or its rows of B as vectors).
struct BeamCase {
  GeneratedSystem beam = generate_beam3d(6, 0.3, true);
  index_t nodes() const { return beam.matrix.rows / 3; }
};

// Whole nodes per process (block_size 3): the nodes split as evenly as the rows.
RowPartition node_partition(index_t nodes, int block_size) {
  std::vector<global_index_t> counts(static_cast<std::size_t>(world_size()));
  for (int p = 0; p < world_size(); ++p)
    counts[static_cast<std::size_t>(p)] =
        block_size * (nodes / world_size() + (p < nodes % world_size() ? 1 : 0));
  return partition_from_counts(counts);
}

Options beam_options(NearNullspace space) {
  Options options = cpu_options(Method::cg, Preconditioner::amg);
  options.solver.preconditioner_options.amg.block_size = 3;
  options.solver.preconditioner_options.amg.near_nullspace = space;
  return options;
}

TEST(DistributedAmgSystems, BeamRigidBodyModesOverProcesses) {
  const BeamCase c;
  const CsrMatrix<double>& a = c.beam.matrix;
  Options whole_options = beam_options(NearNullspace::rigid_body);
  whole_options.solver.preconditioner_options.amg.coordinates = c.beam.coordinates;
  Solver<double> single(arrays_of(a), whole_options);
  std::vector<double> x_single(c.beam.load.size(), 0.0);
  const SolveResult one = single.solve(c.beam.load, x_single);
  ASSERT_EQ(one.status, SolveStatus::converged) << one.message;

  const RowPartition partition = node_partition(c.nodes(), 3);
  const int rank = world_rank();
  const auto first = static_cast<std::ptrdiff_t>(partition.first_row(rank));
  const auto end = static_cast<std::ptrdiff_t>(partition.end_row(rank));
  // coordinates: this process's nodes (3 each); vectors: its rows of the whole B (6 each)
  Options by_coordinates = beam_options(NearNullspace::rigid_body);
  by_coordinates.solver.preconditioner_options.amg.coordinates.assign(
      c.beam.coordinates.begin() + first, c.beam.coordinates.begin() + end);
  const std::vector<double> modes = rigid_body_modes(c.beam.coordinates, 3);
  Options by_vectors = beam_options(NearNullspace::vectors);
  by_vectors.solver.preconditioner_options.amg.near_nullspace_count = 6;
  by_vectors.solver.preconditioner_options.amg.near_nullspace_vectors.assign(
      modes.begin() + 6 * first, modes.begin() + 6 * end);
  const RowBlock<double> rows = my_rows(a, partition);
  const std::vector<double> b = my_part(c.beam.load, partition);
  Options agglomerated = by_vectors;  // the 6 candidates a coarse row move with the rows
  agglomerated.solver.preconditioner_options.amg.agglomerate_rows = 100000;  // level 1 moves
  for (const Options* options : {&by_coordinates, &by_vectors, &agglomerated}) {
    DistributedSolver<double> solver(MPI_COMM_WORLD, arrays_of(rows), *options);
    std::vector<double> x(b.size(), 0.0);
    const SolveResult result = solver.solve(b, x);
    EXPECT_EQ(result.status, SolveStatus::converged) << result.message;
    EXPECT_LE(result.true_residual, result.threshold);
    test::expect_every_process_agrees(result);
    if (world_size() == 1)  // one process: the one-process hierarchy
      EXPECT_NEAR(result.iterations, one.iterations, 1);
    else
      EXPECT_LE(result.iterations, 1.3 * one.iterations + 1);
    const auto& levels = solver.setup_info().preconditioner.levels;
    EXPECT_GE(levels.size(), 2u);
    for (std::size_t l = 1; l < levels.size(); ++l)  // 6 coarse dofs an aggregate
      EXPECT_EQ(levels[l].rows % 6, 0) << "level " << l;
    if (options == &agglomerated && world_size() > 1) {  // the candidates moved with the rows
      EXPECT_NE(test::detail(solver.setup_info().preconditioner, "agglomeration"), "none");
    }
    if (rank == 0)
      std::printf("  beam3d n=6 rigid body (%s), %d processes: %d iterations (one process: %d)\n",
                  options == &by_coordinates ? "coordinates"
                  : options == &by_vectors   ? "vectors"
                                             : "vectors, agglomerate_rows 100000",
                  world_size(), result.iterations, one.iterations);
  }
}

// A block that is not whole nodes is refused on every process, naming the rank.
TEST(DistributedAmgSystems, PartitionNotAtNodeBoundariesIsRefusedEverywhere) {
  if (world_size() == 1) GTEST_SKIP() << "one process: its block is the whole matrix";
  const BeamCase c;
  RowPartition partition = node_partition(c.nodes(), 3);
  partition.offsets[1] += 1;  // rank 0 one row more, rank 1 one fewer
  const RowBlock<double> rows = my_rows(c.beam.matrix, partition);
  Options options = beam_options(NearNullspace::constant);
  std::string message;
  try {
    DistributedSolver<double> solver(MPI_COMM_WORLD, arrays_of(rows), options);
  } catch (const BadInput& error) {
    message = error.what();
  }
  EXPECT_NE(message.find("rank 0"), std::string::npos) << message;
  EXPECT_NE(message.find("not a multiple of matrix.block_size 3"), std::string::npos) << message;
  for (const int refused : test::gathered(message.empty() ? 0 : 1)) EXPECT_EQ(refused, 1);
}

// The fp32 cycle (amg precision: single) over processes: the Krylov method in fp64 on the
// distributed space, the cycle in its fp32 twin (DistributedSpace::with_precision). Its counts
// stay within 1.3x of the one-process fp64 cycle's, the fp64 true residual is met, and a
// re-setup keeps it working (CG and FGMRES; BiCGSTAB on a nonsymmetric system).
TEST(DistributedAmgSinglePrecision, CycleConvergesOverProcessesInFp32) {
  struct Case {
    const char* label;
    CsrMatrix<double> matrix;
    Method method;
  };
  const Case cases[] = {
      {"poisson3d 16 cg", generated_case("poisson3d", 16), Method::cg},
      {"poisson2d 64 fgmres", generated_case("poisson2d", 64), Method::fgmres},
      {"convdiff2d 48 bicgstab", generated_case("convdiff2d", 48, 7, 1.0), Method::bicgstab},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.label);
    const Options fp64 = cpu_options(c.method, Preconditioner::amg);
    Options fp32 = fp64;
    fp32.solver.preconditioner_options.amg.precision = AmgPrecision::single;
    const test::Comparison reference = test::solve_both(c.matrix, fp64, RowBalance::nonzeros);
    const test::Comparison result = test::solve_both(c.matrix, fp32, RowBalance::nonzeros);
    const DistributedSolver<double> solver(
        MPI_COMM_WORLD,
        arrays_of(my_rows(c.matrix, test::partition_of(c.matrix, RowBalance::nonzeros))), fp32);
    EXPECT_NE(test::detail(solver.setup_info().preconditioner, "precision").find("single"),
              std::string::npos);  // the cycle really is fp32
    ASSERT_EQ(reference.single.status, SolveStatus::converged) << reference.single.message;
    EXPECT_EQ(result.distributed.status, SolveStatus::converged) << result.distributed.message;
    EXPECT_LE(result.distributed.true_residual, result.distributed.threshold);
    test::expect_every_process_agrees(result.distributed);
    EXPECT_LE(result.distributed.iterations, 1.3 * reference.single.iterations + 1);
    if (world_rank() == 0)
      std::printf("  %s, %d processes: fp32 cycle %d iterations (one process, fp64 cycle: %d)\n",
                  c.label, world_size(), result.distributed.iterations,
                  reference.single.iterations);
  }
}

// update_values re-runs the fp32 cycle's setup numbers (its values converted to fp32 first):
// the count of a fresh fp32 solver on the new values.
TEST(DistributedAmgSinglePrecision, UpdateValuesSolvesLikeAFreshSolver) {
  Options options = cpu_options(Method::cg, Preconditioner::amg);
  options.solver.preconditioner_options.amg.precision = AmgPrecision::single;
  const UpdatedAndFresh r = update_and_compare(options, 0.5);
  expect_solves_like_fresh(r);
}

}  // namespace
}  // namespace spk
