// The error contract at the command line (RELIABILITY.md): for each class of bad input,
// `spkrylov solve BAD.yaml` exits with code 1, prints nothing on stdout, and prints exactly
// one line on stderr, "error: WHAT AND WHERE". The inputs are in tests/data/bad/; matrix
// cases run matrix.yaml with --set matrix.file=FILE.
//
// The runner and the one-line check are in tests/cli_test_support.hpp.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "core/device.hpp"
#include "tests/cli_test_support.hpp"
#include "tests/test_support.hpp"

namespace spk {
namespace {

using test::CliRun;
using test::expect_one_line_error;
using test::run_cli;
using test::shell_quoted;

std::string bad_path(const std::string& name) {
  return test::source_dir() + "/tests/data/bad/" + name;
}

CliRun solve_config(const std::string& config, const std::string& extra = "") {
  return run_cli("solve " + shell_quoted(bad_path(config)) + " --quiet" + extra);
}

CliRun solve_matrix_file(const std::string& matrix) {
  return solve_config("matrix.yaml", " --set " + shell_quoted("matrix.file=" + bad_path(matrix)));
}

void expect_matrix_error(const std::string& matrix, int line, const std::string& what) {
  expect_one_line_error(solve_matrix_file(matrix),
                        {"error: " + bad_path(matrix) + ":" + std::to_string(line) + ": ", what});
}

TEST(ErrorContractCli, ValidInputSolves) {  // the base config itself is fine
  const CliRun run = solve_config("matrix.yaml");
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("converged"), std::string::npos) << run.out;
}

TEST(ErrorContractCli, MalformedHeader) {
  expect_matrix_error("bad_banner.mtx", 1, "unknown symmetry 'gneral'");
  expect_matrix_error("bad_size_line.mtx", 3, "malformed size line '3 3'");
}

TEST(ErrorContractCli, TruncatedFile) {
  expect_matrix_error("truncated.mtx", 5, "file ends after 3 of 5 declared entries");
}

TEST(ErrorContractCli, WrongEntryCount) {
  expect_matrix_error("extra_entries.mtx", 5, "extra entry after the 2 declared entries");
}

TEST(ErrorContractCli, IndexOutOfRange) {
  expect_matrix_error("index_out_of_range.mtx", 4, "row index 4 out of range 1..3");
}

TEST(ErrorContractCli, NonNumericValue) {
  expect_matrix_error("non_numeric.mtx", 4, "value '4,5' is not a number");
}

TEST(ErrorContractCli, NanOrInfInTheMatrix) {
  expect_matrix_error("nan_value.mtx", 4, "value 'nan' is not finite");
  expect_matrix_error("inf_value.mtx", 5, "value '-inf' is not finite");
  expect_one_line_error(solve_matrix_file("duplicates_overflow.mtx"),
                        {bad_path("duplicates_overflow.mtx") + ": duplicate entries (1,1)"});
}

TEST(ErrorContractCli, NanOrInfInTheRightHandSide) {
  expect_one_line_error(solve_config("rhs_nan.yaml"),
                        {bad_path("rhs_nan.mtx") + ":4: value 'NaN' is not finite"});
  expect_one_line_error(solve_config("rhs_inf.yaml"),
                        {bad_path("rhs_inf.mtx") + ":5: value '1e400' is not finite"});
  expect_one_line_error(solve_config("rhs_wrong_length.yaml"),
                        {bad_path("rhs_wrong_length.mtx") +
                         ": right-hand side has 2 entries, the matrix has 3 rows"});
}

// Systems (matrix.block_size, matrix.coordinates, near_nullspace, rhs: load) on good.mtx
// (3 x 3): each bad input is one line naming the file or the key.
TEST(ErrorContractCli, BlockSizeCoordinatesAndNearNullspace) {
  const auto set = [](const std::string& key_value) { return " --set " + shell_quoted(key_value); };
  const std::string good = bad_path("good.mtx");
  expect_one_line_error(
      solve_config("matrix.yaml", set("matrix.block_size=2")),
      {"matrix.block_size: " + good + " has 3 rows, not a multiple of block_size 2"});
  expect_one_line_error(
      solve_config("matrix.yaml",
                   set("matrix.coordinates=" + bad_path("coordinates_wrong_count.mtx"))),
      {bad_path("coordinates_wrong_count.mtx") +
       ": matrix.coordinates has 2 nodes (rows), the matrix has 3 (3 rows / block_size 1)"});
  expect_one_line_error(
      solve_config("matrix.yaml", set("matrix.coordinates=" + bad_path("coordinates_nan.mtx"))),
      {bad_path("coordinates_nan.mtx") + ":5: value 'nan' is not finite"});
  const std::string amg = set("solver.preconditioner=amg");
  const std::string near_nullspace = "solver.preconditioner_options.near_nullspace=";
  expect_one_line_error(solve_config("matrix.yaml", amg + set(near_nullspace + "rigid_body")),
                        {"--set solver.preconditioner_options.near_nulls...: ",
                         "near_nullspace rigid_body needs matrix.block_size 2 or 3"});
  expect_one_line_error(
      solve_config("matrix.yaml",
                   amg + set(near_nullspace + bad_path("coordinates_wrong_count.mtx"))),
      {bad_path("coordinates_wrong_count.mtx") +
       ": solver.preconditioner_options.near_nullspace: the vectors have 2 rows, the matrix "
       "has 3"});
  expect_one_line_error(
      solve_config("matrix.yaml", amg + set(near_nullspace + bad_path("coordinates_nan.mtx"))),
      {bad_path("coordinates_nan.mtx") + ":5: value 'nan' is not finite"});
  expect_one_line_error(solve_config("matrix.yaml", set("rhs=load")),
                        {"--set rhs=load: rhs: load is the generator's own load vector, and a "
                         "matrix file has none"});
}

TEST(ErrorContractCli, ComplexAndHermitianFilesAreNotSupported) {
  expect_matrix_error("complex.mtx", 1, "complex matrices are not supported");
  expect_matrix_error("hermitian.mtx", 1, "complex matrices are not supported");
}

TEST(ErrorContractCli, NonSquareMatrix) {
  expect_one_line_error(solve_matrix_file("rectangular.mtx"),
                        {bad_path("rectangular.mtx") + ": the matrix is not square (3 x 2)"});
}

TEST(ErrorContractCli, EmptyMatrix) {
  expect_one_line_error(solve_matrix_file("empty.mtx"),
                        {bad_path("empty.mtx") + ": the matrix is empty (0 x 0)"});
  expect_one_line_error(
      solve_matrix_file("no_entries.mtx"),
      {bad_path("no_entries.mtx") + ": the matrix has no nonzero entries (3 x 3)", "singular"});
}

TEST(ErrorContractCli, ZeroDiagonalWithJacobi) {
  expect_one_line_error(
      solve_config("zero_diagonal_jacobi.yaml"),
      {bad_path("zero_diagonal.mtx") + ": jacobi: row 2 (1-based, as in the matrix file): ",
       "diagonal entry is zero or missing; use solver.preconditioner: none"});
}

TEST(ErrorContractCli, UnknownYamlKey) {
  expect_one_line_error(solve_config("unknown_key.yaml"),
                        {bad_path("unknown_key.yaml") + ":4: solver.tol: unknown key"});
}

TEST(ErrorContractCli, WrongYamlType) {
  expect_one_line_error(
      solve_config("wrong_type.yaml"),
      {bad_path("wrong_type.yaml") + ":3: solver.max_iterations: expected an integer, got 'many'"});
}

TEST(ErrorContractCli, BadYamlValue) {
  expect_one_line_error(
      solve_config("bad_value.yaml"),
      {bad_path("bad_value.yaml") + ":3: solver.tolerance: must be > 0, got '-1e-8'"});
}

TEST(ErrorContractCli, YamlSyntaxError) {
  expect_one_line_error(solve_config("syntax_error.yaml"),
                        {bad_path("syntax_error.yaml") + ":3: YAML syntax error: "});
  // A fuzzer finding: yaml-cpp looped forever on this file (the 60 s limit would catch it).
  expect_one_line_error(solve_config("parser_loop.yaml"),
                        {bad_path("parser_loop.yaml") + ":2: YAML syntax error: unexpected ','"});
}

TEST(ErrorContractCli, FileNamedInTheConfigDoesNotExist) {
  expect_one_line_error(solve_config("missing_matrix_file.yaml"),
                        {bad_path("missing_matrix_file.yaml") +
                         ":2: matrix.file: file 'no-such-matrix.mtx' does not exist"});
}

TEST(ErrorContractCli, ConfigFileDoesNotExist) {
  expect_one_line_error(
      solve_config("no-such-config.yaml"),
      {"error: config file '" + bad_path("no-such-config.yaml") + "' does not exist"});
}

// A directory where a file goes is named as such (`info DIR/` once printed "error:
// basic_string::_M_create"): every command goes through the same path check as the paths in a
// config.
TEST(ErrorContractCli, DirectoryGivenWhereAFileGoes) {
  const std::string directory = test::source_dir() + "/tests/data/bad/";
  const std::string is_a_directory = "'" + directory + "' is a directory, not a file";
  expect_one_line_error(run_cli("info " + shell_quoted(directory)), {"error: " + is_a_directory});
  expect_one_line_error(run_cli("bench --matrix " + shell_quoted(directory)),
                        {"error: " + is_a_directory});
  expect_one_line_error(
      solve_config("matrix.yaml", " --set " + shell_quoted("matrix.file=" + directory)),
      {"matrix.file: " + is_a_directory});
  expect_one_line_error(run_cli("solve " + shell_quoted(directory)),
                        {"error: '" + directory + "' is a directory, not a config file"});
  expect_one_line_error(run_cli("info " + shell_quoted(bad_path("no-such.mtx"))),
                        {"error: file '" + bad_path("no-such.mtx") + "' does not exist"});
}

TEST(ErrorContractCli, BadOverride) {
  expect_one_line_error(
      solve_config("matrix.yaml", " --set solver.tolerance=tight"),
      {"--set solver.tolerance=tight: solver.tolerance: expected a number, got 'tight'"});
}

TEST(ErrorContractCli, SizesPast32BitIndices) {
  expect_one_line_error(
      solve_config("too_large_generator.yaml"),
      {"poisson3d n=2000 stencil=7: rows = 8000000000 exceeds the 32-bit index limit"});
  expect_matrix_error("too_many_entries.mtx", 2,
                      "declared entries = 3000000000 exceeds the 32-bit index limit");
}

// A file in the test's scratch directory (unique to this process), removed at exit.
std::string scratch_file(const std::string& name, const std::string& contents) {
  static std::vector<std::string> written;
  static const bool cleanup = std::atexit([] {
                                for (const std::string& path : written) std::remove(path.c_str());
                              }) == 0;
  (void)cleanup;
  const std::string path = ::testing::TempDir() + "spk_" + std::to_string(getpid()) + "_" + name;
  std::ofstream(path, std::ios::binary) << contents;
  written.push_back(path);
  return path;
}

// A --set alias to its own anchor made the override walk recurse until the stack overflowed
// (exit 139), and a deep enough nesting would do the same to any walk over the tree: both, from
// a file and from --set, are one line and exit 1 before a node is built.
TEST(ErrorContractCli, CyclicAliasesAndDeepNestingAreRefused) {
  expect_one_line_error(run_cli("solve --quiet --set " + shell_quoted("matrix=&m {generate: *m}")),
                        {"error: --set matrix=&m {generate: *m}: YAML aliases (*name) are not "
                         "accepted in a --set value"});
  const std::string cyclic = scratch_file("cyclic.yaml", "rhs: ones\nmatrix: &m {generate: *m}\n");
  expect_one_line_error(run_cli("solve " + shell_quoted(cyclic)),
                        {"error: " + cyclic + ":2: YAML alias refers to a node that contains it"});
  const std::string deep(10000, '[');
  expect_one_line_error(
      run_cli("solve --quiet --set " + shell_quoted("matrix.generate=" + deep)),
      {"error: --set matrix.generate=[[[", ": YAML nesting deeper than 64 levels"});
  const std::string deep_file =
      scratch_file("deep.yaml", "matrix:\n  generate: " + deep + std::string(10000, ']') + "\n");
  expect_one_line_error(run_cli("solve " + shell_quoted(deep_file)),
                        {"error: " + deep_file + ":2: YAML nesting deeper than 64 levels"});
  // An alias that is not a cycle is still YAML: a config file may share a value.
  const std::string shared = scratch_file("shared_alias.yaml",
                                          "matrix: {generate: {kind: poisson2d, n: &n 6}}\nsolver: "
                                          "{max_iterations: *n, tolerance: 1e-2}\ndevice: cpu\n");
  EXPECT_NE(run_cli("solve --quiet " + shell_quoted(shared)).exit_code, 1);
}

// An output that could not be written is refused when the config is read, not after the
// solve (whose answer would then be lost): a missing folder, a folder given as the file.
TEST(ErrorContractCli, OutputPathsAreCheckedBeforeTheSolve) {
  const std::string missing = ::testing::TempDir() + "spk_no_such_folder/x.mtx";
  expect_one_line_error(
      solve_config("matrix.yaml", " --set " + shell_quoted("output.solution=" + missing)),
      {"--set output.solution=", "output.solution: folder '", "' does not exist"});
  const std::string folder = test::source_dir() + "/configs";
  expect_one_line_error(
      solve_config("matrix.yaml", " --set " + shell_quoted("output.report=" + folder)),
      {"output.report: '" + folder + "' is a folder"});
}

// A Matrix Market file where the config goes gets the command that solves it, not the
// whole file (1 MB) echoed as one "line".
TEST(ErrorContractCli, MatrixMarketFileGivenAsTheConfig) {
  const std::string matrix = test::source_dir() + "/data/bcsstk13.mtx";
  expect_one_line_error(run_cli("solve " + shell_quoted(matrix)),
                        {"error: " + matrix + ": this is a Matrix Market file, not a YAML config",
                         "spkrylov solve --set matrix.file=" + matrix});
  // The same with a byte order mark and a lower-case banner.
  const std::string marked = scratch_file(
      "marked.mtx", "\xef\xbb\xbf%%matrixmarket matrix coordinate real general\n1 1 1\n1 1 2\n");
  expect_one_line_error(run_cli("solve " + shell_quoted(marked)),
                        {"this is a Matrix Market file, not a YAML config"});
}

// No error line grows with its input: every path that quotes input (YAML values, keys and
// whole documents, --set keys and values, Matrix Market lines, command-line arguments) goes
// through the capped quoting of core/printable_text.hpp. expect_one_line_error checks
// the length (max_error_line).
TEST(ErrorContractCli, ErrorLinesStayShortWhateverTheInput) {
  const std::string megabyte(1 << 20, '7');
  const std::string generated = "matrix: {generate: {kind: poisson3d, n: 4}}\n";
  const std::string value_file =
      scratch_file("long_value.yaml", generated + "solver: {tolerance: x" + megabyte + "}\n");
  expect_one_line_error(run_cli("solve " + shell_quoted(value_file)),
                        {"solver.tolerance: expected a number, got 'x777", "...' (1048577 bytes)"});
  // YAML keys are at most 1024 characters (longer ones are a syntax error).
  const std::string key_file =
      scratch_file("long_key.yaml", generated + "solver: {k" + megabyte.substr(0, 1000) + ": 1}\n");
  expect_one_line_error(run_cli("solve " + shell_quoted(key_file)),
                        {"solver.k777", "...: unknown key (valid keys: method,"});
  const std::string line_file = scratch_file("long_line.yaml", "a" + megabyte + "\n");
  expect_one_line_error(run_cli("solve " + shell_quoted(line_file)),
                        {"config must be a map of keys", "...' (1048577 bytes)"});
  const std::string path_file =
      scratch_file("long_path.yaml", "matrix: {file: " + megabyte + "}\n");
  expect_one_line_error(run_cli("solve " + shell_quoted(path_file)),
                        {"matrix.file: file '777", "...777", "777' does not exist"});
  const std::string matrix_file =
      scratch_file("long_line.mtx",
                   "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 " + megabyte + "\n");
  expect_one_line_error(run_cli("info " + shell_quoted(matrix_file)),
                        {":3: value '777", "...' (1048576 bytes) is not a number"});
  expect_one_line_error(
      run_cli("solve --quiet --set " + shell_quoted("matrix.file=" + matrix_file)),
      {":3: value '777"});
  // A command-line argument is at most 128 KiB (MAX_ARG_STRLEN).
  const std::string long_argument(100000, '7');
  expect_one_line_error(
      run_cli("solve --quiet --set " + shell_quoted("solver.tolerance=x" + long_argument)),
      {"--set solver.tolerance=x777", "...: solver.tolerance: expected a number, got 'x777"});
  expect_one_line_error(
      run_cli("solve --quiet --set " + shell_quoted("solver.k" + long_argument + "=1")),
      {"...: unknown key (valid keys: method,"});
  expect_one_line_error(run_cli("bench --runs " + long_argument),
                        {"error: --runs: ", "(see spkrylov --help)"});
  expect_one_line_error(run_cli("bench --x-cache ldg," + long_argument),
                        {"error: --x-cache: ", "(see spkrylov --help)"});
  expect_one_line_error(run_cli("solve --quiet --set " + shell_quoted(long_argument + "[1].x=1")),
                        {"error: --set 777"});
  expect_one_line_error(run_cli("solve config.yaml " + long_argument),
                        {"error: The following argument was not expected: 777"});
}

TEST(ErrorContractCli, DeviceGpuWithoutAGpu) {
  const CliRun run = solve_config("device_gpu.yaml");
  if (device_available()) {  // on a GPU machine: the GPU path is taken
    EXPECT_EQ(run.exit_code, 0) << run.err;
    EXPECT_NE(run.out.find("(sm_"), std::string::npos) << "no GPU device in: " << run.out;
    return;
  }
  // What is true (no driver, or no device), and the device: hint because
  // a config is in play.
  const std::string reason = no_gpu_reason();
  expect_one_line_error(run, {"error: no usable CUDA GPU: " + reason +
                              " (the config says device: gpu; "
                              "use device: cpu or device: auto)"});
  if (cuda_versions().driver == 0) {
    EXPECT_NE(run.err.find("no NVIDIA driver found"), std::string::npos);
  }
  expect_one_line_error(run_cli("solve --quiet --set device=gpu"),
                        {"error: no usable CUDA GPU: " + reason, "use device: cpu"});
}

// bench has no device key and no CPU path: no device: hint there.
TEST(ErrorContractCli, BenchWithoutAGpu) {
  if (device_available()) GTEST_SKIP() << "a GPU is present: bench runs";
  const std::string reason = no_gpu_reason();
  for (const char* command : {"bench --suite none", "bench --solvers --suite small"}) {
    const CliRun run = run_cli(command);
    expect_one_line_error(run, {"error: no usable CUDA GPU: " + reason +
                                "; bench times GPU kernels and runs only on an NVIDIA GPU"});
    EXPECT_EQ(run.err.find("device:"), std::string::npos) << run.err;
  }
}

}  // namespace
}  // namespace spk
