#pragma once
// The CSR byte model of one SpMV (csr_bytes_per_spmv), used by every CSR-family backend
// (csr-scalar, csr-vector, csr-merge, aligned-csr, cusparse):
//   stored_entries * (sizeof(Value) + sizeof(index_t))   values and column indices, read once
//   + (rows + 1) * sizeof(index_t)                        row offsets (or padded row starts)
//   + cols * sizeof(T)                                    x, read once
//   + rows * sizeof(T)                                    y, written once
// (Value, the stored values' type; T, the vectors'.)
// aligned-csr passes its padded entry count as stored_entries.
#include <cstddef>

#include "spkrylov/csr_arrays.hpp"

namespace spk {

std::size_t csr_bytes_per_spmv(index_t rows, index_t cols, std::size_t stored_entries,
                               std::size_t value_bytes, std::size_t vector_bytes);

}  // namespace spk
