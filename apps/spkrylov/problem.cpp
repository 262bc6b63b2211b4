#include "problem.hpp"

#include <chrono>
#include <random>

#include "number_text.hpp"
#include "spkrylov/errors.hpp"
#include "spmv/base/printable_text.hpp"
#include "spmv/host/generators.hpp"
#include "spmv/host/matrix_market.hpp"
#include "spmv/host/reference_spmv.hpp"

namespace spk::app {

std::string describe(const GeneratorSpec& spec) {
  std::string text = spec.kind + " n=" + std::to_string(spec.n);
  if (spec.kind == "poisson3d") text += " stencil=" + std::to_string(spec.stencil);
  if (spec.kind.rfind("convdiff", 0) == 0)
    text += " " + spec.convection + number_text(" peclet=%g", spec.peclet);
  if (spec.kind == "powerlaw")
    text += number_text(" avg_row_length=%g", spec.avg_row_length) +
            number_text(" exponent=%g", spec.exponent) + " seed=" + std::to_string(spec.seed);
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

Problem build_problem(const RunConfig& config) {
  Problem problem = load_matrix(config.matrix);
  const CsrMatrix<double>& a = problem.matrix;
  if (!a.square())
    throw BadInput(shown_name(problem.name) + ": the matrix is not square (" +
                   std::to_string(a.rows) + " x " + std::to_string(a.cols) +
                   "); Krylov solvers need a square matrix");
  if (a.rows == 0)
    throw BadInput(shown_name(problem.name) + ": the matrix is empty (0 x 0); nothing to solve");
  if (a.nnz() == 0)
    throw BadInput(shown_name(problem.name) + ": the matrix has no nonzero entries (" +
                   std::to_string(a.rows) + " x " + std::to_string(a.cols) +
                   "); the system is singular");
  const std::size_t n = static_cast<std::size_t>(a.rows);
  std::mt19937_64 engine(config.rhs.seed);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  switch (config.rhs.kind) {
    case RhsSpec::Kind::ones: problem.rhs.assign(n, 1.0); break;
    case RhsSpec::Kind::random:
      problem.rhs.resize(n);
      for (auto& value : problem.rhs) value = uniform(engine);
      break;
    case RhsSpec::Kind::file: {
      problem.rhs = read_vector_market(config.rhs.file);
      if (problem.rhs.size() != n)
        throw BadInput(shown_name(config.rhs.file) + ": right-hand side has " +
                       std::to_string(problem.rhs.size()) + " entries, the matrix has " +
                       std::to_string(n) + " rows");
      break;
    }
    case RhsSpec::Kind::from_solution: {
      std::vector<double> exact(n, 1.0);
      if (config.rhs.solution == "random")
        for (auto& value : exact) value = uniform(engine);
      problem.rhs.resize(n);
      reference_spmv(a, exact.data(), problem.rhs.data());
      problem.exact_solution = std::move(exact);
      break;
    }
  }
  return problem;
}

}  // namespace spk::app
