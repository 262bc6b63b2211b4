#pragma once
// The per-row rules of the strength graph (solver/amg/strength.hpp), written once for the
// host's loops (strength.cpp) and the device's kernels (device_strength.cu), so that both
// paths find the same graph and so the same aggregates:
//   absolute_diagonal   |a_ii| of a row
//   strong_connection   whether a_ij is strong (Vanek, Mandel & Brezina 1996, eq. (3.1))
//   strong_union_row    row i of the symmetrized graph S union S^T, from row i of A and row
//                       i of A^T (whose entry (i, j) is a_ji, strong or not as a_ji is in A)
//   strong_symmetric_row  the same row when A is symmetric (a_ji stored and equal to a_ij for
//                       every entry): from row i of A alone, no A^T
#include <cstdint>

#include "core/host_device.hpp"
#include "spmv/host/csr_matrix.hpp"

namespace spk {

// |a_ii| of row `row` (0 when the row stores no diagonal entry).
SPK_HOST_DEVICE inline double absolute_diagonal(index_t row, const index_t* row_offsets,
                                                const index_t* columns, const double* values) {
  double diagonal = 0.0;
  for (index_t k = row_offsets[row]; k < row_offsets[row + 1]; ++k)
    if (columns[k] == row) diagonal = values[k] < 0.0 ? -values[k] : values[k];
  return diagonal;
}

// Whether a_ij = value (row i, column j) is a strong connection: i != j, a_ij != 0 and
// |a_ij| >= theta sqrt(|a_ii| |a_jj|), compared squared: a_ij^2 >= theta^2 |a_ii| |a_jj|
// (products only, in this order, so the host and the device round alike).
SPK_HOST_DEVICE inline bool strong_connection(index_t row, index_t column, double value,
                                              const double* diagonal, double theta) {
  const double magnitude = value < 0.0 ? -value : value;
  return column != row && magnitude != 0.0 &&
         magnitude * magnitude >= theta * theta * diagonal[row] * diagonal[column];
}

// Row `row` of S union S^T: the sorted union of the strong entries of row `row` of A and of
// row `row` of A^T (t_*: entry (row, j) of A^T is a_ji, judged as a_ji). Writes the columns to
// `out` unless it is null; returns their number.
SPK_HOST_DEVICE inline index_t strong_union_row(index_t row, const index_t* a_offsets,
                                                const index_t* a_columns, const double* a_values,
                                                const index_t* t_offsets, const index_t* t_columns,
                                                const double* t_values, const double* diagonal,
                                                double theta, index_t* out) {
  index_t k = a_offsets[row], l = t_offsets[row];
  const index_t k_end = a_offsets[row + 1], l_end = t_offsets[row + 1];
  // Skip to the next strong entry of each row.
  const auto next_in_a = [&] {
    while (k < k_end && !strong_connection(row, a_columns[k], a_values[k], diagonal, theta)) ++k;
  };
  const auto next_in_t = [&] {
    while (l < l_end && !strong_connection(t_columns[l], row, t_values[l], diagonal, theta)) ++l;
  };
  next_in_a();
  next_in_t();
  index_t count = 0;
  while (k < k_end || l < l_end) {
    index_t column;
    if (l == l_end || (k < k_end && a_columns[k] < t_columns[l])) {
      column = a_columns[k++];
    } else if (k == k_end || t_columns[l] < a_columns[k]) {
      column = t_columns[l++];
    } else {
      column = a_columns[k++];  // in both
      ++l;
    }
    if (out != nullptr) out[count] = column;
    ++count;
    next_in_a();
    next_in_t();
  }
  return count;
}

// Row `row` of S union S^T when the block of A's first `own_columns` columns is symmetric
// (every a_ij there has a_ji stored, bitwise equal; rows sorted, so the columns past the block,
// a whole form's halo slots, end the row): row `row` of A^T is then row `row` of A, and the
// union is the entries strong as a_ij or as a_ji, judged as strong_union_row judges them: the
// same columns, without A^T. Writes them to `out` unless it is null; returns their number.
SPK_HOST_DEVICE inline index_t strong_symmetric_row(index_t row, const index_t* offsets,
                                                    const index_t* columns, const double* values,
                                                    index_t own_columns, const double* diagonal,
                                                    double theta, index_t* out) {
  index_t count = 0;
  for (index_t k = offsets[row]; k < offsets[row + 1] && columns[k] < own_columns; ++k) {
    const index_t column = columns[k];
    if (!strong_connection(row, column, values[k], diagonal, theta) &&
        !strong_connection(column, row, values[k], diagonal, theta))
      continue;
    if (out != nullptr) out[count] = column;
    ++count;
  }
  return count;
}

}  // namespace spk
