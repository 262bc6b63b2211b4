#pragma once
// The linear system a run solves: the matrix (read or generated) and the right-hand side
// (ones, random, a file, or A x_true for a known solution).
#include <optional>
#include <string>
#include <vector>

#include "apps/config/run_config.hpp"
#include "spmv/host/csr_matrix.hpp"

namespace spk::app {

struct Problem {
  std::string name;  // "bcsstk13.mtx" or "poisson3d n=64 stencil=7"
  CsrMatrix<double> matrix;
  std::vector<double> rhs;
  std::optional<std::vector<double>> exact_solution;  // rhs: from_solution
  double load_s = 0.0;
};

Problem load_matrix(const MatrixSpec& spec);
Problem build_problem(const RunConfig& config);

std::string describe(const GeneratorSpec& spec);

}  // namespace spk::app
