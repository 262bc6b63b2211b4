// What a run's Problem carries for systems (frontend/problem.hpp): the block size, the nodes'
// coordinates (matrix.coordinates or the generator's), the generator's load (rhs: load), the
// near-null-space vectors of a file, how set_amg_inputs puts them into the AMG options, and
// each bad input's one-line error naming the file or key. Also the dense Matrix Market
// reader and writer these files go through.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "frontend/config/config_loader.hpp"
#include "frontend/problem.hpp"
#include "spmv/host/generators.hpp"
#include "spmv/host/matrix_market.hpp"
#include "tests/cpu/host_matrix_testing.hpp"

namespace spk::app {
namespace {

namespace fs = std::filesystem;
using test::expect_error;

// A scratch directory of this test process, removed at scope exit.
class Scratch {
 public:
  Scratch() : path_(fs::temp_directory_path() / ("spk_problem_" + std::to_string(::getpid()))) {
    fs::create_directories(path_);
  }
  ~Scratch() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  std::string write(const std::string& name, const std::string& text) const {
    const fs::path file = path_ / name;
    std::ofstream(file) << text;
    return file.generic_string();
  }

 private:
  fs::path path_;
};

// A column-major `array` file of `rows` x `cols` whose entry (i, j) is 10 i + j (+ `last` in
// place of the final value, to plant a bad one).
std::string array_text(int rows, int cols, const std::string& last = "") {
  std::string text = "%%MatrixMarket matrix array real general\n" + std::to_string(rows) + " " +
                     std::to_string(cols) + "\n";
  for (int j = 0; j < cols; ++j)
    for (int i = 0; i < rows; ++i)
      text += (i == rows - 1 && j == cols - 1 && !last.empty()) ? last + "\n"
                                                                : std::to_string(10 * i + j) + "\n";
  return text;
}

// 6 x 6 tridiagonal SPD (2, -1), 16 entries.
const char* const kSixRows =
    "%%MatrixMarket matrix coordinate real symmetric\n6 6 11\n"
    "1 1 2\n2 1 -1\n2 2 2\n3 2 -1\n3 3 2\n4 3 -1\n4 4 2\n5 4 -1\n5 5 2\n6 5 -1\n6 6 2\n";

RunConfig config_of(const std::string& yaml) {
  return parse_run_config(yaml, "run.yaml");
}

TEST(ProblemSystems, Beam3dBringsItsLoadCoordinatesAndBlockSize) {
  const std::string beam = "matrix: {generate: {kind: beam3d, n: 2}}\nrhs: load\n";
  const GeneratedSystem expected = generate_beam3d(2, 0.3, true);
  const Problem plain = build_problem(config_of(beam));
  EXPECT_EQ(plain.block_size, 3);
  EXPECT_EQ(plain.rhs, expected.load);
  EXPECT_TRUE(plain.coordinates.empty());  // only when rigid_body asks for them
  EXPECT_EQ(plain.name, "beam3d n=2 poisson_ratio=0.3");

  const RunConfig rigid =
      config_of(beam +
                "solver: {preconditioner: amg, preconditioner_options: {near_nullspace: "
                "rigid_body}}\n");
  const Problem problem = build_problem(rigid);
  EXPECT_EQ(problem.dimension, 3);
  EXPECT_EQ(problem.coordinates, expected.coordinates);
  SolverOptions options = rigid.solver;
  set_amg_inputs(problem, options);
  const AmgOptions& amg = options.preconditioner_options.amg;
  EXPECT_EQ(amg.block_size, 3);
  EXPECT_EQ(amg.near_nullspace, NearNullspace::rigid_body);
  EXPECT_EQ(amg.coordinates, expected.coordinates);
  EXPECT_TRUE(amg.near_nullspace_vectors.empty());
  // Other preconditioners are left alone.
  SolverOptions jacobi;
  jacobi.preconditioner = Preconditioner::jacobi;
  set_amg_inputs(problem, jacobi);
  EXPECT_EQ(jacobi.preconditioner_options.amg.block_size, 1);
  EXPECT_TRUE(jacobi.preconditioner_options.amg.coordinates.empty());
}

TEST(ProblemSystems, GridGeneratorsHaveCoordinates) {
  const RunConfig config = config_of(
      "matrix: {generate: {kind: elasticity3d, n: 3}}\nsolver: {preconditioner: amg, "
      "preconditioner_options: {near_nullspace: rigid_body}}\n");
  const Problem problem = build_problem(config);
  ASSERT_EQ(problem.block_size, 3);
  ASSERT_EQ(problem.coordinates.size(), 27u * 3);
  // Grid point 1 + 3 * 2 = (1, 2, 0): h (2, 3, 1), h = 1/4.
  EXPECT_EQ(problem.coordinates[3 * 7 + 0], 0.5);
  EXPECT_EQ(problem.coordinates[3 * 7 + 1], 0.75);
  EXPECT_EQ(problem.coordinates[3 * 7 + 2], 0.25);
  GeneratorSpec poisson;
  poisson.kind = "poisson2d";
  poisson.n = 4;
  const GeneratedSystem plane = generate_system(poisson, true);
  EXPECT_EQ(plane.dimension, 2);
  EXPECT_EQ(plane.block_size, 1);
  EXPECT_EQ(plane.coordinates.size(), 32u);
  EXPECT_TRUE(generate_system(poisson, false).coordinates.empty());
  poisson.kind = "rmat";
  poisson.scale = 4;
  EXPECT_TRUE(generate_system(poisson, true).coordinates.empty());  // no grid
}

TEST(ProblemSystems, FileWithCoordinatesAndNearNullspaceVectors) {
  const Scratch scratch;
  const std::string matrix = scratch.write("a.mtx", kSixRows);
  const std::string xy = scratch.write("xy.mtx", array_text(3, 2));
  const std::string b = scratch.write("b.mtx", array_text(6, 3));
  const std::string base =
      "matrix: {file: '" + matrix + "', block_size: 2, coordinates: '" + xy + "'}\n";
  const Problem rigid = build_problem(
      config_of(base + "solver: {preconditioner: amg, preconditioner_options: {near_nullspace: "
                       "rigid_body}}\n"));
  EXPECT_EQ(rigid.block_size, 2);
  EXPECT_EQ(rigid.dimension, 2);
  EXPECT_EQ(rigid.coordinates, (std::vector<double>{0, 1, 10, 11, 20, 21}));  // row-major

  const RunConfig config =
      config_of(base + "solver: {preconditioner: amg, preconditioner_options: {near_nullspace: '" +
                b + "'}}\n");
  const Problem problem = build_problem(config);
  ASSERT_EQ(problem.near_nullspace_count, 3);
  ASSERT_EQ(problem.near_nullspace_vectors.size(), 18u);
  EXPECT_EQ(problem.near_nullspace_vectors[5 * 3 + 2], 52.0);  // entry (5, 2)
  SolverOptions options = config.solver;
  set_amg_inputs(problem, options);
  const AmgOptions& amg = options.preconditioner_options.amg;
  EXPECT_EQ(amg.block_size, 2);
  EXPECT_EQ(amg.near_nullspace, NearNullspace::vectors);
  EXPECT_EQ(amg.near_nullspace_count, 3);
  EXPECT_EQ(amg.near_nullspace_vectors, problem.near_nullspace_vectors);
  EXPECT_TRUE(amg.coordinates.empty());
}

TEST(ProblemSystems, BadInputsGiveOneLineErrorsNamingTheFileOrKey) {
  const Scratch scratch;
  const std::string matrix = scratch.write("a.mtx", kSixRows);
  const std::string file = "matrix: {file: '" + matrix + "'";
  const auto error_of = [](const std::string& yaml) {
    try {
      (void)build_problem(config_of(yaml));
    } catch (const BadInput& error) {
      const std::string message = error.what();
      EXPECT_EQ(message.find('\n'), std::string::npos) << message;
      return message;
    }
    ADD_FAILURE() << "no BadInput for:\n" << yaml;
    return std::string();
  };
  EXPECT_EQ(error_of(file + ", block_size: 4}\n"),
            "matrix.block_size: " + matrix + " has 6 rows, not a multiple of block_size 4");
  const std::string two_nodes = scratch.write("two.mtx", array_text(2, 3));
  EXPECT_EQ(error_of(file + ", block_size: 2, coordinates: '" + two_nodes + "'}\n"),
            two_nodes +
                ": matrix.coordinates has 2 nodes (rows), the matrix has 3 (6 rows / "
                "block_size 2)");
  const std::string four_columns = scratch.write("four.mtx", array_text(6, 4));
  EXPECT_EQ(error_of(file + ", coordinates: '" + four_columns + "'}\n"),
            four_columns + ": matrix.coordinates has 4 columns; expected 1 to 3 (the dimension)");
  const std::string nan = scratch.write("nan.mtx", array_text(3, 2, "nan"));
  EXPECT_EQ(error_of(file + ", block_size: 2, coordinates: '" + nan + "'}\n"),
            nan + ":8: value 'nan' is not finite");
  const std::string sparse =
      scratch.write("sparse.mtx", "%%MatrixMarket matrix coordinate real general\n3 2 1\n1 1 1\n");
  EXPECT_EQ(error_of(file + ", block_size: 2, coordinates: '" + sparse + "'}\n"),
            sparse + ":1: expected a dense 'array' file (rows x columns), found 'coordinate'");
  const std::string xy = scratch.write("xy.mtx", array_text(2, 2));
  EXPECT_EQ(error_of(file + ", block_size: 3, coordinates: '" + xy +
                     "'}\nsolver: {preconditioner: amg, preconditioner_options: "
                     "{near_nullspace: rigid_body}}\n"),
            "solver.preconditioner_options.near_nullspace: rigid_body with matrix.block_size 3 "
            "needs 3 coordinates per node; " +
                xy + " has 2");
  const std::string amg =
      "}\nsolver: {preconditioner: amg, preconditioner_options: "
      "{near_nullspace: '";
  EXPECT_EQ(error_of(file + amg + two_nodes + "'}}\n"),
            two_nodes +
                ": solver.preconditioner_options.near_nullspace: the vectors have 2 "
                "rows, the matrix has 6");
  const std::string wide = scratch.write("wide.mtx", array_text(6, 17));
  EXPECT_EQ(error_of(file + amg + wide + "'}}\n"),
            wide +
                ": solver.preconditioner_options.near_nullspace: 17 vectors (columns); "
                "expected 1 to 16");
  const std::string infinite = scratch.write("inf.mtx", array_text(6, 2, "-inf"));
  EXPECT_EQ(error_of(file + amg + infinite + "'}}\n"),
            infinite + ":14: value '-inf' is not finite");
}

TEST(ProblemSystems, DenseMatrixMarketRoundTrip) {
  const Scratch scratch;
  const DenseMatrix written{3, 2, {1.5, -2.0, 1e-300, 3.0, 0.1, 7.0}};
  const std::string path = scratch.write("dense.mtx", "");
  write_dense_market(path, written);
  const DenseMatrix read = read_dense_market(path);
  EXPECT_EQ(read.rows, 3);
  EXPECT_EQ(read.cols, 2);
  EXPECT_EQ(read.values, written.values);
  // A symmetric array stores the lower triangle; the reader mirrors it.
  const std::string symmetric =
      scratch.write("sym.mtx", "%%MatrixMarket matrix array real symmetric\n2 2\n1\n2\n3\n");
  EXPECT_EQ(read_dense_market(symmetric).values, (std::vector<double>{1, 2, 2, 3}));
  const std::string truncated = scratch.write("short.mtx", array_text(2, 2).substr(0, 50));
  expect_error<BadInput>([&] { (void)read_dense_market(truncated); }, truncated + ":",
                         "file ends after 2 of 4 declared values");
}

}  // namespace
}  // namespace spk::app
