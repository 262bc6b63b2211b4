#include "solver/amg/strength.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "solver/amg/sparse_product.hpp"

namespace spk {

namespace {

// |a_ii| per row (0 where the row stores no diagonal entry).
std::vector<double> absolute_diagonal(const CsrMatrix<double>& a) {
  std::vector<double> diagonal(static_cast<std::size_t>(a.rows), 0.0);
#pragma omp parallel for schedule(static)
  for (index_t row = 0; row < a.rows; ++row)
    for (index_t k = a.row_offsets[row]; k < a.row_offsets[row + 1]; ++k)
      if (a.columns[k] == row) diagonal[static_cast<std::size_t>(row)] = std::abs(a.values[k]);
  return diagonal;
}

// The directed strong connections S as a pattern (values unused).
CsrMatrix<double> strong_connections(const CsrMatrix<double>& a, double theta) {
  const std::vector<double> diagonal = absolute_diagonal(a);
  const auto strong = [&](index_t row, index_t k) {
    const index_t column = a.columns[k];
    const double value = std::abs(a.values[k]);
    // |a_ij| >= theta sqrt(|a_ii a_jj|), compared squared: a_ij^2 >= theta^2 |a_ii| |a_jj|
    return column != row && value != 0.0 &&
           value * value >= theta * theta * diagonal[static_cast<std::size_t>(row)] *
                                diagonal[static_cast<std::size_t>(column)];
  };
  CsrMatrix<double> s;
  s.rows = s.cols = a.rows;
  s.row_offsets.assign(static_cast<std::size_t>(a.rows) + 1, 0);
#pragma omp parallel for schedule(static)
  for (index_t row = 0; row < a.rows; ++row) {
    index_t count = 0;
    for (index_t k = a.row_offsets[row]; k < a.row_offsets[row + 1]; ++k)
      if (strong(row, k)) ++count;
    s.row_offsets[static_cast<std::size_t>(row) + 1] = count;
  }
  for (index_t row = 0; row < a.rows; ++row) s.row_offsets[row + 1] += s.row_offsets[row];
  s.columns.resize(static_cast<std::size_t>(s.row_offsets.back()));
  s.values.assign(s.columns.size(), 1.0);
#pragma omp parallel for schedule(static)
  for (index_t row = 0; row < a.rows; ++row) {
    index_t next = s.row_offsets[row];
    for (index_t k = a.row_offsets[row]; k < a.row_offsets[row + 1]; ++k)
      if (strong(row, k)) s.columns[static_cast<std::size_t>(next++)] = a.columns[k];
  }
  return s;
}

}  // namespace

StrengthGraph strength_graph(const CsrMatrix<double>& a, double theta) {
  const CsrMatrix<double> s = strong_connections(a, theta);
  const CsrMatrix<double> st = transpose(s, nullptr);
  // Row i of S union S^T: the sorted union of row i of S and row i of S^T.
  const auto merged = [&](index_t row, index_t* out) {
    const index_t* first = s.columns.data() + s.row_offsets[row];
    const index_t* first_end = s.columns.data() + s.row_offsets[row + 1];
    const index_t* second = st.columns.data() + st.row_offsets[row];
    const index_t* second_end = st.columns.data() + st.row_offsets[row + 1];
    index_t count = 0;
    while (first != first_end || second != second_end) {
      index_t next;
      if (second == second_end || (first != first_end && *first < *second))
        next = *first++;
      else if (first == first_end || *second < *first)
        next = *second++;
      else
        next = (++first, *second++);  // in both
      if (out != nullptr) out[count] = next;
      ++count;
    }
    return count;
  };
  StrengthGraph graph;
  graph.nodes = a.rows;
  graph.row_offsets.assign(static_cast<std::size_t>(a.rows) + 1, 0);
#pragma omp parallel for schedule(static)
  for (index_t row = 0; row < a.rows; ++row)
    graph.row_offsets[static_cast<std::size_t>(row) + 1] = merged(row, nullptr);
  for (index_t row = 0; row < a.rows; ++row) graph.row_offsets[row + 1] += graph.row_offsets[row];
  graph.neighbours.resize(static_cast<std::size_t>(graph.row_offsets.back()));
#pragma omp parallel for schedule(static)
  for (index_t row = 0; row < a.rows; ++row)
    merged(row, graph.neighbours.data() + graph.row_offsets[row]);
  return graph;
}

}  // namespace spk
