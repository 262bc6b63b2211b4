// The GPU path's distributed AMG, its hierarchy built on the device of each process
// (distributed/amg/device_distributed_amg_build.hpp), under mpirun -np 1..4 (spk_tests_mpi;
// every test skips without a GPU, or fails under SPK_REQUIRE_GPU=1): the levels equal the
// CPU path's host-built distributed hierarchy over the same processes (same aggregates, same
// structural products: the same global rows and nonzeros) and, at one process, the one-GPU
// hierarchy; the counts within 1 of both; re-setup, AMG for systems, a process without rows
// and an agreed bad diagonal, as on the CPU path.
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
#include "tests/test_support.hpp"

namespace spk {
namespace {

using test::generated_case;
using test::my_part;
using test::my_rows;
using test::transport_here;
using test::world_rank;
using test::world_size;

Options gpu_amg(Method method, const std::string& format = "ellpack-r") {
  Options options = test::cpu_options(method, Preconditioner::amg);
  options.device = Device::gpu;
  options.spmv.format = parse_format(format);
  return options;
}

DistributedOptions here() {
  DistributedOptions distributed;
  distributed.transport = transport_here();
  return distributed;
}

// The levels of two setups: the same global rows and nonzeros, level by level.
void expect_same_levels(const PreconditionerInfo& got, const PreconditionerInfo& expected,
                        const char* what) {
  ASSERT_EQ(got.levels.size(), expected.levels.size()) << what;
  for (std::size_t l = 0; l < got.levels.size(); ++l) {
    EXPECT_EQ(got.levels[l].rows, expected.levels[l].rows) << what << ", level " << l;
    EXPECT_EQ(got.levels[l].nnz, expected.levels[l].nnz) << what << ", level " << l;
  }
}

struct AmgRun {
  SolveResult result;
  PreconditionerInfo info;
};

AmgRun solve_distributed(const CsrMatrix<double>& whole, const RowPartition& partition,
                         const Options& options, const std::vector<double>& b) {
  DistributedSolver<double> solver(MPI_COMM_WORLD, arrays_of(my_rows(whole, partition)), options,
                                   here());
  const std::vector<double> b_local = my_part(b, partition);
  std::vector<double> x(b_local.size(), 0.0);
  AmgRun run;
  run.result = solver.solve(b_local, x);
  run.info = solver.setup_info().preconditioner;
  return run;
}

// A solver set up on `whole`, then update_values with every value doubled (a re-setup on the
// same aggregates) and a solve of b from x = 0: converged, the true residual met, its count.
int iterations_after_doubling(const CsrMatrix<double>& whole, const RowPartition& partition,
                              const Options& options, const std::vector<double>& b) {
  DistributedSolver<double> solver(MPI_COMM_WORLD, arrays_of(my_rows(whole, partition)), options,
                                   here());
  CsrMatrix<double> doubled = whole;
  for (double& value : doubled.values) value *= 2.0;
  solver.update_values(my_rows(doubled, partition).values);
  const std::vector<double> b_local = my_part(b, partition);
  std::vector<double> x(b_local.size(), 0.0);
  const SolveResult again = solver.solve(b_local, x);
  EXPECT_EQ(again.status, SolveStatus::converged) << again.message;
  EXPECT_LE(again.true_residual, again.threshold);
  return again.iterations;
}

struct DeviceCase {
  const char* label;
  CsrMatrix<double> (*matrix)();
  Method method;
};

const DeviceCase device_cases[] = {
    {"poisson3d_20_cg", [] { return generated_case("poisson3d", 20); }, Method::cg},
    {"poisson2d_64_cg", [] { return generated_case("poisson2d", 64); }, Method::cg},
    {"convdiff3d_12_bicgstab", [] { return generated_case("convdiff3d", 12, 7, 1.0); },
     Method::bicgstab},
};

class DistributedGpuAmgDevice : public ::testing::TestWithParam<DeviceCase> {};

// The hierarchy built on the device against the CPU path's host-built one over the same
// processes, and at one process against the one-GPU build.
TEST_P(DistributedGpuAmgDevice, LevelsEqualTheHostBuiltHierarchyAndOneGpuAtOneProcess) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const DeviceCase& c = GetParam();
  const CsrMatrix<double> whole = c.matrix();
  const std::vector<double> b = test::random_vector(static_cast<std::size_t>(whole.rows), 7);
  const RowPartition partition = test::partition_of(whole, RowBalance::nonzeros);
  const AmgRun gpu = solve_distributed(whole, partition, gpu_amg(c.method), b);
  const AmgRun cpu =
      solve_distributed(whole, partition, test::cpu_options(c.method, Preconditioner::amg), b);
  EXPECT_EQ(test::detail(gpu.info, "setup_on"), "gpu, distributed");
  EXPECT_EQ(test::detail(cpu.info, "setup_on"), "host, distributed");
  ASSERT_EQ(gpu.result.status, SolveStatus::converged) << gpu.result.message;
  EXPECT_LE(gpu.result.true_residual, gpu.result.threshold);
  test::expect_every_process_agrees(gpu.result);
  expect_same_levels(gpu.info, cpu.info, "device-built against host-built");
  EXPECT_EQ(test::detail(gpu.info, "rows_per_process"), test::detail(cpu.info, "rows_per_process"));
  EXPECT_NEAR(gpu.result.iterations, cpu.result.iterations, 1);

