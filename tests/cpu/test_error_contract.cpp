// The error contract at the library level (RELIABILITY.md): one test per class of bad
// input, each checking the documented exception type and its one-line message (what and
// where). The inputs are the files in tests/data/bad/. The CLI side of the same rows is in
// test_error_contract_cli.cpp; regression inputs found by the fuzzers are at the end.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "core/cuda_check.hpp"
#include "core/device.hpp"
#include "core/printable_text.hpp"
#include "frontend/config/config_loader.hpp"
#include "spkrylov/solver.hpp"
#include "spmv/host/matrix_market.hpp"
#include "tests/cpu/host_matrix_testing.hpp"
#include "tests/test_support.hpp"

namespace spk {
namespace {

using test::expect_error;

std::string bad_path(const std::string& name) {
  return test::source_dir() + "/tests/data/bad/" + name;
}

void expect_matrix_error(const std::string& file, int line, const std::string& fragment) {
  expect_error<BadInput>([&] { (void)read_matrix_market(bad_path(file)); },
                         bad_path(file) + ":" + std::to_string(line) + ": ", fragment);
}

CsrMatrix<double> read_bad(const std::string& file) {
  return read_matrix_market(bad_path(file));
}

SolverOptions cg_options(Preconditioner preconditioner = Preconditioner::none) {
  SolverOptions options;
  options.preconditioner = preconditioner;
  options.max_iterations = 50;
  return options;
}

// ---- Matrix Market files ----------------------------------------------------------------

TEST(ErrorContract, MalformedHeader) {
  expect_matrix_error("bad_banner.mtx", 1, "unknown symmetry 'gneral' in the banner");
  expect_matrix_error("bad_size_line.mtx", 3,
                      "malformed size line '3 3': expected 'rows columns entries'");
}

TEST(ErrorContract, TruncatedFile) {
  expect_matrix_error("truncated.mtx", 5, "file ends after 3 of 5 declared entries");
}

TEST(ErrorContract, WrongEntryCount) {
  expect_matrix_error("extra_entries.mtx", 5, "extra entry after the 2 declared entries '3 3 4'");
}

TEST(ErrorContract, IndexOutOfRange) {
  expect_matrix_error("index_out_of_range.mtx", 4, "row index 4 out of range 1..3");
}

TEST(ErrorContract, NonNumericValue) {
  expect_matrix_error("non_numeric.mtx", 4, "value '4,5' is not a number");
}

TEST(ErrorContract, NanOrInfInTheMatrix) {
  expect_matrix_error("nan_value.mtx", 4, "value 'nan' is not finite");
  expect_matrix_error("inf_value.mtx", 5, "value '-inf' is not finite");
  // Finite entries whose duplicates sum past the double range (a fuzzer finding).
  expect_error<BadInput>([] { (void)read_bad("duplicates_overflow.mtx"); },
                         bad_path("duplicates_overflow.mtx") + ": ",
                         "duplicate entries (1,1) sum to a value past the double range");
  // Matrices built in memory are checked by the Solver.
  CsrMatrix<double> matrix = read_bad("good.mtx");
  // good.mtx is symmetric: row 1 holds (1,1),(1,2), so values[2] is entry (2,1).
  matrix.values[2] = std::numeric_limits<double>::quiet_NaN();
  expect_error<BadInput>(
      [&] {
        Solver<double>(arrays_of(matrix), Options{cg_options(), SpmvOptions{}, Device::cpu});
      },
      "the matrix has a non-finite value at row 1, column 0 (0-based)", "");
}

TEST(ErrorContract, NanOrInfInTheRightHandSide) {
  expect_error<BadInput>([] { (void)read_vector_market(bad_path("rhs_nan.mtx")); },
                         bad_path("rhs_nan.mtx") + ":4: ", "value 'NaN' is not finite");
  expect_error<BadInput>([] { (void)read_vector_market(bad_path("rhs_inf.mtx")); },
                         bad_path("rhs_inf.mtx") + ":5: ", "value '1e400' is not finite");
  const CsrMatrix<double> matrix = read_bad("good.mtx");
  Solver<double> solver(arrays_of(matrix), Options{cg_options(), SpmvOptions{}, Device::cpu});
  std::vector<double> b(3, 1.0), x(3, 0.0);
  b[2] = -std::numeric_limits<double>::infinity();
  expect_error<BadInput>([&] { (void)solver.solve(b, x); },
                         "right-hand side has a non-finite value at row 2 (0-based)", "");
  b[2] = 1.0;
  x[0] = std::numeric_limits<double>::quiet_NaN();
  expect_error<BadInput>([&] { (void)solver.solve(b, x); },
                         "initial guess has a non-finite value at row 0 (0-based)", "");
  std::vector<double> short_b(2, 1.0);
  expect_error<BadInput>([&] { (void)solver.solve(short_b, x); },
                         "right-hand side has 2 entries, the matrix 3 rows", "");
}

TEST(ErrorContract, ComplexAndHermitianFilesAreNotSupported) {
  expect_error<NotSupported>(
      [] { (void)read_bad("complex.mtx"); },
      bad_path("complex.mtx") + ":1: ", "complex matrices are not supported");
  expect_error<NotSupported>(
      [] { (void)read_bad("hermitian.mtx"); },
      bad_path("hermitian.mtx") + ":1: ", "complex matrices are not supported");
}

TEST(ErrorContract, NonSquareMatrix) {
  const CsrMatrix<double> matrix = read_bad("rectangular.mtx");  // valid Matrix Market
  EXPECT_EQ(matrix.rows, 3);
  EXPECT_EQ(matrix.cols, 2);
  expect_error<BadInput>(
      [&] {
        Solver<double>(arrays_of(matrix), Options{cg_options(), SpmvOptions{}, Device::cpu});
      },
      "the matrix is not square (3 x 2)", "Krylov solvers need a square matrix");
}

TEST(ErrorContract, EmptyMatrix) {
  const CsrMatrix<double> empty = read_bad("empty.mtx");
  expect_error<BadInput>(
      [&] {
        Solver<double>(arrays_of(empty), Options{cg_options(), SpmvOptions{}, Device::cpu});
      },
      "the matrix is empty (0 rows)", "");
  // No entries at all: a singular system. The library reports it as a status, never as a
  // number: CG breaks down at the first step (the CLI refuses it before solving).
  const CsrMatrix<double> zero = read_bad("no_entries.mtx");
  EXPECT_EQ(zero.nnz(), 0);
  Solver<double> solver(arrays_of(zero), Options{cg_options(), SpmvOptions{}, Device::cpu});
  std::vector<double> b(3, 1.0), x(3, 0.0);
  const SolveResult result = solver.solve(b, x);
  EXPECT_FALSE(result.converged());
  EXPECT_EQ(result.status, SolveStatus::breakdown) << result.message;
  for (double value : x) EXPECT_TRUE(std::isfinite(value));
}

TEST(ErrorContract, ZeroDiagonalWithJacobi) {
  const CsrMatrix<double> matrix = read_bad("zero_diagonal.mtx");
  expect_error<BadInput>(
      [&] {
        Solver<double>(arrays_of(matrix),
                       Options{cg_options(Preconditioner::jacobi), SpmvOptions{}, Device::cpu});
      },
      "jacobi: row 1 (0-based): ",
      "diagonal entry is zero or missing; use Preconditioner::none or fix the matrix");
  // The same matrix without Jacobi is accepted (it is not singular).
  EXPECT_NO_THROW(
      Solver<double>(arrays_of(matrix), Options{cg_options(), SpmvOptions{}, Device::cpu}));
}

// ---- YAML config --------------------------------------------------------------------------

void expect_config_error(const std::string& file, int line, const std::string& fragment) {
  expect_error<BadInput>([&] { (void)load_run_config(bad_path(file)); },
                         bad_path(file) + ":" + std::to_string(line) + ": ", fragment);
}

TEST(ErrorContract, UnknownYamlKey) {
  expect_config_error("unknown_key.yaml", 4,
                      "solver.tol: unknown key (valid keys: method, tolerance, ");
}

TEST(ErrorContract, WrongYamlType) {
  expect_config_error("wrong_type.yaml", 3,
                      "solver.max_iterations: expected an integer, got 'many'");
}

TEST(ErrorContract, BadYamlValue) {
  expect_config_error("bad_value.yaml", 3, "solver.tolerance: must be > 0, got '-1e-8'");
}

TEST(ErrorContract, YamlSyntaxError) {
  expect_config_error("syntax_error.yaml", 3, "YAML syntax error: ");
}

TEST(ErrorContract, FileNamedInTheConfigDoesNotExist) {
  expect_config_error("missing_matrix_file.yaml", 2,
                      "matrix.file: file 'no-such-matrix.mtx' does not exist");
}

TEST(ErrorContract, ConfigFileDoesNotExist) {
  const std::string path = bad_path("no-such-config.yaml");
  expect_error<BadInput>([&] { (void)load_run_config(path); },
                         "config file '" + path + "' does not exist", "");
}

// Every input path goes through one check (core/input_file.hpp): a directory given as a
// matrix once read as a file of 2^63 bytes ("basic_string::_M_create").
TEST(ErrorContract, DirectoryOrMissingPathGivenAsAnInputFile) {
  const std::string directory = test::source_dir() + "/tests/data/bad";
  expect_error<BadInput>([&] { (void)read_matrix_market(directory); },
                         "'" + directory + "' is a directory, not a file", "");
  expect_error<BadInput>([&] { (void)read_vector_market(directory); },
                         "'" + directory + "' is a directory, not a file", "");
  expect_error<BadInput>([&] { (void)load_run_config(directory); },
                         "'" + directory + "' is a directory, not a config file", "");
  expect_error<BadInput>([&] { (void)read_matrix_market(bad_path("no-such.mtx")); },
                         "file '" + bad_path("no-such.mtx") + "' does not exist", "");
}

TEST(ErrorContract, BadOverride) {
  expect_error<BadInput>(
      [] { (void)load_run_config(bad_path("matrix.yaml"), {"solver.tolerance=tight"}); },
      "--set solver.tolerance=tight: ", "solver.tolerance: expected a number, got 'tight'");
}

// ---- devices ------------------------------------------------------------------------------

TEST(ErrorContract, DeviceGpuWithoutAGpu) {
  if (device_available()) {  // on a GPU machine: device: gpu takes the GPU path
    EXPECT_EQ(resolve_device(Device::gpu), Device::gpu);
    return;
  }
  // The reason says what is true (no driver, or no device); no remedy at the library level (a
  // config's `device:` key is the CLI's business).
  const std::string reason = no_gpu_reason();
  if (cuda_versions().driver == 0) {
    EXPECT_EQ(reason, "no NVIDIA driver found");
  }
  EXPECT_EQ(reason.find("insufficient"), std::string::npos) << reason;
  expect_error<NoDevice>([] { (void)resolve_device(Device::gpu); }, "no usable CUDA GPU: " + reason,
                         "");
  try {
    (void)current_device_info();
  } catch (const NoDevice& error) {
    EXPECT_EQ(std::string(error.what()), "no usable CUDA GPU: " + reason);
  }
  Options options;
  options.device = Device::gpu;
  const CsrMatrix<double> matrix = read_bad("good.mtx");
  expect_error<NoDevice>([&] { Solver<double>(arrays_of(matrix), options); },
                         "no usable CUDA GPU: ", "");
  // auto falls back to the CPU instead
  EXPECT_EQ(resolve_device(Device::automatic), Device::cpu);
}

// Every CUDA runtime, cuBLAS and cuSPARSE call goes through SPK_CUDA_CHECK, SPK_CUBLAS_CHECK
// or SPK_CUSPARSE_CHECK (core/cuda_check.hpp): a failed status throws spk::CudaError
// naming the status, the call and the source file and line. The failed statuses are given
// directly, so this runs without a GPU (the GPU rows are in test_error_contract_gpu.cpp).
TEST(ErrorContract, FailedCudaLibraryCallsNameTheStatusCallFileAndLine) {
  const auto at_line = [](int line) {
    return " at test_error_contract.cpp:" + std::to_string(line);
  };
  const int cuda_line = __LINE__ + 1;
  const auto cuda_call = [] { SPK_CUDA_CHECK(cudaErrorInvalidValue); };
  expect_error<CudaError>(cuda_call, "CUDA error cudaErrorInvalidValue (",
                          ") in cudaErrorInvalidValue" + at_line(cuda_line));
  const int cublas_line = __LINE__ + 1;
  const auto cublas_call = [] { SPK_CUBLAS_CHECK(CUBLAS_STATUS_ALLOC_FAILED); };
  expect_error<CudaError>(cublas_call, "cuBLAS error CUBLAS_STATUS_ALLOC_FAILED in ",
                          "CUBLAS_STATUS_ALLOC_FAILED" + at_line(cublas_line));
  const int cusparse_line = __LINE__ + 1;
  const auto cusparse_call = [] { SPK_CUSPARSE_CHECK(CUSPARSE_STATUS_INVALID_VALUE); };
  expect_error<CudaError>(cusparse_call, "cuSPARSE error CUSPARSE_STATUS_INVALID_VALUE (",
                          ") in CUSPARSE_STATUS_INVALID_VALUE" + at_line(cusparse_line));
  // A successful status passes through.
  EXPECT_NO_THROW(SPK_CUDA_CHECK(cudaSuccess));
  EXPECT_NO_THROW(SPK_CUBLAS_CHECK(CUBLAS_STATUS_SUCCESS));
  EXPECT_NO_THROW(SPK_CUSPARSE_CHECK(CUSPARSE_STATUS_SUCCESS));
}

// ---- fuzzer findings (fuzz/): each input once made a target fail --------------------------

CsrMatrix<double> parse_matrix(const std::string& text) {
  std::istringstream in(text);
  return parse_matrix_market(in, "fuzz.mtx");
}

std::vector<double> parse_vector(const std::string& text) {
  std::istringstream in(text);
  return parse_vector_market(in, "fuzz.mtx");
}

// matrix_market_fuzzer: finite duplicates summed to +inf and the matrix was accepted.
TEST(FuzzRegression, MatrixMarketDuplicatesSummingPastTheDoubleRange) {
  const std::string header = "%%MatrixMarket matrix coordinate real general\n";
  expect_error<BadInput>([&] { parse_matrix(header + "2 2 2\n1 1 1e308\n1 1 1e308\n"); },
                         "fuzz.mtx: ", "duplicate entries (1,1) sum to a value past");
  expect_error<BadInput>(
      [&] {
        parse_matrix(
            "%%MatrixMarket matrix coordinate real symmetric\n"
            "2 2 2\n2 1 -1e308\n2 1 -1e308\n");
      },
      "fuzz.mtx: ", "duplicate entries (1,2) sum to a value past");
  expect_error<BadInput>([&] { parse_vector(header + "3 1 2\n2 1 1.7e308\n2 1 1.7e308\n"); },
                         "fuzz.mtx: ", "duplicate entries at position 2 sum to a value past");
  // Large duplicates that stay finite are still summed.
  EXPECT_EQ(parse_matrix(header + "1 1 2\n1 1 1e308\n1 1 -1e308\n").values[0], 0.0);
}

// Control characters in quoted input are escaped: messages stay one printable line.
TEST(FuzzRegression, QuotedInputIsEscapedIntoOnePrintableLine) {
  expect_error<BadInput>(
      [] { parse_matrix(std::string("%%MatrixMarket matrix coordinate real gen\x1b[2J\n")); },
      "fuzz.mtx:1: ", "unknown symmetry 'gen\\x1b[2j'");
  expect_error<BadInput>(
      [] {
        parse_matrix(std::string("%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 1") +
                     '\0' + "2\n");
      },
      "fuzz.mtx:3: ", "value '1\\x002' is not a number");
  // config_fuzzer: a YAML error quoted a raw control byte.
  expect_error<BadInput>([] { (void)parse_run_config("a: \"\\\x02\"\n", "fuzz.yaml"); },
                         "fuzz.yaml:1: YAML syntax error: ", "\\x02");
  // A block scalar's newlines were printed as they are.
  expect_error<BadInput>(
      [] {
        (void)parse_run_config(
            "matrix: {generate: {kind: poisson3d, n: 4}}\nsolver:\n  tolerance: |\n    1e-8\n    "
            "2\n",
            "fuzz.yaml");
      },
      "fuzz.yaml:3: solver.tolerance: ", "expected a number, got '1e-8\\n2\\n'");
}

// No message grows with its input: a Matrix Market file read as a config once echoed the
// whole file (1 MB) in one message. The cap is in printable_text.hpp, which every quoting path
// uses.
TEST(ErrorContract, QuotedInputIsCappedWhereverItIsQuoted) {
  const std::string megabyte(1 << 20, '7');
  EXPECT_EQ(quoted_input("tight"), "'tight'");
  EXPECT_EQ(quoted_input(megabyte),
            "'" + megabyte.substr(0, quoted_input_limit) + "...' (1048576 bytes)");
  EXPECT_EQ(quoted_input(std::string(50, '\n')).size(),
            std::string("'").size() + quoted_input_limit + std::string("...' (50 bytes)").size());
  EXPECT_EQ(quoted_input("\xc3\xa9" + megabyte).substr(0, 3), "'\xc3\xa9");  // whole UTF-8
  const std::string long_name = "/" + std::string(300, 'd') + "/bcsstk13.mtx";
  EXPECT_LE(shown_name(long_name).size(), shown_name_limit);
  EXPECT_EQ(shown_name(long_name).substr(shown_name(long_name).size() - 13), "/bcsstk13.mtx");
  EXPECT_EQ(shown_name("data/a.mtx"), "data/a.mtx");

  const auto expect_short = [](const std::string& what) {
    EXPECT_LE(what.size(), 300u) << what.substr(0, 1000);
    EXPECT_EQ(what.find('\n'), std::string::npos);
  };
  const std::string generated = "matrix: {generate: {kind: poisson3d, n: 4}}\n";
  for (const std::string& text :
       {generated + "solver: {tolerance: " + megabyte + "}\n", generated + "device: " + megabyte,
        megabyte, "matrix: {file: " + megabyte + "}\n", "rhs: " + megabyte})
    expect_error<BadInput>([&] { (void)parse_run_config(text, "run.yaml"); }, "run.yaml", "");
  for (const std::string& text : {generated + "solver: {tolerance: " + megabyte + "}\n", megabyte,
                                  "matrix: {file: " + megabyte + "}\n"}) {
    try {
      (void)parse_run_config(text, "run.yaml");
    } catch (const BadInput& error) {
      expect_short(error.what());
    }
  }
  try {
    (void)parse_run_config(generated, "run.yaml", {"solver.tolerance=" + megabyte});
    ADD_FAILURE() << "no error";
  } catch (const BadInput& error) {
    expect_short(error.what());
  }
  try {
    (void)parse_matrix("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 " + megabyte);
    ADD_FAILURE() << "no error";
  } catch (const BadInput& error) {
    expect_short(error.what());
  }
  // A Matrix Market file where the config goes is named as such, in one short line.
  const std::string matrix =
      "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 " + megabyte;
  expect_error<BadInput>([&] { (void)parse_run_config(matrix, "a.mtx"); },
                         "a.mtx: this is a Matrix Market file, not a YAML config; ",
                         "spkrylov solve --set matrix.file=a.mtx");
}

// config_fuzzer: yaml-cpp 0.7's LoadAll looped forever, allocating all memory, on some
// malformed input (a hang and then an out-of-memory kill for `spkrylov solve`).
TEST(FuzzRegression, YamlInputThatHungTheParserIsASyntaxError) {
  const std::string path = bad_path("parser_loop.yaml");
  expect_error<BadInput>([&] { (void)load_run_config(path); },
                         path + ":2: ", "YAML syntax error: unexpected ',' at column 4");
  for (const char* text : {",", "- a\n,", "&(2, 2M}"})
    expect_error<BadInput>([&] { (void)parse_run_config(text, "fuzz.yaml"); }, "fuzz.yaml",
                           "YAML syntax error: ");
}

// config_fuzzer: an override's key path was quoted whole in "PATH has 0 entries: index N
// must be 0..0" (a 570-character message; the CLI's line is capped at 300).
TEST(FuzzRegression, LongOverrideKeyPathIsCappedInTheMessage) {
  const std::string generated = "matrix: {generate: {kind: poisson3d, n: 4}}\n";
  for (const std::string& key :
       {std::string(500, 'c') + "[3].format", "compare.2" + std::string(500, '7') + ".format",
        "solver[" + std::string(500, '7') + "]"}) {
    try {
      (void)parse_run_config(generated, "fuzz.yaml", {key + "=hyb"});
      ADD_FAILURE() << "no error";
    } catch (const BadInput& error) {
      EXPECT_LE(std::string(error.what()).size(), 293u) << error.what();
    }
  }
}

// config_fuzzer: an override list index past the size_t range escaped as std::out_of_range
// ("error: stoul" from the CLI).
TEST(FuzzRegression, HugeOverrideListIndexIsBadInput) {
  expect_error<BadInput>(
      [] {
        (void)parse_run_config("matrix: {generate: {kind: poisson3d, n: 4}}\n", "fuzz.yaml",
                               {"compare[99999999999999999999999].format=hyb"});
      },
      "--set compare[99999999999999999999999].format=...: ", "must be 0..0");
}

// config_fuzzer (449k runs): an override aliasing its own anchor made the walk that records
// the override's nodes recurse until the stack overflowed. Aliases in --set values are refused,
// a cyclic alias in a file too, and nesting is bounded, before any node is built.
TEST(FuzzRegression, CyclicAliasAndDeepNestingAreBadInput) {
  const std::string generated = "matrix: {generate: {kind: poisson3d, n: 4}}\n";
  expect_error<BadInput>(
      [&] { (void)parse_run_config(generated, "fuzz.yaml", {"matrix=&m {generate: *m}"}); },
      "--set matrix=&m {generate: *m}: ", "YAML aliases (*name) are not accepted");
  expect_error<BadInput>([] { (void)parse_run_config("matrix: &m {generate: *m}\n", "fuzz.yaml"); },
                         "fuzz.yaml:1: ", "YAML alias refers to a node that contains it");
  const std::string deep = std::string(10000, '[') + std::string(10000, ']');
  expect_error<BadInput>(
      [&] { (void)parse_run_config(generated, "fuzz.yaml", {"matrix.generate=" + deep}); },
      "--set matrix.generate=[[[", "YAML nesting deeper than 64 levels");
  expect_error<BadInput>(
      [&] { (void)parse_run_config("matrix:\n  generate: " + deep, "fuzz.yaml"); },
      "fuzz.yaml:2: ", "YAML nesting deeper than 64 levels");
  // 64 levels are still read (and refused by the schema, not by the depth bound).
  const std::string at_limit = std::string(62, '[') + std::string(62, ']');
  try {
    (void)parse_run_config("matrix:\n  generate: " + at_limit, "fuzz.yaml");
    ADD_FAILURE() << "no error";
  } catch (const BadInput& error) {
    EXPECT_EQ(std::string(error.what()).find("nesting"), std::string::npos) << error.what();
  }
}

}  // namespace
}  // namespace spk
