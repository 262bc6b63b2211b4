// What `spkrylov` prints when things go right: the solve report is the
// default output and the resolved config an option. The binary is run as a user runs it
// (tests/cli_test_support.hpp).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/device.hpp"
#include "frontend/config/config_loader.hpp"
#include "tests/cli_test_support.hpp"
#include "tests/test_support.hpp"

namespace spk {
namespace {

using test::CliRun;
using test::run_cli;
using test::shell_quoted;

// A small solve on the CPU path: the built-in problem at n = 8.
const std::string small_cpu_solve = "solve --quiet --set matrix.generate.n=8 --set device=cpu";

std::size_t line_count(const std::string& text) {
  std::size_t lines = 0;
  for (char c : text) lines += c == '\n';
  return lines;
}

TEST(CliOutput, SolvePrintsTheReportAndSaysWhereTheConfigIs) {
  const CliRun run = run_cli(small_cpu_solve);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out.rfind("config       built-in default + 2 --set; every key: add --print-config\n"
                          "matrix       poisson3d n=8 stencil=7\n",
                          0),
            0u)
      << run.out;
  EXPECT_EQ(run.out.find("resolved config"), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find("tolerance_mode:"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("\nstatus       converged\n"), std::string::npos) << run.out;
  EXPECT_LE(line_count(run.out), 13u) << run.out;
  // With a JSON report, the line points at it too.
  const CliRun with_json = run_cli(small_cpu_solve + " --set output.report=cli_output_report.json");
  EXPECT_NE(with_json.out.find("; every key: add --print-config, or see \"config\" in "
                               "cli_output_report.json\n"),
            std::string::npos)
      << with_json.out;
}

TEST(CliOutput, PrintConfigPrintsTheResolvedConfigAndDoesNotSolve) {
  const std::string quickstart = test::source_dir() + "/configs/quickstart.yaml";
  const CliRun run =
      run_cli("solve " + shell_quoted(quickstart) + " --set solver.tolerance=1e-6 --print-config");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.err, "");
  EXPECT_EQ(run.out.find("status"), std::string::npos) << run.out;
  // It is the config that reproduces the run.
  const RunConfig printed = parse_run_config(run.out, "printed.yaml");
  const RunConfig expected = load_run_config(quickstart, {"solver.tolerance=1e-6"});
  EXPECT_EQ(to_yaml(printed).substr(to_yaml(printed).find('\n')),
            to_yaml(expected).substr(to_yaml(expected).find('\n')));
  EXPECT_EQ(printed.solver.tolerance, 1e-6);
}

// The CPU path runs the iterations in blocks too (the first a quarter of check_every), but
// reads nothing back.
TEST(CliOutput, CpuPathSaysWhatItsLoopDoes) {
  const CliRun run = run_cli(small_cpu_solve + " --set solver.check_every=1000");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find(" (250 executed: the loop looks at the residual after blocks of at "
                         "most 1000, check_every)\n"),
            std::string::npos)
      << run.out;
  EXPECT_EQ(run.out.find("read back"), std::string::npos) << run.out;
}

// The plot: the file name in the title, the "target" label clear of the curves' right ends,
// and the relative residual ||r|| / ||b|| unless output.plot_residual says absolute.
TEST(CliOutput, PlotShowsTheFileNameAndTheRelativeResidual) {
  const std::string matrix = test::source_dir() + "/tests/data/bad/good.mtx";  // ||b|| = sqrt(3)
  const std::string solve = "solve --quiet --set device=cpu --set " +
                            shell_quoted("matrix.file=" + matrix) + " --set output.plot=";
  const CliRun relative = run_cli(solve + "cli_output_relative.svg");
  ASSERT_EQ(relative.exit_code, 0) << relative.err;
  const std::string svg = test::read_text_file(::testing::TempDir() + "cli_output_relative.svg");
  EXPECT_NE(svg.find(">cg on good.mtx</text>"), std::string::npos) << svg.substr(0, 400);
  EXPECT_EQ(svg.find(matrix), std::string::npos);
  EXPECT_NE(svg.find(">recursive residual ||r|| / ||b||</text>"), std::string::npos);
  // ||r0|| / ||b|| = 1 (x0 = 0): the axis tops at 1e0, the target is the tolerance 1e-8.
  EXPECT_NE(svg.find(">1e0</text>"), std::string::npos);
  EXPECT_EQ(svg.find(">1e1</text>"), std::string::npos);
  EXPECT_NE(svg.find(">1e-8</text>"), std::string::npos);
  // The target label sits at the left end of the panel (x = 70 + 4), anchored at its start.
  EXPECT_NE(svg.find("<text class='target-label' x='74.00' "), std::string::npos);
  EXPECT_NE(svg.find("text-anchor='start' font-size='10' fill='#333'>target</text>"),
            std::string::npos);

  const CliRun absolute =
      run_cli(solve + "cli_output_absolute.svg --set output.plot_residual=absolute");
  ASSERT_EQ(absolute.exit_code, 0) << absolute.err;
  const std::string absolute_svg =
      test::read_text_file(::testing::TempDir() + "cli_output_absolute.svg");
  EXPECT_NE(absolute_svg.find(">recursive residual ||r||</text>"), std::string::npos);
  EXPECT_NE(absolute_svg.find(">1e1</text>"), std::string::npos);  // ||r0|| = sqrt(3)
}

