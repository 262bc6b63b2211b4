#pragma once
// MatrixFingerprint: what identifies a sparsity pattern in the tuning cache. Values are left
// out on purpose: they do not change how fast a format multiplies, and update_values keeps
// the tuned choice. The hash covers row_offsets and columns word by word; it is computed in
// fixed chunks (in parallel, combined in chunk order), so it is the same for any number of
// threads and on any machine with the same byte order.
#include <cstdint>
#include <string>

#include "spmv/host/csr_matrix.hpp"

namespace spk {

struct MatrixFingerprint {
  index_t rows = 0;
  index_t cols = 0;
  std::int64_t nnz = 0;
  std::uint64_t pattern_hash = 0;
};

MatrixFingerprint fingerprint_pattern(index_t rows, index_t cols, const index_t* row_offsets,
                                      const index_t* columns);

template <class T>
MatrixFingerprint fingerprint_of(const CsrMatrix<T>& matrix) {
  return fingerprint_pattern(matrix.rows, matrix.cols, matrix.row_offsets.data(),
                             matrix.columns.data());
}

// 16 lower-case hex digits.
std::string hex_text(std::uint64_t value);

}  // namespace spk
