#pragma once
/// @file
/// spk::CsrArrays<T>: the matrix a caller hands to spk::Solver, as three arrays it owns.
///
/// @code
///   // [[4, -1], [-1, 4]]
///   std::vector<int> offsets{0, 2, 4}, columns{0, 1, 0, 1};
///   std::vector<double> values{4.0, -1.0, -1.0, 4.0};
///   spk::CsrArrays<double> a{2, 2, offsets.data(), columns.data(), values.data()};
/// @endcode
#include <cstdint>

namespace spk {

/// Row and column indices within one process: 32-bit, as cuSPARSE's fastest paths use.
using index_t = std::int32_t;
/// Indices of a matrix split across processes (rows of all ranks together): 64-bit.
using global_index_t = std::int64_t;

/// A CSR matrix the caller owns (0-based; rows + 1 row offsets starting at 0, nnz column
/// indices sorted or not, nnz values): host pointers, or device pointers with `on_device`.
/// The Solver copies what it needs at construction; the arrays may be freed afterwards. On
/// the GPU, device arrays are checked and turned into the chosen format on the device (read
/// on the solver's stream); they must be memory the GPU can read.
template <class T>
struct CsrArrays {
  index_t rows = 0;
  index_t cols = 0;
  const index_t* row_offsets = nullptr;
  const index_t* columns = nullptr;
  const T* values = nullptr;
  bool on_device = false;
};

}  // namespace spk
