#pragma once
// The linear system a run solves: the matrix (read or generated) and the right-hand side
// (ones, random, a file, or A x_true for a known solution).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "frontend/config/run_config.hpp"
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

// BadInput naming the matrix when it is not square, empty, or has no entries.
void check_solvable(const std::string& name, std::int64_t rows, std::int64_t cols,
                    std::int64_t nnz);
// BadInput when a right-hand side file's length is not the matrix's row count.
void check_rhs_length(const std::string& file, std::int64_t entries, std::int64_t rows);
// Entries first .. first + count - 1 of the random vector of `seed` (rhs: random, and
// from_solution: random): uniform in [-1, 1), one draw of std::mt19937_64 each, so any range
// of rows is the same as in the whole vector (the engine skips the first `first` draws).
std::vector<double> random_entries(std::uint64_t seed, std::int64_t first, std::size_t count);

std::string describe(const GeneratorSpec& spec);

}  // namespace spk::app
