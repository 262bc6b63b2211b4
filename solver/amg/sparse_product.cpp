#include "solver/amg/sparse_product.hpp"

#include <algorithm>
#include <cstdint>

#include "core/host_parallel.hpp"

namespace spk {

namespace {

// Per thread: marker[column] = where `column` sits in the row being built, -1 elsewhere.
struct RowWorkspace {
  std::vector<index_t> marker;
  std::vector<index_t> columns;
};

// The sorted, unique columns of row `row` of A B into work.columns.
void product_row_columns(const CsrMatrix<double>& a, const CsrMatrix<double>& b, index_t row,
                         RowWorkspace& work) {
  work.columns.clear();
  for (index_t k = a.row_offsets[row]; k < a.row_offsets[row + 1]; ++k) {
    const index_t middle = a.columns[k];
    for (index_t l = b.row_offsets[middle]; l < b.row_offsets[middle + 1]; ++l) {
      const index_t column = b.columns[l];
      if (work.marker[static_cast<std::size_t>(column)] < 0) {
        work.marker[static_cast<std::size_t>(column)] = 0;
        work.columns.push_back(column);
      }
    }
  }
  for (const index_t column : work.columns) work.marker[static_cast<std::size_t>(column)] = -1;
  std::sort(work.columns.begin(), work.columns.end());
}

}  // namespace

CsrMatrix<double> product_pattern(const CsrMatrix<double>& a, const CsrMatrix<double>& b) {
  if (a.cols != b.rows)
    throw BadInput("sparse product: inner dimensions differ (" + std::to_string(a.cols) + " and " +
                   std::to_string(b.rows) + ")");
  CsrMatrix<double> c;
  c.rows = a.rows;
  c.cols = b.cols;
  std::vector<std::int64_t> counts(static_cast<std::size_t>(a.rows) + 1, 0);
#pragma omp parallel if (a.nnz() >= host_parallel_from)
  {
    RowWorkspace work{std::vector<index_t>(static_cast<std::size_t>(b.cols), -1), {}};
#pragma omp for schedule(static)
    for (index_t row = 0; row < a.rows; ++row) {
      product_row_columns(a, b, row, work);
      counts[static_cast<std::size_t>(row) + 1] = static_cast<std::int64_t>(work.columns.size());
    }
  }
  for (std::size_t row = 1; row < counts.size(); ++row) counts[row] += counts[row - 1];
  check_index_range(counts.back(), "nonzeros of a sparse product in the AMG setup");
  c.row_offsets.resize(counts.size());
  for (std::size_t row = 0; row < counts.size(); ++row)
    c.row_offsets[row] = static_cast<index_t>(counts[row]);
  c.columns.resize(static_cast<std::size_t>(counts.back()));
  c.values.assign(c.columns.size(), 0.0);
#pragma omp parallel if (a.nnz() >= host_parallel_from)
  {
    RowWorkspace work{std::vector<index_t>(static_cast<std::size_t>(b.cols), -1), {}};
#pragma omp for schedule(static)
    for (index_t row = 0; row < a.rows; ++row) {
      product_row_columns(a, b, row, work);
      std::copy(work.columns.begin(), work.columns.end(), c.columns.begin() + c.row_offsets[row]);
    }
  }
  return c;
}

void product_values(const CsrMatrix<double>& a, const CsrMatrix<double>& b, CsrMatrix<double>& c) {
#pragma omp parallel if (a.nnz() >= host_parallel_from)
  {
    std::vector<index_t> position(static_cast<std::size_t>(b.cols), -1);
#pragma omp for schedule(static)
    for (index_t row = 0; row < a.rows; ++row) {
      for (index_t k = c.row_offsets[row]; k < c.row_offsets[row + 1]; ++k) {
        position[static_cast<std::size_t>(c.columns[k])] = k;
        c.values[k] = 0.0;
      }
      // c_ij = sum_k a_ik b_kj, k in A's column order, then j in B's
      for (index_t k = a.row_offsets[row]; k < a.row_offsets[row + 1]; ++k) {
        const index_t middle = a.columns[k];
        const double a_value = a.values[k];
        for (index_t l = b.row_offsets[middle]; l < b.row_offsets[middle + 1]; ++l)
          c.values[position[static_cast<std::size_t>(b.columns[l])]] += a_value * b.values[l];
      }
      for (index_t k = c.row_offsets[row]; k < c.row_offsets[row + 1]; ++k)
        position[static_cast<std::size_t>(c.columns[k])] = -1;
    }
  }
}

CsrMatrix<double> transpose(const CsrMatrix<double>& a, std::vector<index_t>* source) {
  CsrMatrix<double> t;
  t.rows = a.cols;
  t.cols = a.rows;
  t.row_offsets.assign(static_cast<std::size_t>(a.cols) + 1, 0);
  for (const index_t column : a.columns) ++t.row_offsets[static_cast<std::size_t>(column) + 1];
  for (index_t row = 0; row < t.rows; ++row) t.row_offsets[row + 1] += t.row_offsets[row];
  t.columns.resize(a.columns.size());
  t.values.resize(a.columns.size());
  std::vector<index_t> origin(a.columns.size());
  std::vector<index_t> next(t.row_offsets.begin(), t.row_offsets.end() - 1);
  // Rows of A in order: each row of A^T receives its entries with increasing column.
  for (index_t row = 0; row < a.rows; ++row)
    for (index_t k = a.row_offsets[row]; k < a.row_offsets[row + 1]; ++k) {
      const index_t slot = next[static_cast<std::size_t>(a.columns[k])]++;
      t.columns[slot] = row;
      t.values[slot] = a.values[k];
      origin[slot] = k;
    }
  if (source != nullptr) *source = std::move(origin);
  return t;
}

void transpose_values(const CsrMatrix<double>& a, const std::vector<index_t>& source,
                      CsrMatrix<double>& t) {
  const auto entries = static_cast<std::int64_t>(source.size());
#pragma omp parallel for schedule(static) if (entries >= host_parallel_from)
  for (std::int64_t k = 0; k < entries; ++k)
    t.values[static_cast<std::size_t>(k)] = a.values[source[static_cast<std::size_t>(k)]];
}

}  // namespace spk
