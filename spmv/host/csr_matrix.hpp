#pragma once
/// @file
/// spk::CsrMatrix<T>: the host-side compressed sparse row matrix every format is converted
/// from (an owning alternative to spk::CsrArrays for building a Solver).
///
/// @code
///   spk::CsrMatrix<double> a;                       // [[4, -1], [-1, 4]]
///   a.rows = a.cols = 2;
///   a.row_offsets = {0, 2, 4};
///   a.columns = {0, 1, 0, 1};
///   a.values = {4.0, -1.0, -1.0, 4.0};
/// @endcode
///
//
//   row_offsets  rows+1 entries; row i holds entries [row_offsets[i], row_offsets[i+1])
//   columns      nnz column indices, 0-based, sorted and unique within each row
//   values       nnz values
//
// Indices are 32-bit. Builders check that nnz and every derived size fit (see
// check_index_range) and refuse with a clear error before allocating anything larger.
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "spkrylov/csr_arrays.hpp"
#include "spkrylov/errors.hpp"

namespace spk {

constexpr std::int64_t max_index = std::numeric_limits<index_t>::max();

template <class T>
struct CsrMatrix {
  index_t rows = 0;
  index_t cols = 0;
  std::vector<index_t> row_offsets{0};
  std::vector<index_t> columns;
  std::vector<T> values;

  index_t nnz() const { return static_cast<index_t>(columns.size()); }
  index_t row_length(index_t row) const { return row_offsets[row + 1] - row_offsets[row]; }
  bool square() const { return rows == cols; }
};

// Throws spk::BadInput when `count` (a size named `what`) does not fit a 32-bit index.
inline void check_index_range(std::int64_t count, const std::string& what) {
  if (count < 0 || count > max_index)
    throw BadInput(what + " = " + std::to_string(count) +
                   " exceeds the 32-bit index limit 2147483647");
}

// Same pattern, values cast to another precision (double -> float for precision: single).
template <class To, class From>
CsrMatrix<To> convert_values(const CsrMatrix<From>& matrix) {
  CsrMatrix<To> result;
  result.rows = matrix.rows;
  result.cols = matrix.cols;
  result.row_offsets = matrix.row_offsets;
  result.columns = matrix.columns;
  result.values.assign(matrix.values.begin(), matrix.values.end());
  return result;
}

// A non-owning view of `matrix` (host arrays), e.g. to construct a Solver.
template <class T>
CsrArrays<T> arrays_of(const CsrMatrix<T>& matrix) {
  return {matrix.rows,           matrix.cols,          matrix.row_offsets.data(),
          matrix.columns.data(), matrix.values.data(), false};
}

}  // namespace spk
