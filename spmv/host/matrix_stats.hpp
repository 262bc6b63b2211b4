#pragma once
// MatrixStats: the shape of a sparse matrix as a GPU SpMV format and a Krylov solver see it
// (row-length distribution and ELLPACK padding, as in the ELLPACK-R paper's matrix table;
// symmetry and diagonal dominance, which decide between CG and BiCGSTAB and whether Jacobi
// is safe). compute_matrix_stats runs in parallel (OpenMP) and in O(nnz log(row length)).
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "spmv/host/csr_matrix.hpp"
#include "spmv/host/row_block.hpp"

namespace spk {

// RowStats: the row-length statistics of a sparsity pattern (values are not looked at), in
// O(rows) from the row offsets: what the `auto` pre-filter reads (tuning_candidates.hpp) and
// the first part of MatrixStats.
struct RowStats {
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
  // Sum of the row lengths rounded up to multiples of 16: aligned-csr's padded entries at 16
  // threads per row.
  std::int64_t aligned16_entries = 0;

  // Extra entries when rows are padded to multiples of 16, / nnz (0 when nnz is 0).
  double aligned16_padding() const {
    return nnz == 0 ? 0.0 : static_cast<double>(aligned16_entries - nnz) / static_cast<double>(nnz);
  }
};

// The exact integer sums RowStats is derived from: what one pass over the row lengths
// accumulates, on the host (compute_row_stats) or on the device (device_row_stats,
// spmv/device/device_row_stats.hpp). Integer sums do not depend on the order of the pass.
struct RowLengthSums {
  index_t min_length = 0;  // over all rows (any value when rows == 0)
  index_t max_length = 0;
  index_t empty_rows = 0;
  std::int64_t aligned16_entries = 0;
  std::uint64_t sum_of_squares = 0;  // of the row lengths
};

// RowStats of a pattern with `rows` rows, `cols` columns and `nnz` entries from its sums: the
// one place the derived fields (mean, deviation, fill ratio) are computed.
RowStats row_stats_from_sums(index_t rows, index_t cols, std::int64_t nnz,
                             const RowLengthSums& sums);

// `row_offsets` has rows + 1 entries (a CsrMatrix's, or any CSR pattern's).
RowStats compute_row_stats(index_t rows, index_t cols, const std::vector<index_t>& row_offsets);

// Relative slack of the weak dominance test: |a_ii| >= (1 - slack) sum_{j != i} |a_ij|.
inline constexpr double kDominanceSlack = 1e-14;

// MatrixStats: RowStats plus what depends on the values.
struct MatrixStats : RowStats {
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
// One process's rows of a distributed matrix (global columns), read in place: the row lengths
// and the diagonal (local row i's is column first_row + i; first_zero_diagonal_row is local).
// cols = rows; the symmetry is not checked (false): no process holds the mirror entries.
MatrixStats compute_block_stats(const RowBlock<double>& rows);

// A multi-line, human-readable table (no trailing newline), one property a line.
std::string format_matrix_stats(const MatrixStats& stats);

// (key, value) pairs for JSON reports. Values are JSON literals (numbers, true/false, null);
// first_zero_diagonal_row is 1-based there, as in Matrix Market files, and null when none.
std::vector<std::pair<std::string, std::string>> matrix_stats_fields(const MatrixStats& stats);

}  // namespace spk
