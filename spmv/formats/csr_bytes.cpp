#include "spmv/formats/csr_bytes.hpp"

namespace spk {

std::size_t csr_bytes_per_spmv(index_t rows, index_t cols, std::size_t stored_entries,
                               std::size_t value_bytes, std::size_t vector_bytes) {
  const auto row_count = static_cast<std::size_t>(rows);
  const auto col_count = static_cast<std::size_t>(cols);
  return stored_entries * (value_bytes + sizeof(index_t)) + (row_count + 1) * sizeof(index_t) +
         col_count * vector_bytes + row_count * vector_bytes;
}

}  // namespace spk
