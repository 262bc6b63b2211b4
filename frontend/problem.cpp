#include "frontend/problem.hpp"

#include <chrono>
#include <random>

#include "core/printable_text.hpp"
#include "frontend/number_text.hpp"
#include "spkrylov/errors.hpp"
#include "spmv/host/generators.hpp"
#include "spmv/host/matrix_market.hpp"
#include "spmv/host/reference_spmv.hpp"

namespace spk::app {

namespace {

constexpr const char* near_nullspace_key = "solver.preconditioner_options.near_nullspace";
constexpr int max_near_nullspace_vectors = 16;

// Rows that are not whole nodes: one line naming the key.
void check_block_size(const std::string& name, index_t rows, int block_size) {
  if (rows % block_size != 0)
    throw BadInput("matrix.block_size: " + shown_name(name) + " has " + std::to_string(rows) +
                   " rows, not a multiple of block_size " + std::to_string(block_size));
}

// matrix.coordinates: one row per node (rows / block_size), 1 to 3 columns.
void read_coordinates(const std::string& file, index_t rows, int block_size, Problem& problem) {
  DenseMatrix coordinates = read_dense_market(file);
  const index_t nodes = rows / block_size;
  if (coordinates.rows != nodes)
    throw BadInput(shown_name(file) + ": matrix.coordinates has " +
                   std::to_string(coordinates.rows) + " nodes (rows), the matrix has " +
                   std::to_string(nodes) + " (" + std::to_string(rows) + " rows / block_size " +
                   std::to_string(block_size) + ")");
  if (coordinates.cols < 1 || coordinates.cols > 3)
    throw BadInput(shown_name(file) + ": matrix.coordinates has " +
                   std::to_string(coordinates.cols) + " columns; expected 1 to 3 (the dimension)");
  problem.dimension = coordinates.cols;
  problem.coordinates = std::move(coordinates.values);
}

// near_nullspace: a file of n x k vectors, k from 1 to 16.
void read_near_nullspace(const std::string& file, index_t rows, Problem& problem) {
  DenseMatrix vectors = read_dense_market(file);
  if (vectors.rows != rows)
    throw BadInput(shown_name(file) + ": " + near_nullspace_key + ": the vectors have " +
                   std::to_string(vectors.rows) + " rows, the matrix has " + std::to_string(rows));
  if (vectors.cols < 1 || vectors.cols > max_near_nullspace_vectors)
    throw BadInput(shown_name(file) + ": " + near_nullspace_key + ": " +
                   std::to_string(vectors.cols) + " vectors (columns); expected 1 to " +
                   std::to_string(max_near_nullspace_vectors));
  problem.near_nullspace_count = vectors.cols;
  problem.near_nullspace_vectors = std::move(vectors.values);
}

// rigid_body: coordinates of the block size's dimension (2 or 3; the loader checked that
// coordinates were given or a generator has them).
void check_rigid_body_inputs(const Problem& problem, const MatrixSpec& spec) {
  if (problem.block_size != 2 && problem.block_size != 3)
    throw BadInput(std::string(near_nullspace_key) +
                   ": rigid_body needs matrix.block_size 2 or 3, got " +
                   std::to_string(problem.block_size));
  if (problem.coordinates.empty())
    throw BadInput(std::string(near_nullspace_key) +
                   ": rigid_body needs the nodes' coordinates: give matrix.coordinates");
  if (problem.dimension != problem.block_size)
    throw BadInput(std::string(near_nullspace_key) + ": rigid_body with matrix.block_size " +
                   std::to_string(problem.block_size) + " needs " +
                   std::to_string(problem.block_size) + " coordinates per node; " +
                   (spec.coordinates.empty() ? problem.name : shown_name(spec.coordinates)) +
                   " has " + std::to_string(problem.dimension));
}

}  // namespace

std::string describe(const GeneratorSpec& spec) {
  if (spec.kind == "rmat")
    return "rmat scale=" + std::to_string(spec.scale) +
           " edge_factor=" + std::to_string(spec.edge_factor) +
           " seed=" + std::to_string(spec.seed);
  std::string text = spec.kind + " n=" + std::to_string(spec.n);
  if (spec.kind == "poisson3d") text += " stencil=" + std::to_string(spec.stencil);
  if (spec.kind.rfind("convdiff", 0) == 0)
    text += " " + spec.convection + number_text(" peclet=%g", spec.peclet);
  if (spec.kind == "powerlaw")
    text += number_text(" avg_row_length=%g", spec.avg_row_length) +
            number_text(" exponent=%g", spec.exponent) + " seed=" + std::to_string(spec.seed);
  if (spec.kind == "circuit")
    text += " dense_rows=" + std::to_string(spec.dense_rows) +
            number_text(" dense_fraction=%g", spec.dense_fraction) +
            " seed=" + std::to_string(spec.seed);
  if (spec.kind == "beam3d") text += number_text(" poisson_ratio=%g", spec.poisson_ratio);
  return text;
}

Problem load_matrix(const MatrixSpec& spec, bool with_coordinates) {
  const auto start = std::chrono::steady_clock::now();
  Problem problem;
  if (spec.generate) {
    problem.name = describe(*spec.generate);
    GeneratedSystem system =
        generate_system(*spec.generate, with_coordinates && spec.coordinates.empty());
    problem.matrix = std::move(system.matrix);
    problem.block_size = system.block_size;
    problem.dimension = system.dimension;
    problem.coordinates = std::move(system.coordinates);
    problem.load = std::move(system.load);
  } else {
    problem.name = spec.file;
    problem.matrix = read_matrix_market(spec.file);
    problem.block_size = spec.block_size;
  }
  check_block_size(problem.name, problem.matrix.rows, problem.block_size);
  if (!spec.coordinates.empty())
    read_coordinates(spec.coordinates, problem.matrix.rows, problem.block_size, problem);
  problem.load_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return problem;
}

void check_solvable(const std::string& name, std::int64_t rows, std::int64_t cols,
                    std::int64_t nnz) {
  if (rows != cols)
    throw BadInput(shown_name(name) + ": the matrix is not square (" + std::to_string(rows) +
                   " x " + std::to_string(cols) + "); Krylov solvers need a square matrix");
  if (rows == 0)
    throw BadInput(shown_name(name) + ": the matrix is empty (0 x 0); nothing to solve");
  if (nnz == 0)
    throw BadInput(shown_name(name) + ": the matrix has no nonzero entries (" +
                   std::to_string(rows) + " x " + std::to_string(cols) +
                   "); the system is singular");
}

std::vector<double> random_entries(std::uint64_t seed, std::int64_t first, std::size_t count) {
  std::mt19937_64 engine(seed);
  engine.discard(static_cast<unsigned long long>(first));  // one engine draw per entry
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  std::vector<double> entries(count);
  for (auto& value : entries) value = uniform(engine);
  return entries;
}

void check_rhs_length(const std::string& file, std::int64_t entries, std::int64_t rows) {
  if (entries != rows)
    throw BadInput(shown_name(file) + ": right-hand side has " + std::to_string(entries) +
                   " entries, the matrix has " + std::to_string(rows) + " rows");
}

Problem build_problem(const RunConfig& config) {
  const bool amg = config.solver.preconditioner == Preconditioner::amg;
  const NearNullspace near_nullspace = config.solver.preconditioner_options.amg.near_nullspace;
  Problem problem = load_matrix(config.matrix, amg && near_nullspace == NearNullspace::rigid_body);
  const CsrMatrix<double>& a = problem.matrix;
  check_solvable(problem.name, a.rows, a.cols, a.nnz());
  if (amg && near_nullspace == NearNullspace::rigid_body)
    check_rigid_body_inputs(problem, config.matrix);
  if (amg && near_nullspace == NearNullspace::vectors)
    read_near_nullspace(config.near_nullspace_file, a.rows, problem);
  const std::size_t n = static_cast<std::size_t>(a.rows);
  switch (config.rhs.kind) {
    case RhsSpec::Kind::ones: problem.rhs.assign(n, 1.0); break;
    case RhsSpec::Kind::random: problem.rhs = random_entries(config.rhs.seed, 0, n); break;
    case RhsSpec::Kind::file: {
      problem.rhs = read_vector_market(config.rhs.file);
      check_rhs_length(config.rhs.file, static_cast<std::int64_t>(problem.rhs.size()), a.rows);
      break;
    }
    case RhsSpec::Kind::from_solution: {
      std::vector<double> exact = config.rhs.solution == "random"
                                      ? random_entries(config.rhs.seed, 0, n)
                                      : std::vector<double>(n, 1.0);
      problem.rhs.resize(n);
      reference_spmv(a, exact.data(), problem.rhs.data());
      problem.exact_solution = std::move(exact);
      break;
    }
    case RhsSpec::Kind::load: {
      if (problem.load.empty())
        throw BadInput("rhs: load: " + shown_name(problem.name) +
                       " has no load vector (beam3d has)");
      problem.rhs = std::move(problem.load);
      problem.load.clear();
      break;
    }
  }
  return problem;
}

void set_amg_inputs(const Problem& problem, SolverOptions& options) {
  if (options.preconditioner != Preconditioner::amg) return;
  AmgOptions& amg = options.preconditioner_options.amg;
  amg.block_size = problem.block_size;
  amg.coordinates.clear();
  amg.near_nullspace_vectors.clear();
  amg.near_nullspace_count = 0;
  if (amg.near_nullspace == NearNullspace::rigid_body) amg.coordinates = problem.coordinates;
  if (amg.near_nullspace == NearNullspace::vectors) {
    amg.near_nullspace_vectors = problem.near_nullspace_vectors;
    amg.near_nullspace_count = problem.near_nullspace_count;
  }
}

}  // namespace spk::app