  Solver<double> one(arrays_of(whole), gpu_amg(c.method));
  std::vector<double> x_one(b.size(), 0.0);
  const SolveResult single = one.solve(b, x_one);
  ASSERT_EQ(single.status, SolveStatus::converged);
  if (world_size() == 1) {  // the one-GPU hierarchy, the same cycle
    expect_same_levels(gpu.info, one.setup_info().preconditioner, "np 1 against one GPU");
    EXPECT_NEAR(gpu.result.iterations, single.iterations, 1);
  } else {
    EXPECT_LE(gpu.result.iterations, 1.3 * single.iterations + 1);
  }
  if (world_rank() == 0)
    std::printf(
        "  %s, %d processes over %s: %d iterations (host-built: %d, one GPU: %d); "
        "preconditioner setup %.1f ms (host-built %.1f ms, one GPU %.1f ms)\n",
        c.label, world_size(), to_string(transport_here()), gpu.result.iterations,
        cpu.result.iterations, single.iterations, 1e3 * gpu.info.setup_s, 1e3 * cpu.info.setup_s,
        1e3 * one.setup_info().preconditioner.setup_s);
}

INSTANTIATE_TEST_SUITE_P(Cases, DistributedGpuAmgDevice, ::testing::ValuesIn(device_cases),
                         [](const auto& test) { return std::string(test.param.label); });

// update_values re-runs the device setup's numbers on the same aggregates: the count of a fresh
// solver on the new values.
TEST(DistributedGpuAmgDeviceSetup, UpdateValuesSolvesLikeAFreshSolver) {
  SPK_REQUIRE_GPU_OR_SKIP();
  CsrMatrix<double> whole = generated_case("poisson3d", 16);
  const Options options = gpu_amg(Method::cg, "csr");
  const RowPartition partition = test::partition_of(whole, RowBalance::rows);
  DistributedSolver<double> updated(MPI_COMM_WORLD, arrays_of(my_rows(whole, partition)), options,
                                    here());
  for (double& value : whole.values) value *= 3.0;  // a new system, same pattern
  for (index_t i = 0; i < whole.rows; ++i)
    for (index_t k = whole.row_offsets[i]; k < whole.row_offsets[i + 1]; ++k)
      if (whole.columns[k] == i) whole.values[k] += 0.5;
  const RowBlock<double> rows = my_rows(whole, partition);
  updated.update_values(rows.values);
  DistributedSolver<double> fresh(MPI_COMM_WORLD, arrays_of(rows), options, here());
  const std::vector<double> b(static_cast<std::size_t>(rows.rows), 1.0);
  std::vector<double> x_updated(b.size(), 0.0), x_fresh(b.size(), 0.0);
  const SolveResult a = updated.solve(b, x_updated);
  const SolveResult f = fresh.solve(b, x_fresh);
  EXPECT_EQ(a.status, SolveStatus::converged) << a.message;
  EXPECT_LE(a.true_residual, a.threshold);
  EXPECT_NEAR(a.iterations, f.iterations, 1);
  EXPECT_NE(test::detail(updated.setup_info().preconditioner, "resetup_ms"), "not run");
}

// resetup: rebuild on the device over processes: the setup's count is the default mode's (the
// same hierarchy; each level's product state and arrays freed as it is done), and a re-setup
// builds the hierarchy again: a fresh solver's count on the new values, with and without
// CUDA graphs (the cycle's arrays move: the captured graphs are dropped); twice.
TEST(DistributedGpuAmgDeviceSetup, RebuildResetupSolvesLikeAFreshSolver) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const CsrMatrix<double> whole = generated_case("poisson3d", 16);
  const RowPartition partition = test::partition_of(whole, RowBalance::rows);
  const std::vector<double> b = test::random_vector(static_cast<std::size_t>(whole.rows), 5);
  for (const bool graphs : {true, false}) {
    Options options = gpu_amg(Method::cg, "csr");
    options.solver.cuda_graph = graphs;
    Options rebuild = options;
    rebuild.solver.preconditioner_options.amg.resetup = AmgResetup::rebuild;
    const AmgRun kept = solve_distributed(whole, partition, options, b);
    DistributedSolver<double> solver(MPI_COMM_WORLD, arrays_of(my_rows(whole, partition)), rebuild,
                                     here());
    const std::vector<double> my_b = my_part(b, partition);
    std::vector<double> x(my_b.size(), 0.0);
    const SolveResult first = solver.solve(my_b, x);
    ASSERT_EQ(first.status, SolveStatus::converged) << first.message;
    EXPECT_EQ(first.iterations, kept.result.iterations);
    EXPECT_EQ(test::detail(solver.setup_info().preconditioner, "resetup"), "rebuild");
    for (const double shift : {0.5, 1.5}) {
      CsrMatrix<double> changed = whole;
      for (index_t i = 0; i < changed.rows; ++i)
        for (index_t k = changed.row_offsets[i]; k < changed.row_offsets[i + 1]; ++k)
          if (changed.columns[k] == i) changed.values[k] += shift;
      const RowBlock<double> rows = my_rows(changed, partition);
      solver.update_values(rows.values);
      std::fill(x.begin(), x.end(), 0.0);
      const SolveResult updated = solver.solve(my_b, x);
      const AmgRun fresh = solve_distributed(changed, partition, rebuild, b);
      EXPECT_EQ(updated.status, SolveStatus::converged) << updated.message;
      EXPECT_LE(updated.true_residual, updated.threshold);
      EXPECT_NEAR(updated.iterations, fresh.result.iterations, 1)
          << (graphs ? "graphs" : "no graphs") << ", shift " << shift;
      test::expect_every_process_agrees(updated);
      EXPECT_NE(test::detail(solver.setup_info().preconditioner, "resetup_ms"), "not run");
    }
  }
}

