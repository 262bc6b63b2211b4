#pragma once
// The linear system a run solves: the matrix (read or generated), the right-hand side (ones,
// random, a file, A x_true for a known solution, or the generator's load), and what the AMG
// preconditioner may use besides the matrix: the block size, the nodes' coordinates and
// near-null-space vectors (set_amg_inputs puts them into the solver options).
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
  int block_size = 1;               // unknowns per node, interleaved (matrix.block_size)
  int dimension = 0;                // coordinates per node; 0: none
  std::vector<double> coordinates;  // nodes x dimension, row-major (matrix.coordinates or the
                                    // generator's)
  std::vector<double> load;         // the generator's load vector (beam3d); empty: none
  std::vector<double> near_nullspace_vectors;  // rows x near_nullspace_count, row-major
  int near_nullspace_count = 0;
};

// The matrix of `spec`, with its block size and load; the coordinates of matrix.coordinates
// when given (checked: nodes = rows / block_size, 1 to 3 columns), else the generator's when
// `with_coordinates`. BadInput when block_size does not divide the rows.
Problem load_matrix(const MatrixSpec& spec, bool with_coordinates = false);
// The whole system of a run: load_matrix, the right-hand side, and what
// solver.preconditioner_options.near_nullspace needs (coordinates for rigid_body, checked
// against the block size; the vectors' file read and checked).
Problem build_problem(const RunConfig& config);
// For amg: the problem's block size, and its coordinates (near_nullspace rigid_body) or
// vectors (a file) in options.preconditioner_options.amg. Other preconditioners: unchanged.
void set_amg_inputs(const Problem& problem, SolverOptions& options);

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