// compare: on the CPU path solves once and says why, in one line.
TEST(CliOutput, CompareOnTheCpuPathSolvesOnceAndSaysSo) {
  const std::string config = test::source_dir() + "/configs/compare-formats.yaml";
  const CliRun run = run_cli("solve " + shell_quoted(config) +
                             " --quiet --set device=cpu --set matrix.generate.n=8");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.err,
            "notice: compare: the 8 SpMV setups differ only on the GPU; the CPU reference path "
            "solves once and names each row by the format asked for\n");
  EXPECT_NE(run.out.find("\nstatus       converged\n"), std::string::npos) << run.out;
  // The table names the formats asked for and says the rows are one solve.
  EXPECT_NE(run.out.find("compare (8 runs of the same system):"), std::string::npos) << run.out;
  for (const char* row :
       {"\ncsr-scalar (cpu-csr) ", "\naligned-csr (cpu-csr) ", "\ncusparse (cpu-csr) ",
        "CPU path: every format runs the same CSR product"})
    EXPECT_NE(run.out.find(row), std::string::npos) << row << " in:\n" << run.out;
}

// `spkrylov --version`: version, git commit, CUDA runtime and driver, architectures.
TEST(CliOutput, VersionNamesTheBuildAndTheCudaVersions) {
  const CliRun run = run_cli("--version");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.err, "");
  // Four lines (checked without <regex>, whose GCC 12 headers trip -Wmaybe-uninitialized in
  // the sanitizer build): "spkrylov X.Y.Z (git <12 hex>[-dirty] | unknown)", "CUDA runtime
  // A.B, driver C.D | none", "compiled for CUDA architectures ...", "GPU ...".
  std::vector<std::string> lines;
  for (std::size_t start = 0, end; (end = run.out.find('\n', start)) != std::string::npos;
       start = end + 1)
    lines.push_back(run.out.substr(start, end - start));
  ASSERT_EQ(lines.size(), 4u) << run.out;
  const std::size_t git = lines[0].find(" (git ");
  ASSERT_EQ(lines[0].rfind("spkrylov ", 0), 0u) << lines[0];
  ASSERT_NE(git, std::string::npos) << lines[0];
  ASSERT_EQ(lines[0].back(), ')') << lines[0];
  std::string hash = lines[0].substr(git + 6, lines[0].size() - git - 7);
  if (hash.size() > 6 && hash.compare(hash.size() - 6, 6, "-dirty") == 0)
    hash.resize(hash.size() - 6);
  EXPECT_TRUE(
      hash == "unknown" ||
      (hash.size() == 12 && hash.find_first_not_of("0123456789abcdef") == std::string::npos))
      << lines[0];
  EXPECT_EQ(lines[1].rfind("CUDA runtime ", 0), 0u) << lines[1];
  EXPECT_NE(lines[1].find(", driver "), std::string::npos) << lines[1];
  EXPECT_EQ(lines[2].rfind("compiled for CUDA architectures ", 0), 0u) << lines[2];
  EXPECT_EQ(lines[3].rfind("GPU ", 0), 0u) << lines[3];
  if (cuda_versions().driver == 0) {
    EXPECT_NE(run.out.find(", driver none\n"), std::string::npos) << run.out;
  }
}