// The fp32 cycle (amg precision: single) on the device over processes: the cycle in the
// distributed space's fp32 twin, the Krylov method in fp64. The fp64 true residual is met, the
// count stays within 1.3x of the fp64 cycle's, the report says single; a re-setup after
// update_values and a solve without CUDA graphs (by default the cycle is captured with the
// iteration where the transport allows: NCCL) give the same count.
TEST(DistributedGpuAmgDeviceSetup, SinglePrecisionCycleOverProcesses) {
  SPK_REQUIRE_GPU_OR_SKIP();
  CsrMatrix<double> whole = generated_case("poisson3d", 20);
  const RowPartition partition = test::partition_of(whole, RowBalance::nonzeros);
  const std::vector<double> b(static_cast<std::size_t>(whole.rows), 1.0);
  const Options fp64 = gpu_amg(Method::cg);
  Options fp32 = fp64;
  fp32.solver.preconditioner_options.amg.precision = AmgPrecision::single;
  const AmgRun reference = solve_distributed(whole, partition, fp64, b);
  const AmgRun single = solve_distributed(whole, partition, fp32, b);
  ASSERT_EQ(reference.result.status, SolveStatus::converged) << reference.result.message;
  EXPECT_EQ(single.result.status, SolveStatus::converged) << single.result.message;
  EXPECT_LE(single.result.true_residual, single.result.threshold);
  EXPECT_LE(single.result.iterations, 1.3 * reference.result.iterations + 1);
  EXPECT_NE(test::detail(single.info, "precision").find("single"), std::string::npos);
  test::expect_every_process_agrees(single.result);

  Options no_graphs = fp32;
  no_graphs.solver.cuda_graph = false;
  const AmgRun uncaptured = solve_distributed(whole, partition, no_graphs, b);
  EXPECT_EQ(uncaptured.result.status, SolveStatus::converged) << uncaptured.result.message;
  EXPECT_NEAR(uncaptured.result.iterations, single.result.iterations, 1);

  const int again = iterations_after_doubling(whole, partition, fp32, b);
  EXPECT_NEAR(again, single.result.iterations, 1);
  if (world_rank() == 0)
    std::printf(
        "  fp32 cycle, %d processes: %d iterations (fp64 cycle %d, without graphs %d, "
        "after update_values %d)\n",
        world_size(), single.result.iterations, reference.result.iterations,
        uncaptured.result.iterations, again);
}

