// Block Jacobi (solver/block_jacobi.hpp) on one process: the block is the whole matrix, so
// block_jacobi(k) must be preconditioner k itself (the same iterations and the same x), on a
// Poisson system under CG and on upwind convection-diffusion under BiCGSTAB and GMRES; its
// report; the config keys (preconditioner_options.local and the local kind's own keys); and the
// positions that gather a process's diagonal block out of its whole rows
// (distributed/diagonal_block_positions.hpp).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "distributed/diagonal_block_positions.hpp"
#include "distributed/local_halo_split.hpp"
#include "distributed/row_partition.hpp"
#include "frontend/config/config_loader.hpp"
#include "spkrylov/errors.hpp"
#include "spkrylov/solver.hpp"
#include "spmv/host/row_block.hpp"
#include "tests/solver_test_support.hpp"

namespace spk {
namespace {

Options cpu_options(Method method, Preconditioner preconditioner, Preconditioner local) {
  Options options;
  options.device = Device::cpu;
  options.solver.method = method;
  options.solver.preconditioner = preconditioner;
  options.solver.preconditioner_options.local = local;
  options.solver.tolerance = 1e-8;
  options.solver.max_iterations = 5000;
  return options;
}

struct Run {
  SolveResult result;
  std::vector<double> x;
  PreconditionerInfo info;
};

Run solve(const CsrMatrix<double>& a, const Options& options) {
  Solver<double> solver(arrays_of(a), options);
  const std::vector<double> b = test::random_vector(static_cast<std::size_t>(a.rows), 11);
  Run run;
  run.x.assign(b.size(), 0.0);
  run.result = solver.solve(b, run.x);
  run.info = solver.setup_info().preconditioner;
  EXPECT_LE(test::true_relative_residual(a, b, run.x), 1.0001 * options.solver.tolerance);
  return run;
}

// block_jacobi(k) against k on the same system: converged, the same count and the same x.
void expect_same_as_local_kind(const CsrMatrix<double>& a, Method method, Preconditioner local) {
  SCOPED_TRACE(std::string(to_string(method)) + ", local " + to_string(local));
  const Run plain = solve(a, cpu_options(method, local, Preconditioner::ilu0));
  const Run block = solve(a, cpu_options(method, Preconditioner::block_jacobi, local));
  ASSERT_EQ(plain.result.status, SolveStatus::converged) << plain.result.message;
  EXPECT_EQ(block.result.status, SolveStatus::converged) << block.result.message;
  EXPECT_EQ(block.result.iterations, plain.result.iterations);
  EXPECT_EQ(block.x, plain.x);
  EXPECT_EQ(block.info.name, "block_jacobi");
  ASSERT_FALSE(block.info.details.empty());
  EXPECT_EQ(block.info.details.front(),
            (std::pair<std::string, std::string>{"local", to_string(local)}));
  EXPECT_EQ(block.info.levels.size(), plain.info.levels.size());  // AMG's levels forwarded
}

TEST(BlockJacobiOneProcess, PoissonCgIsTheLocalKind) {
  const CsrMatrix<double> a = test::generated("poisson3d", 12);
  for (const Preconditioner local : {Preconditioner::ic0, Preconditioner::ilu0, Preconditioner::amg,
                                     Preconditioner::chebyshev, Preconditioner::jacobi})
    expect_same_as_local_kind(a, Method::cg, local);
}

TEST(BlockJacobiOneProcess, UpwindConvectionDiffusionIsTheLocalKind) {
  GeneratorSpec spec;
  spec.kind = "convdiff3d";
  spec.n = 12;
  spec.peclet = 10.0;
  spec.convection = "upwind";
  const CsrMatrix<double> a = generate_matrix(spec);
  for (const Method method : {Method::bicgstab, Method::gmres})
    for (const Preconditioner local : {Preconditioner::ilu0, Preconditioner::jacobi})
      expect_same_as_local_kind(a, method, local);
}

// update_values goes to the local kind: the same count as a fresh block_jacobi solver.
TEST(BlockJacobiOneProcess, UpdateValuesMatchesAFreshSolver) {
  const CsrMatrix<double> a = test::generated("poisson3d", 10);
  const CsrMatrix<double> shifted = test::with_random_diagonal_shift(a, 2.0, 5);
  const std::vector<double> b = test::random_vector(static_cast<std::size_t>(a.rows), 3);
  for (const Preconditioner local : {Preconditioner::ic0, Preconditioner::amg}) {
    SCOPED_TRACE(to_string(local));
    const Options options = cpu_options(Method::cg, Preconditioner::block_jacobi, local);
    Solver<double> updated(arrays_of(a), options);
    updated.update_values(shifted.values);
    Solver<double> fresh(arrays_of(shifted), options);
    std::vector<double> x_updated(b.size(), 0.0), x_fresh(b.size(), 0.0);
    const SolveResult after = updated.solve(b, x_updated);
    const SolveResult expected = fresh.solve(b, x_fresh);
    ASSERT_EQ(expected.status, SolveStatus::converged);
    EXPECT_EQ(after.iterations, expected.iterations);
    EXPECT_EQ(x_updated, x_fresh);
    EXPECT_LE(test::true_relative_residual(shifted, b, x_updated), 1.0001e-8);
  }
}

// A pivot fault names block_jacobi(ic0) and the row (one process: no rank).
TEST(BlockJacobiOneProcess, PivotFaultNamesTheBlockKind) {
  CsrMatrix<double> a = test::generated("poisson2d", 6);
  for (index_t k = a.row_offsets[7]; k < a.row_offsets[8]; ++k)
    if (a.columns[k] == 7) a.values[k] = -4.0;  // a_77 <= 0
  Options options = cpu_options(Method::cg, Preconditioner::block_jacobi, Preconditioner::ic0);
  options.solver.preconditioner_options.factorization.shift = FactorShift::none;
  try {
    Solver<double> solver(arrays_of(a), options);
    FAIL() << "no error";
  } catch (const BadDiagonal& error) {
    EXPECT_EQ(error.preconditioner(), "block_jacobi(ic0)");
    EXPECT_EQ(error.row(), 7);
    EXPECT_EQ(std::string(error.what()).find("rank"), std::string::npos) << error.what();
  }
}

TEST(BlockJacobiOptions, LocalNoneOrBlockJacobiIsRefused) {
  const CsrMatrix<double> a = test::generated("poisson2d", 4);
  for (const Preconditioner local : {Preconditioner::none, Preconditioner::block_jacobi}) {
    try {
      Solver<double> solver(arrays_of(a),
                            cpu_options(Method::cg, Preconditioner::block_jacobi, local));
      FAIL() << "no error";
    } catch (const BadInput& error) {
      EXPECT_NE(std::string(error.what()).find("solver.preconditioner_options.local"),
                std::string::npos)
          << error.what();
    }
  }
}

// ---- config ---------------------------------------------------------------------------

const std::string kBase = "matrix: {generate: {kind: poisson3d, n: 8}}\nsolver:\n";

RunConfig parse(const std::string& text) {
  return parse_run_config(text, "run.yaml");
}
std::string parse_error(const std::string& text) {
  try {
    parse(text);
  } catch (const BadInput& error) {
    return error.what();
  }
  ADD_FAILURE() << "no error";
  return "";
}

TEST(BlockJacobiConfig, LocalDefaultsToIlu0AndReadsItsKindsKeys) {
  const RunConfig plain = parse(kBase + "  preconditioner: block_jacobi\n");
  EXPECT_EQ(plain.solver.preconditioner, Preconditioner::block_jacobi);
  EXPECT_EQ(plain.solver.preconditioner_options.local, Preconditioner::ilu0);
  const RunConfig ic0 = parse(kBase +
                              "  preconditioner: block_jacobi\n"
                              "  preconditioner_options: {shift: none, local: ic0}\n");
  EXPECT_EQ(ic0.solver.preconditioner_options.local, Preconditioner::ic0);
  EXPECT_EQ(ic0.solver.preconditioner_options.factorization.shift, FactorShift::none);
  const RunConfig amg = parse(kBase +
                              "  preconditioner: block_jacobi\n"
                              "  preconditioner_options: {local: amg, max_levels: 3}\n");
  EXPECT_EQ(amg.solver.preconditioner_options.amg.max_levels, 3);
  const RunConfig jacobi = parse(kBase +
                                 "  preconditioner: block_jacobi\n"
                                 "  preconditioner_options: {local: jacobi}\n");
  EXPECT_EQ(jacobi.solver.preconditioner_options.local, Preconditioner::jacobi);
  // The resolved config writes local and its kind's keys, and reads back the same.
  const RunConfig again = parse_run_config(to_yaml(ic0), "resolved.yaml");
  EXPECT_EQ(again.solver.preconditioner, Preconditioner::block_jacobi);
  EXPECT_EQ(again.solver.preconditioner_options.local, Preconditioner::ic0);
  EXPECT_EQ(again.solver.preconditioner_options.factorization.shift, FactorShift::none);
  EXPECT_NE(to_yaml(ic0).find("local: ic0"), std::string::npos) << to_yaml(ic0);
}

TEST(BlockJacobiConfig, BadLocalKindsAndKeysAreOneLineErrors) {
  EXPECT_EQ(parse_error(kBase + "  preconditioner: block_jacobi\n"
                                "  preconditioner_options: {local: none}\n"),
            "run.yaml:4: solver.preconditioner_options.local: must be ilu0, ic0, amg, chebyshev "
            "or jacobi (the kind on each process's diagonal block), got 'none'");
  EXPECT_EQ(parse_error(kBase + "  preconditioner: block_jacobi\n"
                                "  preconditioner_options: {local: block_jacobi}\n"),
            "run.yaml:4: solver.preconditioner_options.local: must be ilu0, ic0, amg, chebyshev "
            "or jacobi (the kind on each process's diagonal block), got 'block_jacobi'");
  // A key of another kind than the local one: the valid keys are local's kind's and local.
  EXPECT_EQ(parse_error(kBase + "  preconditioner: block_jacobi\n"
                                "  preconditioner_options: {local: chebyshev, shift: none}\n"),
            "run.yaml:4: solver.preconditioner_options.shift: unknown key (valid keys: degree, "
            "eigen_estimate, estimate_iterations, upper_factor, lower_ratio, local)");
  EXPECT_EQ(parse_error(kBase + "  preconditioner: block_jacobi\n"
                                "  preconditioner_options: {local: jacobi, degree: 2}\n"),
            "run.yaml:4: solver.preconditioner_options.degree: unknown key (valid keys: local)");
  // `local` belongs to block_jacobi only.
  EXPECT_EQ(parse_error(kBase + "  preconditioner: ic0\n"
                                "  preconditioner_options: {local: ilu0}\n"),
            "run.yaml:4: solver.preconditioner_options.local: unknown key (valid keys: sweeps, "
            "shift)");
}

// ---- the diagonal block of a process's rows ----------------------------------------------

// Gathering the whole rows' values at diagonal_block_positions gives SplitRows::local's values,
// on every process of a 3-way split of a nonsymmetric matrix.
TEST(BlockJacobiDiagonalBlock, PositionsGatherTheLocalBlock) {
  GeneratorSpec spec;
  spec.kind = "convdiff2d";
  spec.n = 9;
  spec.peclet = 3.0;
  const CsrMatrix<double> whole = generate_matrix(spec);
  const RowPartition partition =
      partition_rows(whole.rows, 3, RowBalance::rows, [](global_index_t r) { return r; });
  for (int rank = 0; rank < 3; ++rank) {
    const RowBlock<double> rows =
        rows_of(whole, partition.first_row(rank), partition.end_row(rank));
    const SplitRows<double> split = split_local_and_halo(rows, partition, rank);
    const std::vector<index_t> positions = diagonal_block_positions(split);
    ASSERT_EQ(positions.size(), split.local.values.size());
    ASSERT_GT(split.halo.nnz(), 0);
    for (std::size_t k = 0; k < positions.size(); ++k)
      EXPECT_EQ(split.pattern.values[static_cast<std::size_t>(positions[k])], split.local.values[k])
          << "rank " << rank << ", entry " << k;
  }
}

}  // namespace
}  // namespace spk
