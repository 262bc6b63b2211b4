#pragma once
// One row of the IC(0) and ILU(0) factorizations, shared by the host loop (solver/
// host_factors.hpp) and the device level kernels (solver/device_factors.cu). Both work in
// place on the values of a CSR matrix whose rows have sorted columns and a diagonal entry
// (`diagonal[i]` is its position), so the factor keeps A's pattern (zero fill-in). A row only
// reads rows with a smaller index, finished before it (levels: solver/factor_pattern.hpp).
//
// ILU(0), row i (Saad, "Iterative Methods for Sparse Linear Systems", 2nd ed., Alg. 10.4, the
// IKJ variant): for each k < i in the row, in order,
//   l_ik = a_ik / u_kk,  then a_ij -= l_ik u_kj for every j > k in both rows i and k.
// The strict lower part then holds L (unit diagonal implied), the rest U.
//
// IC(0), row i (left-looking Cholesky on the lower triangle): for each j <= i in the row,
//   s = a_ij - sum_{k < j} l_ik l_jk,  l_ij = s / l_jj (j < i),  l_ii = sqrt(s) (j = i).
// The lower triangle then holds L; a mirror pass copies it to the upper triangle as L^T.
//
// Robustness (FactorRequest, solver/factor_pattern.hpp): the caller gathers A + alpha diag(A)
// (the diagonal shift). IC(0) first checks the (shifted) a_ii > 0: no shift helps when it is
// not. ILU(0) with replace_tiny_pivots replaces a pivot |u_ii| < tau_i by sign(u_ii) tau_i
// (+tau_i for a zero), tau_i = pivot_floor x the mean |a_ij| over row i's stored entries
// (taken before the row's elimination), the rule of Saad's SPARSKIT ILUT for a zero pivot
// ((1e-4 + droptol) x that mean, with droptol = 0 here): the factors stay finite, at the
// price of a preconditioner that may be poor where many pivots had to be replaced.
#include <cmath>
#include <cstdint>

#include "solver/factor_pattern.hpp"
#include "solver/jacobi_entry.hpp"

