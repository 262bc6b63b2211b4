#pragma once
// Coordinate (COO) entries in any order, possibly with duplicates, and their assembly into
// a CsrMatrix with sorted, unique columns per row. The Matrix Market reader fills a
// CooEntries while scanning and assembles it once at the end.
#include <cstdint>
#include <vector>

#include "spmv/host/csr_matrix.hpp"

namespace spk {

struct CooEntries {
  index_t rows = 0;
  index_t cols = 0;
  std::vector<index_t> row_indices;  // 0-based
  std::vector<index_t> column_indices;
  std::vector<double> values;

  void reserve(std::size_t count) {
    row_indices.reserve(count);
    column_indices.reserve(count);
    values.reserve(count);
  }
  void add(index_t row, index_t column, double value) {
    row_indices.push_back(row);
    column_indices.push_back(column);
    values.push_back(value);
  }
  std::size_t size() const { return values.size(); }
};

// How stored entries stand for the other triangle.
//   none            every entry is stored explicitly
//   symmetric       each off-diagonal (i,j,v) also stands for (j,i,v)
//   skew_symmetric  each off-diagonal (i,j,v) also stands for (j,i,-v)
enum class Mirror { none, symmetric, skew_symmetric };

// Number of entries after mirroring (before duplicates are merged), in 64 bits.
std::int64_t expanded_entry_count(const CooEntries& entries, Mirror mirror);

// Builds the CSR matrix: entries are bucketed by row, stably sorted by column within each
// row, and duplicates are summed in input order. Explicitly stored zeros are kept.
// Throws BadInput when the expanded entry count exceeds the 32-bit index range.
CsrMatrix<double> coo_to_csr(const CooEntries& entries, Mirror mirror);

}  // namespace spk
