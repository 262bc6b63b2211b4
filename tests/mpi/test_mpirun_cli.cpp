// `mpirun -np N spkrylov solve ...` end to end (spk_tests_mpirun_cli, CTest label mpi): the
// same runs as one process (iterations, solutions, every rhs kind, files and generators), the
// per-process report, and the faults, each of which must end every process with code 1 and
// one line naming the rank and the cause, within a time limit (a hang fails the test).
// `mpirun -q` keeps OpenMPI's own banners off stderr.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "core/device.hpp"
#include "spmv/host/matrix_market.hpp"
#include "tests/cli_test_support.hpp"
#include "tests/test_support.hpp"

namespace spk {
namespace {

using test::CliRun;
using test::expect_one_line_error;
using test::run_cli;
using test::shell_quoted;

constexpr int time_limit_s = 120;

std::string mpirun(int processes) {
  return std::string(SPK_MPIEXEC) + " -q " + SPK_MPIEXEC_FLAGS + " -np " +
         std::to_string(processes);
}

// `spkrylov solve SETTINGS` on `processes` processes (0: without mpirun).
CliRun solve(int processes, const std::string& settings) {
  return run_cli("solve --quiet " + settings, time_limit_s, processes > 0 ? mpirun(processes) : "");
}

std::string scratch(const std::string& name) {
  const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return ::testing::TempDir() + "spk_mpirun_" + info->name() + "_" + name;
}

// The number after `"key": ` at its first occurrence in a JSON report (NaN if absent).
double json_number(const std::string& json, const std::string& key) {
  const std::size_t at = json.find("\"" + key + "\": ");
  if (at == std::string::npos) return std::nan("");
  return std::strtod(json.c_str() + at + key.size() + 4, nullptr);
}

// Every value after `"key": ` in a JSON report, in order.
std::vector<double> json_numbers(const std::string& json, const std::string& key) {
  std::vector<double> values;
  for (std::size_t at = json.find("\"" + key + "\": "); at != std::string::npos;
       at = json.find("\"" + key + "\": ", at + 1))
    values.push_back(std::strtod(json.c_str() + at + key.size() + 4, nullptr));
  return values;
}

struct Solved {
  CliRun run;
  std::string report;     // the JSON report
  std::vector<double> x;  // output.solution
};

Solved solve_with_outputs(int processes, const std::string& settings) {
  const std::string label = std::to_string(processes);
  const std::string report = scratch("report" + label + ".json");
  const std::string solution = scratch("x" + label + ".mtx");
  Solved solved;
  solved.run = solve(processes, settings + " --set output.report=" + shell_quoted(report) +
                                    " --set output.solution=" + shell_quoted(solution));
  solved.report = test::read_text_file(report);
  if (solved.run.exit_code == 0) solved.x = read_vector_market(solution);
  std::remove(report.c_str());
  std::remove(solution.c_str());
  return solved;
}

// The same run on one process (no mpirun) and on `processes`: the count within `allowed`
// iterations, the solutions within 1e-6, the true residual below the target.
void expect_same_as_one_process(int processes, const std::string& settings, int allowed = 1) {
  SCOPED_TRACE(std::to_string(processes) + " processes: " + settings);
  const Solved one = solve_with_outputs(0, settings);
  const Solved several = solve_with_outputs(processes, settings);
  ASSERT_EQ(one.run.exit_code, 0) << one.run.err;
  ASSERT_EQ(several.run.exit_code, 0) << several.run.err << several.run.out;
  const double iterations = json_number(several.report, "iterations");
  EXPECT_NEAR(iterations, json_number(one.report, "iterations"), allowed);
  EXPECT_LE(json_number(several.report, "true_residual"), json_number(several.report, "threshold"));
  EXPECT_LT(test::relative_error(several.x, one.x), 1e-6);
  EXPECT_EQ(json_numbers(several.report, "rank").size(), static_cast<std::size_t>(processes));
  std::printf("  %d processes: %g iterations (one process: %g) -- %s\n", processes, iterations,
              json_number(one.report, "iterations"), settings.c_str());
}

const std::string cpu = "--set device=cpu ";

TEST(MpirunCli, DefaultProblemOnFourProcessesTakesTheSameIterations) {
  expect_same_as_one_process(4, cpu);
}

TEST(MpirunCli, GeneratedProblemsEveryRhsKind) {
  const std::string poisson = cpu + "--set matrix.generate.n=20 --set solver.tolerance=1e-10 ";
  expect_same_as_one_process(2, poisson + "--set rhs=random --set solver.preconditioner=jacobi");
  expect_same_as_one_process(3, poisson + "--set rhs.from_solution=random");
  expect_same_as_one_process(
      3, cpu +
             "--set matrix.generate.kind=convdiff3d --set matrix.generate.n=16 "
             "--set solver.method=bicgstab --set rhs.from_solution=ones --set rhs.seed=5");
  expect_same_as_one_process(4, cpu +
                                    "--set matrix.generate.kind=elasticity3d "
                                    "--set matrix.generate.n=8 --set solver.preconditioner=jacobi "
                                    "--set distributed.partition=rows");
  expect_same_as_one_process(2, poisson +
                                    "--set matrix.generate.stencil=27 --set precision=single "
                                    "--set solver.tolerance=1e-5");
}

TEST(MpirunCli, MatrixFileAndRhsFileAreReadByRankZero) {
  const std::string b = scratch("b.mtx");
  std::vector<double> values(2003);
  for (std::size_t i = 0; i < values.size(); ++i)
    values[i] = std::cos(0.1 * static_cast<double>(i));
  write_vector_market(b, values);
  const std::string file = cpu +
                           "--set matrix.file=" + shell_quoted(test::data_path("bcsstk13.mtx")) +
                           " --set solver.preconditioner=jacobi --set rhs.file=" + shell_quoted(b);
  // round-off decides the count on this ill-conditioned matrix: within 2% (1517 iterations)
  expect_same_as_one_process(3, file, 30);
  std::remove(b.c_str());
}

TEST(MpirunCli, PowerlawIsBuiltByRankZeroAndScattered) {
  expect_same_as_one_process(2, cpu +
                                    "--set matrix.generate.kind=powerlaw "
                                    "--set matrix.generate.n=3000 --set solver.method=bicgstab");
}

TEST(MpirunCli, ReportHasARowPerProcess) {
  const CliRun run = solve(3, cpu + "--set matrix.generate.n=12");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("symmetry not checked (distributed)"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("processes    3 (1 host thread each), rows split by nnz, mpi; "
                         "communication not hidden"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("1 thread per process, 3 processes"), std::string::npos) << run.out;
  for (const char* rank_row :
       {"\n                0 ", "\n                1 ", "\n                2 "})
    EXPECT_NE(run.out.find(rank_row), std::string::npos) << rank_row << "\n" << run.out;
  EXPECT_EQ(run.err, "");
}

TEST(MpirunCli, MoreProcessesThanRowsLeavesSomeEmpty) {
  const std::string matrix = scratch("two.mtx");
  std::ofstream(matrix) << "%%MatrixMarket matrix coordinate real symmetric\n2 2 3\n1 1 4\n"
                           "2 1 -1\n2 2 4\n";
  const Solved solved = solve_with_outputs(4, cpu + "--set matrix.file=" + shell_quoted(matrix));
  EXPECT_EQ(solved.run.exit_code, 0) << solved.run.err;
  const std::vector<double> rows = json_numbers(solved.report, "rows");  // matrix, then each rank
  ASSERT_EQ(rows.size(), 5u) << solved.report;
  EXPECT_EQ(std::count(rows.begin() + 1, rows.end(), 0.0), 2) << solved.report;
  EXPECT_LT(test::relative_error(solved.x, std::vector<double>{1.0 / 3.0, 1.0 / 3.0}), 1e-12);
  std::remove(matrix.c_str());
}

TEST(MpirunCli, DiagonalMatrixHasAnEmptyHalo) {
  const std::string matrix = scratch("diagonal.mtx");
  {
    std::ofstream file(matrix);
    file << "%%MatrixMarket matrix coordinate real general\n30 30 30\n";
    for (int i = 1; i <= 30; ++i) file << i << " " << i << " " << i << "\n";
  }
  const Solved solved = solve_with_outputs(
      3, cpu + "--set matrix.file=" + shell_quoted(matrix) + " --set solver.preconditioner=jacobi");
  EXPECT_EQ(solved.run.exit_code, 0) << solved.run.err;
  for (const double halo : json_numbers(solved.report, "halo_size")) EXPECT_EQ(halo, 0.0);
  EXPECT_EQ(json_numbers(solved.report, "neighbours"), (std::vector<double>{0, 0, 0}));
  EXPECT_EQ(json_number(solved.report, "iterations"), 1.0);
  std::remove(matrix.c_str());
}

// Block Jacobi with IC(0) blocks on 2 processes: converged (true residual), fewer iterations
// than Jacobi, and the report names block_jacobi and its local kind.
TEST(MpirunCli, BlockJacobiIc0OnTwoProcesses) {
  const std::string poisson = cpu + "--set matrix.generate.n=20 ";
  const Solved block = solve_with_outputs(2, poisson +
                                                 "--set solver.preconditioner=block_jacobi "
                                                 "--set solver.preconditioner_options.local=ic0");
  const Solved jacobi = solve_with_outputs(2, poisson + "--set solver.preconditioner=jacobi");
  ASSERT_EQ(block.run.exit_code, 0) << block.run.err;
  ASSERT_EQ(jacobi.run.exit_code, 0) << jacobi.run.err;
  EXPECT_LE(json_number(block.report, "true_residual"), json_number(block.report, "threshold"));
  EXPECT_LT(json_number(block.report, "iterations"), json_number(jacobi.report, "iterations"));
  EXPECT_NE(block.report.find("\"name\": \"block_jacobi\""), std::string::npos) << block.report;
  EXPECT_NE(block.report.find("\"local\": \"ic0\""), std::string::npos) << block.report;
  std::printf("  block_jacobi(ic0), 2 processes: %g iterations (jacobi %g)\n",
              json_number(block.report, "iterations"), json_number(jacobi.report, "iterations"));
}

// Grid kinds on the GPU path: every process generates its rows on its GPU (the report says
// rows_made gpu), and the run equals one process's on the GPU (iterations within 1, solutions
// within 1e-6, the true residual below the target) for every right-hand side the device path
// makes (ones, A 1) or takes from the host (random, A x* by the solver's product), in single
// precision, with block Jacobi (its positions generated: two blocks against one process's one,
// so within 5 iterations; DeviceGridRowsMpi compares it exactly with host rows) and with AMG. The
// matrix statistics equal the host-generated rows' (the same run on the CPU path). Processes share
// the GPU where there is one (transport mpi).
TEST(MpirunCliGpu, GridRowsMadeOnTheGpuSolveAsOneProcessDoes) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const std::string gpu =
      "--set device=gpu --set matrix.generate.n=20 --set solver.tolerance=1e-10 ";
  for (const std::string& settings :
       {std::string("--set solver.preconditioner=jacobi"), std::string("--set rhs=random"),
        std::string("--set rhs.from_solution=ones --set solver.preconditioner=amg"),
        std::string("--set rhs.from_solution=random --set solver.preconditioner=block_jacobi"),
        std::string("--set matrix.generate.kind=convdiff3d --set solver.method=bicgstab"),
        std::string("--set precision=single --set solver.tolerance=1e-5 "
                    "--set matrix.generate.stencil=27")}) {
    expect_same_as_one_process(2, gpu + settings,
                               settings.find("block_jacobi") == std::string::npos ? 1 : 5);
    const Solved on_gpu = solve_with_outputs(3, gpu + settings);
    const Solved on_host =
        solve_with_outputs(3, cpu + gpu.substr(gpu.find("--set matrix")) + settings);
    ASSERT_EQ(on_gpu.run.exit_code, 0) << on_gpu.run.err;
    ASSERT_EQ(on_host.run.exit_code, 0) << on_host.run.err;
    EXPECT_NE(on_gpu.report.find("\"rows_made\": \"gpu\""), std::string::npos) << on_gpu.report;
    EXPECT_NE(on_host.report.find("\"rows_made\": \"host\""), std::string::npos);
    for (const char* key :
         {"nnz", "row_length_min", "row_length_max", "row_length_avg", "row_length_stddev",
          "ell_fill_ratio", "empty_rows", "strictly_dominant_rows", "zero_or_missing_diagonal"})
      EXPECT_EQ(json_number(on_gpu.report, key), json_number(on_host.report, key)) << key;
    EXPECT_EQ(on_gpu.report.find("\"diagonally_dominant\": true") == std::string::npos,
              on_host.report.find("\"diagonally_dominant\": true") == std::string::npos);
  }
}

// A time loop reads the host rows' values: its rows are made on the host, on the GPU path too.
TEST(MpirunCliGpu, ATimeLoopKeepsItsRowsOnTheHost) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const Solved solved = solve_with_outputs(2,
                                           "--set device=gpu --set matrix.generate.n=12 "
                                           "--set steps=2");
  ASSERT_EQ(solved.run.exit_code, 0) << solved.run.err;
  EXPECT_NE(solved.report.find("\"rows_made\": \"host\""), std::string::npos);
}

// ---- faults ----------------------------------------------------------------------------

// AMG for systems: the beam with its rigid-body modes, the partition cut at node boundaries
// and each process given its nodes' coordinates; the count within 1.3x of one process's
// (aggregates do not cross processes).
TEST(MpirunCli, Beam3dRigidBodyAmgOnTwoProcesses) {
  const std::string settings =
      shell_quoted(std::string(SPK_SOURCE_DIR) + "/configs/beam3d-amg-rigid-body.yaml") + " " +
      cpu + "--set matrix.generate.n=6";
  const Solved one = solve_with_outputs(0, settings);
  const Solved two = solve_with_outputs(2, settings);
  ASSERT_EQ(one.run.exit_code, 0) << one.run.err;
  ASSERT_EQ(two.run.exit_code, 0) << two.run.err << two.run.out;
  const double iterations = json_number(two.report, "iterations");
  EXPECT_LE(iterations, 1.3 * json_number(one.report, "iterations") + 1);
  EXPECT_LE(json_number(two.report, "true_residual"), json_number(two.report, "threshold"));
  EXPECT_EQ(json_numbers(two.report, "rank").size(), 2u);
  std::printf("  beam3d n=6 rigid body, 2 processes: %g iterations (one process: %g)\n", iterations,
              json_number(one.report, "iterations"));
}

TEST(MpirunCliFaults, MissingMatrixFileOnEveryRank) {
  expect_one_line_error(solve(3, "--set matrix.file=nope.mtx"),
                        {"error: rank 0 (and every other rank): --set matrix.file=nope.mtx: "
                         "matrix.file: file 'nope.mtx' does not exist"});
}

TEST(MpirunCliFaults, BadMatrixReadByRankZero) {
  expect_one_line_error(
      solve(3, cpu + "--set matrix.file=" +
                   shell_quoted(test::source_dir() + "/tests/data/bad/nan_value.mtx")),
      {"error: rank 0: ", "nan_value.mtx:4: value 'nan' is not finite"});
}

TEST(MpirunCliFaults, ZeroPivotNamesTheFileRow) {
  expect_one_line_error(
      run_cli("solve --quiet " +
                  shell_quoted(test::source_dir() + "/tests/data/bad/zero_diagonal_jacobi.yaml"),
              time_limit_s, mpirun(2)),
      {"zero_diagonal.mtx: jacobi: row 2 (1-based, as in the matrix file): diagonal entry is "
       "zero or missing; use solver.preconditioner: none"});
}

// One rank alone fails (MPMD: rank 2 gets a config file that does not exist).
TEST(MpirunCliFaults, OneRankFailingEndsEveryRank) {
  const std::string cli = shell_quoted(test::cli_path());
  const CliRun run =
      run_cli("solve --quiet --set device=cpu : -np 1 " + cli + " solve --quiet missing.yaml",
              time_limit_s, mpirun(2));
  expect_one_line_error(run, {"error: rank 2: config file", "missing.yaml"});
}

TEST(MpirunCliFaults, ConfigsThatDifferBetweenRanksAreFoundAtSetup) {
  const std::string cli = shell_quoted(test::cli_path());
  const CliRun run = run_cli("solve --quiet --set device=cpu : -np 1 " + cli +
                                 " solve --quiet --set device=cpu --set solver.tolerance=1e-6",
                             time_limit_s, mpirun(2));
  expect_one_line_error(run, {"error: rank 2: mismatch between processes in the resolved config: "
                              "'  tolerance: 1e-06' here, '  tolerance: 1e-08' on rank 0"});
}

// 1000^3 on 3 processes: 2.33e9 entries a block, past the 32-bit offsets of a process's rows.
// Refused on every rank from the closed-form counts, before any row is built (it fits 4).
TEST(MpirunCliFaults, ABlockPastTwoToThe31EntriesIsRefusedBeforeItIsBuilt) {
  expect_one_line_error(solve(3, cpu + "--set matrix.generate.n=1000"),
                        {"error: rank 0", "the block of rows [0, ", ") has 233",
                         " nonzeros, more than the 32-bit index limit 2147483647 (one process "
                         "holds at most 2147483647 rows and entries: use more processes"});
}

TEST(MpirunCliFaults, FactorizationsAreRefusedOnSeveralProcesses) {
  expect_one_line_error(solve(2, cpu + "--set solver.preconditioner=ic0"),
                        {"solver.preconditioner ic0 runs on one process only; with 2 processes "
                         "use preconditioner: block_jacobi with preconditioner_options.local: "
                         "ic0"});
}

TEST(MpirunCliFaults, GpuWithoutAGpuIsOneLineFromEveryRank) {
  if (device_available()) GTEST_SKIP() << "this machine has a GPU";
  expect_one_line_error(solve(2, "--set device=gpu"),
                        {"rank 0 (and every other rank): no GPU for this process"});
}

TEST(MpirunCliFaults, UnknownTransportIsAConfigError) {
  expect_one_line_error(solve(2, cpu + "--set distributed.transport=ucx"),
                        {"distributed.transport", "ucx"});
}

TEST(MpirunCliFaults, InfoRunsAsOneProcess) {
  const CliRun run = run_cli("info --generate kind=poisson2d,n=4", time_limit_s, mpirun(2));
  expect_one_line_error(run, {"error: spkrylov info runs as one process"});
}

// ---- the plugin ------------------------------------------------------------------------

TEST(DistributedPlugin, MissingPluginIsOneLineWithSeveralProcesses) {
  const std::string missing = "SPK_DISTRIBUTED_PLUGIN=/nonexistent/libspk_distributed.so ";
  expect_one_line_error(
      run_cli("solve --quiet", time_limit_s, "env " + missing + mpirun(2)),
      {"error: started by an MPI launcher with 2 processes, but the distributed plugin cannot be "
       "loaded: /nonexistent/libspk_distributed.so"});
  // One process solves as usual, after a notice; so does a launcher's environment alone.
  for (const std::string& launcher :
       {"env " + missing + mpirun(1), "env " + missing + "OMPI_COMM_WORLD_SIZE=1"}) {
    const CliRun run =
        run_cli("solve --quiet --set device=cpu --set matrix.generate.n=8", time_limit_s, launcher);
    EXPECT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(run.err.rfind("notice: started by an MPI launcher, but the distributed plugin cannot "
                            "be loaded",
                            0),
              0u)
        << run.err;
    EXPECT_NE(run.out.find("status       converged"), std::string::npos);
  }
}

// The CLI links no MPI library: it starts where none is installed.
TEST(DistributedPlugin, TheCliDoesNotLinkMpi) {
  const std::string listing = scratch("needed.txt");
  if (std::system(("readelf -d " + shell_quoted(test::cli_path()) + " > " + shell_quoted(listing))
                      .c_str()) != 0)
    GTEST_SKIP() << "readelf is not available";
  const std::string needed = test::read_text_file(listing);
  EXPECT_NE(needed.find("NEEDED"), std::string::npos);
  EXPECT_EQ(needed.find("libmpi"), std::string::npos) << needed;
  std::remove(listing.c_str());
}

}  // namespace
}  // namespace spk