// Outside a git checkout the commit is "unknown" (cmake/build_info.cmake, run at build time).
TEST(CliOutput, BuildInfoOutsideAGitCheckoutSaysUnknown) {
  if (!test::is_executable(SPK_CMAKE_COMMAND))  // the GPU machine runs carried binaries only
    GTEST_SKIP() << "no " << SPK_CMAKE_COMMAND << " on this machine";
  const std::string directory = ::testing::TempDir() + "spk_build_info_" + std::to_string(getpid());
  const std::string header = directory + "/spk_build_info.hpp";
  const std::string command =
      "mkdir -p " + shell_quoted(directory) + " && " + shell_quoted(SPK_CMAKE_COMMAND) +
      " -DSOURCE_DIR=" + shell_quoted(directory) + " -DOUTPUT=" + shell_quoted(header) +
      " -DVERSION=1.2.3 -DARCHITECTURES=80,90 -P " +
      shell_quoted(test::source_dir() + "/cmake/build_info.cmake");
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
  const std::string text = test::read_text_file(header);
  EXPECT_NE(text.find("#define SPK_BUILD_GIT_HASH \"unknown\""), std::string::npos) << text;
  EXPECT_NE(text.find("#define SPK_BUILD_VERSION \"1.2.3\""), std::string::npos) << text;
  EXPECT_NE(text.find("#define SPK_BUILD_CUDA_ARCHITECTURES \"80, 90\""), std::string::npos)
      << text;
  std::remove(header.c_str());
  std::remove(directory.c_str());
}

// The top-level help says what `solve` alone does, mentions bench --solvers and the README.
TEST(CliOutput, HelpPointsAtTheBuiltInProblemBenchSolversAndTheReadme) {
  const CliRun run = run_cli("--help");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  for (const char* fragment :
       {"spkrylov solve            solves the built-in problem", "bench --solvers", "README.md",
        "docs/config.md", "the word solve may be left out", "--version"})
    EXPECT_NE(run.out.find(fragment), std::string::npos) << fragment << " in:\n" << run.out;
}

// `spkrylov [solve] [CONFIG.yaml]`: the word solve may be left out, before a config or --set.
TEST(CliOutput, SolveIsTheCommandWhenNoneIsGiven) {
  const std::string config = test::source_dir() + "/configs/quickstart.yaml";
  const CliRun with_word = run_cli("solve " + test::shell_quoted(config) +
                                   " --quiet --set matrix.generate.n=6 --set device=cpu");
  const CliRun without =
      run_cli(test::shell_quoted(config) + " --quiet --set matrix.generate.n=6 --set device=cpu");
  ASSERT_EQ(with_word.exit_code, 0) << with_word.err;
  ASSERT_EQ(without.exit_code, 0) << without.err;
  EXPECT_NE(without.out.find("status       converged"), std::string::npos) << without.out;
  const CliRun only_set = run_cli("--quiet --set matrix.generate.n=6 --set device=cpu");
  EXPECT_EQ(only_set.exit_code, 0) << only_set.err;
  EXPECT_NE(only_set.out.find("built-in default"), std::string::npos) << only_set.out;
}

// SPK_TRACE=1 (core/step_trace.hpp): each AMG setup phase's wall time on stderr, one line per
// call, the report on stdout unchanged; without it, nothing.
TEST(CliOutput, TraceVariablePrintsTheSetupStepsOnStderrOnly) {
  const std::string amg = small_cpu_solve + " --set solver.preconditioner=amg";
  const CliRun quiet = run_cli(amg);
  ASSERT_EQ(quiet.exit_code, 0) << quiet.err;
  EXPECT_EQ(quiet.err.find("spk trace"), std::string::npos) << quiet.err;
  const CliRun traced = run_cli(amg, 60, "env SPK_TRACE=1");
  ASSERT_EQ(traced.exit_code, 0) << traced.err;
  EXPECT_NE(traced.err.find("spk trace: amg phase: galerkin_product "), std::string::npos)
      << traced.err;
  EXPECT_NE(traced.err.find("spk trace: amg phase: eigen_estimate "), std::string::npos)
      << traced.err;
  EXPECT_EQ(traced.out.find("spk trace"), std::string::npos);
  EXPECT_NE(traced.out.find("\nstatus       converged\n"), std::string::npos) << traced.out;
}

}  // namespace
}  // namespace spk