namespace spk {

// action(q, r) for every column two sorted index ranges [q, q_end) and [r, r_end) share.
template <class Action>
SPK_HOST_DEVICE inline void for_each_shared_column(const index_t* columns, index_t q, index_t q_end,
                                                   index_t r, index_t r_end, const Action& action) {
  while (q < q_end && r < r_end) {
    if (columns[q] < columns[r]) {
      ++q;
    } else if (columns[q] > columns[r]) {
      ++r;
    } else {
      action(q, r);
      ++q;
      ++r;
    }
  }
}

// ILU(0) with replace_tiny_pivots: a pivot below pivot_floor x its row's mean |a_ij| is
// replaced by that amount (see the header).
constexpr double pivot_floor = 1e-4;

// Returns diagonal_fault::no_fault or the fault code 4 * i + reason of a zero, non-finite
// pivot u_ii (reason missing_or_zero / not_finite). replace_tiny: a zero or tiny pivot is
// replaced instead (replaced is then set) unless the whole row is zero.
template <class T>
SPK_HOST_DEVICE inline std::uint64_t ilu0_row(index_t i, const index_t* row_offsets,
                                              const index_t* columns, const index_t* diagonal,
                                              T* values, bool replace_tiny, bool& replaced) {
  const index_t end = row_offsets[i + 1];
  const index_t diag = diagonal[i];
  double tau = 0.0;  // tau_i = pivot_floor x mean_j |a_ij|, before the row is eliminated
  if (replace_tiny) {
    for (index_t p = row_offsets[i]; p < end; ++p)
      tau += values[p] < T(0) ? -static_cast<double>(values[p]) : static_cast<double>(values[p]);
    tau *= pivot_floor / static_cast<double>(end - row_offsets[i]);
  }
  for (index_t p = row_offsets[i]; p < diag; ++p) {
    const index_t k = columns[p];
    const T l = values[p] / values[diagonal[k]];  // l_ik = a_ik / u_kk
    values[p] = l;
    // a_ij -= l_ik u_kj for the j > k that rows i and k share (a merge of sorted columns)
    for_each_shared_column(columns, p + 1, end, diagonal[k] + 1, row_offsets[k + 1],
                           [&](index_t q, index_t r) { values[q] -= l * values[r]; });
  }
  const T pivot = values[diag];
  if (!is_finite(static_cast<double>(pivot)))
    return 4 * static_cast<std::uint64_t>(i) + diagonal_fault::not_finite;
  const double size = pivot < T(0) ? -static_cast<double>(pivot) : static_cast<double>(pivot);
  const T replacement = static_cast<T>(tau);  // 0 for a zero row (nothing to scale by)
  if (replacement > T(0) && size < tau) {     // u_ii = sign(u_ii) tau_i
    values[diag] = pivot < T(0) ? -replacement : replacement;
    replaced = true;
    return diagonal_fault::no_fault;
  }
  if (pivot == T(0)) return 4 * static_cast<std::uint64_t>(i) + diagonal_fault::missing_or_zero;
  return diagonal_fault::no_fault;
}

// Returns diagonal_fault::no_fault, 4 * i + nonpositive_diagonal when a_ii itself is <= 0
// (not positive definite: no shift helps), or 4 * i + missing_or_zero when s <= 0 at the
// diagonal (the matrix is not positive definite enough for IC(0): a larger shift helps);
// l_ii is then set to 1 so that no NaN spreads (the solve refuses to run anyway).
template <class T>
SPK_HOST_DEVICE inline std::uint64_t ic0_row(index_t i, const index_t* row_offsets,
                                             const index_t* columns, const index_t* diagonal,
                                             T* values) {
  const index_t begin = row_offsets[i];
  const index_t diag = diagonal[i];
  const double a_ii = static_cast<double>(values[diag]);  // (shifted) a_ii, not yet factored
  if (!(a_ii > 0.0)) {
    values[diag] = T(1);
    return 4 * static_cast<std::uint64_t>(i) +
           (is_finite(a_ii) ? diagonal_fault::nonpositive_diagonal : diagonal_fault::not_finite);
  }
  for (index_t p = begin; p <= diag; ++p) {
    const index_t j = columns[p];
    T s = values[p];
    // s = a_ij - sum_{k < j} l_ik l_jk (a merge of row i and row j below column j)
    for_each_shared_column(columns, begin, p, row_offsets[j], diagonal[j],
                           [&](index_t q, index_t r) { s -= values[q] * values[r]; });
    if (p < diag) {
      values[p] = s / values[diagonal[j]];  // l_ij = s / l_jj
    } else if (s > T(0) && is_finite(static_cast<double>(s))) {
      values[p] = static_cast<T>(sqrt(static_cast<double>(s)));  // l_ii = sqrt(s)
    } else {
      values[p] = T(1);
      return 4 * static_cast<std::uint64_t>(i) + (is_finite(static_cast<double>(s))
                                                      ? diagonal_fault::missing_or_zero
                                                      : diagonal_fault::not_finite);
    }
  }
  return diagonal_fault::no_fault;
}

// Row i of the factorization `kind` names (the one dispatch of the host loop and the device
// level kernel). replace_tiny and replaced: ILU(0)'s pivot replacement (ilu0_row).
template <class T>
SPK_HOST_DEVICE inline std::uint64_t factor_row(FactorKind kind, index_t i,
                                                const index_t* row_offsets, const index_t* columns,
                                                const index_t* diagonal, T* values,
                                                bool replace_tiny, bool& replaced) {
  return kind == FactorKind::ic0
             ? ic0_row(i, row_offsets, columns, diagonal, values)
             : ilu0_row(i, row_offsets, columns, diagonal, values, replace_tiny, replaced);
}

}  // namespace spk
