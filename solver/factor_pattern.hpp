#pragma once
// FactorPattern: what IC(0)/ILU(0) need of the matrix's pattern, computed once on the host at
// setup and kept for every refactorization (update_values):
//   - the rows with sorted columns (the factor's storage order) and, per stored entry, the
//     index of the same nonzero in the caller's CSR order (a gather on every factorization);
//   - the position of each row's diagonal entry;
//   - IC(0): for every entry below the diagonal, the position of its mirror above it;
//   - level scheduling (Anderson & Saad 1989; Naumov, "Parallel incomplete-LU and Cholesky
//     factorization in the preconditioned iterative methods on the GPU", NVIDIA NVR-2012-003):
//     level(i) = 1 + max level(k) over the k < i in row i. The rows of a level depend only on
//     earlier levels, so the device factors a level per kernel. The same levels order the
//     forward (L) solve; the backward (U) solve has its own count. Both are what limits a
//     triangular solve on a GPU, and are reported.
//   - ILU(0) with pivot replacement (insert_missing_diagonal): a row without a diagonal entry
//     gets one, an explicit zero (csr_position -1), so that its pivot can be replaced.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "spmv/host/csr_matrix.hpp"

namespace spk {

enum class FactorKind { ic0, ilu0 };
const char* to_string(FactorKind kind);

struct FactorPattern {
  FactorKind kind = FactorKind::ilu0;
  index_t rows = 0;
  std::vector<index_t> row_offsets;    // rows + 1
  std::vector<index_t> columns;        // sorted within each row
  std::vector<index_t> csr_position;   // entry p is the caller's CSR nonzero csr_position[p]
                                       // (-1: an inserted diagonal entry, value 0)
  std::vector<index_t> diagonal;       // position of a_ii in row i
  std::vector<index_t> mirror_lower;   // IC(0): entries below the diagonal ...
  std::vector<index_t> mirror_upper;   // ... and the positions of their transposes
  std::vector<index_t> level_rows;     // rows grouped by level, in level order
  std::vector<index_t> level_offsets;  // level L holds level_rows[offsets[L] .. offsets[L+1])
  index_t upper_levels = 0;            // levels of the backward (U) solve
  index_t inserted_diagonals = 0;      // rows whose diagonal entry was inserted (as a zero)
  index_t lower_levels() const { return static_cast<index_t>(level_offsets.size()) - 1; }
  std::size_t nnz() const { return columns.size(); }
};

// Throws BadDiagonal naming the first row without a diagonal entry (unless
// insert_missing_diagonal: ilu0 only, the entry is then inserted as a zero), and BadInput for
// a duplicate entry in a row, a non-square matrix or (ic0) a structurally nonsymmetric one.
template <class T>
FactorPattern make_factor_pattern(FactorKind kind, const CsrMatrix<T>& matrix,
                                  bool insert_missing_diagonal = false);

// What one factorization does besides the plain IC(0)/ILU(0) (solver/factor_rows.hpp): factor
// A + shift diag(A) (every diagonal entry times 1 + shift), and (ILU(0)) replace a zero or
// tiny pivot.
struct FactorRequest {
  double shift = 0.0;
  bool replace_tiny_pivots = false;
};

// The words a factorization writes in the space (Factors::factor's status): the first bad
// pivot's fault code (diagonal_fault::no_fault when none) and how many pivots it replaced.
namespace factor_status {
constexpr std::size_t fault = 0;
constexpr std::size_t replaced = 1;
constexpr std::size_t words = 2;
}  // namespace factor_status

}  // namespace spk

namespace spk {

// Throws BadDiagonal for a fault code of ic0_row/ilu0_row other than no_fault ("zero pivot",
// "pivot <= 0", "a_ii <= 0", "non-finite pivot" at the row); shift_note, when not empty, says
// in parentheses which shifts were tried.
void throw_pivot_fault(FactorKind kind, std::uint64_t fault, const std::string& shift_note = "");

}  // namespace spk
