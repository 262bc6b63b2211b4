#include "solver/factor_pattern.hpp"

#include <algorithm>
#include <numeric>

#include "solver/jacobi_entry.hpp"
#include "spkrylov/errors.hpp"

namespace spk {

const char* to_string(FactorKind kind) {
  return kind == FactorKind::ic0 ? "ic0" : "ilu0";
}

void throw_pivot_fault(FactorKind kind, std::uint64_t fault, const std::string& shift_note) {
  if (fault == diagonal_fault::no_fault) return;
  const auto row = static_cast<long long>(fault / 4);
  const std::string note = shift_note.empty() ? "" : " (" + shift_note + ")";
  if (fault % 4 == diagonal_fault::not_finite)
    throw BadDiagonal(to_string(kind), row, "the pivot is not finite" + note);
  if (kind == FactorKind::ic0 && fault % 4 == diagonal_fault::nonpositive_diagonal)
    throw BadDiagonal(to_string(kind), row,
                      "a_ii <= 0: the matrix is not positive definite, and no diagonal shift "
                      "helps; try ilu0 with bicgstab");
  if (kind == FactorKind::ic0)
    throw BadDiagonal(to_string(kind), row,
                      "the pivot is <= 0" + note +
                          ": IC(0) breaks down on this matrix (not positive definite, or not "
                          "an M-matrix); try preconditioner_options.shift: auto or a larger "
                          "shift, or ilu0, jacobi or amg");
  throw BadDiagonal(to_string(kind), row, "the pivot is zero after elimination" + note);
}

template <class T>
FactorPattern make_factor_pattern(FactorKind kind, const CsrMatrix<T>& matrix,
                                  bool insert_missing_diagonal) {
  const std::string name = to_string(kind);
  if (!matrix.square())
    throw BadInput(name + ": the matrix is not square (" + std::to_string(matrix.rows) + " x " +
                   std::to_string(matrix.cols) + ")");
  const bool insert = insert_missing_diagonal && kind == FactorKind::ilu0;
  FactorPattern pattern;
  pattern.kind = kind;
  pattern.rows = matrix.rows;
  pattern.row_offsets.assign(static_cast<std::size_t>(matrix.rows) + 1, 0);
  pattern.diagonal.assign(static_cast<std::size_t>(matrix.rows), -1);
  pattern.columns.reserve(matrix.columns.size());
  pattern.csr_position.reserve(matrix.columns.size());
  std::vector<index_t> order;  // one row's CSR positions, sorted by column
  for (index_t row = 0; row < matrix.rows; ++row) {
    const index_t begin = matrix.row_offsets[row], end = matrix.row_offsets[row + 1];
    order.resize(static_cast<std::size_t>(end - begin));
    std::iota(order.begin(), order.end(), begin);
    std::sort(order.begin(), order.end(),
              [&](index_t a, index_t b) { return matrix.columns[a] < matrix.columns[b]; });
    for (std::size_t k = 0; k <= order.size(); ++k) {
      const index_t column = k < order.size() ? matrix.columns[order[k]] : matrix.rows;
      if (k > 0 && k < order.size() && column == pattern.columns.back())
        throw BadInput(name + ": row " + std::to_string(row) + " (0-based) holds column " +
                       std::to_string(column) + " twice; sum duplicate entries first");
      // A missing a_ii goes in as a zero before the first column past it.
      if (pattern.diagonal[row] < 0 && column > row && insert) {
        pattern.diagonal[row] = static_cast<index_t>(pattern.columns.size());
        pattern.columns.push_back(row);
        pattern.csr_position.push_back(-1);
        ++pattern.inserted_diagonals;
      }
      if (k == order.size()) break;
      if (column == row) pattern.diagonal[row] = static_cast<index_t>(pattern.columns.size());
      pattern.columns.push_back(column);
      pattern.csr_position.push_back(order[k]);
    }
    pattern.row_offsets[row + 1] = static_cast<index_t>(pattern.columns.size());
    if (pattern.diagonal[row] < 0)
      throw BadDiagonal(name, row, "the diagonal entry is missing from the pattern");
  }
  const std::size_t nnz = pattern.columns.size();

  if (kind == FactorKind::ic0) {  // the transpose of each entry below the diagonal
    for (index_t row = 0; row < matrix.rows; ++row)
      for (index_t p = pattern.row_offsets[row]; p < pattern.diagonal[row]; ++p) {
        const index_t column = pattern.columns[p];
        const auto first = pattern.columns.begin() + pattern.diagonal[column] + 1;
        const auto last = pattern.columns.begin() + pattern.row_offsets[column + 1];
        const auto found = std::lower_bound(first, last, row);
        if (found == last || *found != row)
          throw BadInput(name + ": the pattern is not symmetric: entry (" + std::to_string(row) +
                         ", " + std::to_string(column) + ") has no (" + std::to_string(column) +
                         ", " + std::to_string(row) +
                         ") (0-based); IC(0) needs a symmetric matrix, use ilu0");
        pattern.mirror_lower.push_back(p);
        pattern.mirror_upper.push_back(static_cast<index_t>(found - pattern.columns.begin()));
      }
    if (pattern.mirror_lower.size() * 2 + static_cast<std::size_t>(matrix.rows) != nnz)
      throw BadInput(name + ": the pattern is not symmetric (" + std::to_string(nnz) +
                     " entries, " + std::to_string(pattern.mirror_lower.size()) +
                     " below the diagonal); IC(0) needs a symmetric matrix, use ilu0");
  }

  // Levels of the forward dependencies (k < i), then of the backward ones (j > i).
  std::vector<index_t> level(static_cast<std::size_t>(matrix.rows), 0);
  index_t levels = 0;
  for (index_t row = 0; row < matrix.rows; ++row) {
    index_t own = 0;
    for (index_t p = pattern.row_offsets[row]; p < pattern.diagonal[row]; ++p)
      own = std::max(own, level[pattern.columns[p]] + 1);
    level[row] = own;
    levels = std::max(levels, own + 1);
  }
  pattern.level_offsets.assign(static_cast<std::size_t>(levels) + 1, 0);
  for (index_t row = 0; row < matrix.rows; ++row) ++pattern.level_offsets[level[row] + 1];
  std::partial_sum(pattern.level_offsets.begin(), pattern.level_offsets.end(),
                   pattern.level_offsets.begin());
  pattern.level_rows.resize(static_cast<std::size_t>(matrix.rows));
  std::vector<index_t> next(pattern.level_offsets.begin(), pattern.level_offsets.end() - 1);
  for (index_t row = 0; row < matrix.rows; ++row) pattern.level_rows[next[level[row]]++] = row;

  std::fill(level.begin(), level.end(), 0);
  for (index_t row = matrix.rows - 1; row >= 0; --row) {
    index_t own = 0;
    for (index_t p = pattern.diagonal[row] + 1; p < pattern.row_offsets[row + 1]; ++p)
      own = std::max(own, level[pattern.columns[p]] + 1);
    level[row] = own;
    pattern.upper_levels = std::max(pattern.upper_levels, own + 1);
  }
  return pattern;
}

template FactorPattern make_factor_pattern<float>(FactorKind, const CsrMatrix<float>&, bool);
template FactorPattern make_factor_pattern<double>(FactorKind, const CsrMatrix<double>&, bool);

}  // namespace spk
