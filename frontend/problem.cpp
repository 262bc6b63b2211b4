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
  return text;
}

Problem load_matrix(const MatrixSpec& spec) {
  const auto start = std::chrono::steady_clock::now();
  Problem problem;
  if (spec.generate) {
    problem.name = describe(*spec.generate);
    problem.matrix = generate_matrix(*spec.generate);
  } else {
    problem.name = spec.file;
    problem.matrix = read_matrix_market(spec.file);
  }
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
  Problem problem = load_matrix(config.matrix);
  const CsrMatrix<double>& a = problem.matrix;
  check_solvable(problem.name, a.rows, a.cols, a.nnz());
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
  }
  return problem;
}

}  // namespace spk::app
