#pragma once
// SparsityPattern: the row offsets and column indices a backend was built from, kept on the
// host so update_values can refuse a matrix whose pattern differs (the device layout would
// silently put the new values in the wrong slots).
#include <string>
#include <vector>

#include "spkrylov/errors.hpp"
#include "spmv/host/csr_matrix.hpp"

namespace spk {

class SparsityPattern {
 public:
  SparsityPattern() = default;
  template <class T>
  explicit SparsityPattern(const CsrMatrix<T>& matrix)
      : rows_(matrix.rows),
        cols_(matrix.cols),
        row_offsets_(matrix.row_offsets),
        columns_(matrix.columns) {}

  // Throws BadInput "<format>: update_values: ..." naming the first difference.
  template <class T>
  void check_same(const CsrMatrix<T>& matrix, const std::string& format) const {
    const std::string prefix = format + ": update_values: ";
    if (matrix.rows != rows_ || matrix.cols != cols_)
      throw BadInput(prefix + "matrix is " + std::to_string(matrix.rows) + "x" +
                     std::to_string(matrix.cols) + ", the backend was built for " +
                     std::to_string(rows_) + "x" + std::to_string(cols_));
    if (matrix.columns.size() != columns_.size() || matrix.values.size() != columns_.size())
      throw BadInput(prefix + "matrix has " + std::to_string(matrix.values.size()) +
                     " nonzeros, the backend was built with " + std::to_string(columns_.size()) +
                     " (a new sparsity pattern needs a new backend)");
    for (index_t row = 0; row < rows_; ++row) {
      bool same = matrix.row_offsets[row + 1] == row_offsets_[row + 1];
      for (index_t entry = row_offsets_[row]; same && entry < row_offsets_[row + 1]; ++entry)
        same = matrix.columns[entry] == columns_[entry];
      if (!same)
        throw BadInput(prefix + "row " + std::to_string(row + 1) +
                       " has a different sparsity pattern (a new pattern needs a new backend)");
    }
  }

  index_t rows() const { return rows_; }
  index_t cols() const { return cols_; }

 private:
  index_t rows_ = 0;
  index_t cols_ = 0;
  std::vector<index_t> row_offsets_{0};
  std::vector<index_t> columns_;
};

}  // namespace spk
