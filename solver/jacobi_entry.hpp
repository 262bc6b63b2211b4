#pragma once
// One row of the Jacobi diagonal (solver/jacobi.hpp), shared by the host loops
// (HostSpace::find_diagonal_positions, HostSpace::invert_entries) and the device kernels
// (DeviceSpace's), so both paths find the same entry and refuse the same rows.
#include <cstddef>
#include <cstdint>
#include <limits>

#include "solver/krylov_scalars.hpp"
#include "spmv/host/csr_matrix.hpp"

namespace spk {

// Why invert_entries refused a row, encoded with the row as row * 4 + reason so that the
// smallest code is the first bad row. no_fault: every row was fine.
namespace diagonal_fault {
// IC(0) only (solver/factor_rows.hpp): a_ii itself <= 0, which no diagonal shift mends.
constexpr std::uint64_t nonpositive_diagonal = 0;
constexpr std::uint64_t missing_or_zero = 1;
constexpr std::uint64_t not_finite = 2;
constexpr std::uint64_t too_small = 3;
constexpr std::uint64_t no_fault = std::numeric_limits<std::uint64_t>::max();
}  // namespace diagonal_fault

// Where row `row`'s diagonal entry sits: the last k with columns[k] == row among the entries
// first, first + stride, ... below end (-1: none). A row is [begin, end); the host looks at
// it whole (first = begin, stride = 1), the device's 32 lanes each take every 32nd entry from
// begin + lane and keep the largest k, which is the same entry.
SPK_HOST_DEVICE inline index_t last_diagonal_entry(index_t row, index_t first, index_t end,
                                                   index_t stride, const index_t* columns) {
  index_t found = -1;
  for (index_t k = first; k < end; k += stride)
    if (columns[k] == row) found = k;
  return found;
}

// inverse = 1 / values[position]; returns diagonal_fault::no_fault, or the reason the entry
// cannot be inverted (inverse is then 0).
template <class T>
SPK_HOST_DEVICE inline std::uint64_t invert_entry(const T* values, index_t position, T& inverse) {
  inverse = T(0);
  if (position < 0) return diagonal_fault::missing_or_zero;
  const T diagonal = values[position];
  if (!is_finite(static_cast<double>(diagonal))) return diagonal_fault::not_finite;
  if (diagonal == T(0)) return diagonal_fault::missing_or_zero;
  const T reciprocal = T(1) / diagonal;
  if (!is_finite(static_cast<double>(reciprocal))) return diagonal_fault::too_small;
  inverse = reciprocal;
  return diagonal_fault::no_fault;
}

// sum_j |a_ij| / |a_ii| of row i (0 without a nonzero a_ii): one row of the Gershgorin bound
// on lambda_max(D^-1 A) (HostSpace/DeviceSpace::gershgorin_bound).
template <class T>
SPK_HOST_DEVICE inline double gershgorin_row_ratio(std::size_t i, const index_t* row_offsets,
                                                   const T* values, const index_t* positions) {
  if (positions[i] < 0) return 0.0;
  const double diagonal = values[positions[i]] < T(0) ? -static_cast<double>(values[positions[i]])
                                                      : static_cast<double>(values[positions[i]]);
  if (!(diagonal > 0.0)) return 0.0;
  double sum = 0.0;
  for (index_t k = row_offsets[i]; k < row_offsets[i + 1]; ++k)
    sum += values[k] < T(0) ? -static_cast<double>(values[k]) : static_cast<double>(values[k]);
  return sum / diagonal;
}

}  // namespace spk