// Agglomeration on the device (amg.agglomerate_rows): a small coarse level moves onto fewer
// processes as on the CPU path: the same levels and the same report of where, the count within
// 1 of the host-built hierarchy's, the true residual met; a re-setup on the moved levels.
// (Systems, whose coarse candidates move with their rows: the beam test below.)
TEST(DistributedGpuAmgDeviceSetup, AgglomerationMatchesTheHostBuiltHierarchy) {
  SPK_REQUIRE_GPU_OR_SKIP();
  CsrMatrix<double> whole = generated_case("poisson3d", 16);
  const RowPartition partition = test::partition_of(whole, RowBalance::rows);
  const auto agglomerating = [](Options options) {
    options.solver.preconditioner_options.amg.agglomerate_rows = 100;
    options.solver.preconditioner_options.amg.max_coarse_rows = 6;
    return options;
  };
  const std::vector<double> b = test::random_vector(static_cast<std::size_t>(whole.rows), 3);
  const Options gpu_options = agglomerating(gpu_amg(Method::cg, "csr"));
  const AmgRun gpu = solve_distributed(whole, partition, gpu_options, b);
  const AmgRun cpu = solve_distributed(
      whole, partition, agglomerating(test::cpu_options(Method::cg, Preconditioner::amg)), b);
  ASSERT_EQ(gpu.result.status, SolveStatus::converged) << gpu.result.message;
  EXPECT_LE(gpu.result.true_residual, gpu.result.threshold);
  test::expect_every_process_agrees(gpu.result);
  expect_same_levels(gpu.info, cpu.info, "agglomerated");
  const std::string where = test::detail(gpu.info, "agglomeration");
  EXPECT_EQ(where, test::detail(cpu.info, "agglomeration"));
  EXPECT_EQ(test::detail(gpu.info, "rows_per_process"), test::detail(cpu.info, "rows_per_process"));
  if (world_size() > 1) {
    EXPECT_NE(where.find("onto 1 of " + std::to_string(world_size()) + " processes"),
              std::string::npos)
        << where;
  }
  EXPECT_NEAR(gpu.result.iterations, cpu.result.iterations, 1);

  const int again = iterations_after_doubling(whole, partition, gpu_options, b);
  EXPECT_NEAR(again, gpu.result.iterations, 1);
  if (world_rank() == 0)
    std::printf(
        "  agglomeration on the device, %d processes: %d iterations (host-built %d, "
        "after update_values %d); %s\n",
        world_size(), gpu.result.iterations, cpu.result.iterations, again,
        where.empty() ? "none" : where.c_str());
}

