#pragma once
// MatrixStats: the shape of a sparse matrix as a GPU SpMV format and a Krylov solver see it
// (row-length distribution and ELLPACK padding, as in the ELLPACK-R paper's matrix table;
// symmetry and diagonal dominance, which decide between CG and BiCGSTAB and whether Jacobi
// is safe). compute_matrix_stats runs in parallel (OpenMP) and in O(nnz log(row length)).
#include <string>
#include <utility>
#include <vector>

#include "spmv/host/csr_matrix.hpp"

namespace spk {

struct MatrixStats {
  index_t rows = 0;
  index_t cols = 0;
  std::int64_t nnz = 0;

  // Row lengths (stored entries per row); stddev is the population standard deviation.
  index_t min_row_length = 0;
  double avg_row_length = 0.0;
  index_t max_row_length = 0;
  double row_length_stddev = 0.0;
  double row_length_variation = 0.0;  // stddev / avg (0 when avg is 0)
  double ell_fill_ratio = 1.0;        // rows * max_row_length / nnz (1 when nnz is 0)
  index_t empty_rows = 0;

  // Square matrices only (false otherwise). Structural: (j,i) is stored whenever (i,j) is.
  // Numerical: a_ij == a_ji up to a relative 1e-14 for all i, j (missing entries are 0).
  bool structurally_symmetric = false;
  bool numerically_symmetric = false;

  // Weak dominance in every row: |a_ii| >= sum_{j != i} |a_ij| (a relative 1e-14 of slack
  // absorbs rounding in the sum). Strict rows: |a_ii| > sum_{j != i} |a_ij|.
  bool diagonally_dominant = false;
  index_t strictly_dominant_rows = 0;

  // Rows whose diagonal entry is not stored or is 0 (rows past the last column included).
  index_t zero_or_missing_diagonal = 0;
  index_t first_zero_diagonal_row = -1;  // 0-based; -1 when there is none
};

MatrixStats compute_matrix_stats(const CsrMatrix<double>& matrix);

// A multi-line, human-readable table (no trailing newline), one property a line.
std::string format_matrix_stats(const MatrixStats& stats);

// (key, value) pairs for JSON reports. Values are JSON literals (numbers, true/false, null);
// first_zero_diagonal_row is 1-based there, as in Matrix Market files, and null when none.
std::vector<std::pair<std::string, std::string>> matrix_stats_fields(const MatrixStats& stats);

}  // namespace spk