// AMG for systems on the device over processes (nodal strength, rigid-body modes, the batched
// QR): the CPU path's levels and count, without and with agglomeration (the six candidates of
// each coarse node moved with its rows).
TEST(DistributedGpuAmgDeviceSetup, BeamRigidBodyModesMatchTheHostBuiltHierarchy) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const GeneratedSystem beam = generate_beam3d(6, 0.3, true);
  const index_t nodes = beam.matrix.rows / 3;
  std::vector<global_index_t> counts(static_cast<std::size_t>(world_size()));
  for (int p = 0; p < world_size(); ++p)  // whole nodes per process
    counts[static_cast<std::size_t>(p)] =
        3 * (nodes / world_size() + (p < nodes % world_size() ? 1 : 0));
  const RowPartition partition = partition_from_counts(counts);
  const int rank = world_rank();
  const auto first = static_cast<std::ptrdiff_t>(partition.first_row(rank));
  const auto end = static_cast<std::ptrdiff_t>(partition.end_row(rank));
  for (const int agglomerate : {0, 60}) {
    SCOPED_TRACE("agglomerate_rows " + std::to_string(agglomerate));
    const auto with_modes = [&](Options options) {
      AmgOptions& amg = options.solver.preconditioner_options.amg;
      amg.block_size = 3;
      amg.near_nullspace = NearNullspace::rigid_body;
      amg.coordinates.assign(beam.coordinates.begin() + first, beam.coordinates.begin() + end);
      amg.agglomerate_rows = agglomerate;
      return options;
    };
    const AmgRun gpu =
        solve_distributed(beam.matrix, partition, with_modes(gpu_amg(Method::cg)), beam.load);
    const AmgRun cpu = solve_distributed(
        beam.matrix, partition, with_modes(test::cpu_options(Method::cg, Preconditioner::amg)),
        beam.load);
    ASSERT_EQ(gpu.result.status, SolveStatus::converged) << gpu.result.message;
    EXPECT_LE(gpu.result.true_residual, gpu.result.threshold);
    expect_same_levels(gpu.info, cpu.info, "beam3d rigid body");
    EXPECT_EQ(test::detail(gpu.info, "near_nullspace"), test::detail(cpu.info, "near_nullspace"));
    EXPECT_EQ(test::detail(gpu.info, "agglomeration"), test::detail(cpu.info, "agglomeration"));
    EXPECT_NEAR(gpu.result.iterations, cpu.result.iterations, 1);
    if (rank == 0)
      std::printf(
          "  beam3d n=6 rigid body, agglomerate_rows %d, %d processes: %d iterations "
          "(host-built: %d); agglomeration: %s\n",
          agglomerate, world_size(), gpu.result.iterations, cpu.result.iterations,
          test::detail(gpu.info, "agglomeration").c_str());
  }
}

// A process without rows (the last one) takes part in every level's device products, the
// exchanges and the sums.
TEST(DistributedGpuAmgDeviceSetup, ProcessWithoutRowsTakesPart) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const CsrMatrix<double> whole = generated_case("poisson2d", 40);
  std::vector<global_index_t> counts(static_cast<std::size_t>(world_size()), 0);
  const int busy = std::max(1, world_size() - 1);
  for (int p = 0; p < busy; ++p)
    counts[static_cast<std::size_t>(p)] = whole.rows / busy + (p < whole.rows % busy ? 1 : 0);
  const RowPartition partition = partition_from_counts(counts);
  const std::vector<double> b(static_cast<std::size_t>(whole.rows), 1.0);
  const AmgRun gpu = solve_distributed(whole, partition, gpu_amg(Method::cg, "csr"), b);
  const AmgRun cpu =
      solve_distributed(whole, partition, test::cpu_options(Method::cg, Preconditioner::amg), b);
  EXPECT_EQ(gpu.result.status, SolveStatus::converged) << gpu.result.message;
  EXPECT_LE(gpu.result.true_residual, gpu.result.threshold);
  test::expect_every_process_agrees(gpu.result);
  expect_same_levels(gpu.info, cpu.info, "a process without rows");
}

// A zero a_ii on one process: every process throws the same BadDiagonal (the device setup's
// D^-1 is an agreed step), none is left waiting.
TEST(DistributedGpuAmgDeviceSetup, BadDiagonalOnOneProcessIsThrownEverywhere) {
  SPK_REQUIRE_GPU_OR_SKIP();
  global_index_t bad_row = 0;
  const RowBlock<double> rows =
      test::rows_with_zero_pivot_on_last(generated_case("poisson2d", 12), &bad_row);
  const int last = world_size() - 1;
  std::string message;
  try {
    DistributedSolver<double> solver(MPI_COMM_WORLD, arrays_of(rows), gpu_amg(Method::cg), here());
    ADD_FAILURE() << "no error";
  } catch (const BadDiagonal& error) {
    message = error.what();
  }
  EXPECT_FALSE(message.empty());
  if (world_size() > 1) {
    EXPECT_NE(message.find("rank " + std::to_string(last)), std::string::npos) << message;
  }
  for (const int thrown : test::gathered(message.empty() ? 0 : 1)) EXPECT_EQ(thrown, 1);
}

}  // namespace
}  // namespace spk
