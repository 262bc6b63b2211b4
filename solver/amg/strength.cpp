#include "solver/amg/strength.hpp"

#include "core/host_parallel.hpp"
#include "solver/amg/sparse_product.hpp"
#include "solver/amg/strength_rules.hpp"

namespace spk {

StrengthGraph strength_graph(const CsrMatrix<double>& a, double theta) {
  std::vector<double> diagonal(static_cast<std::size_t>(a.rows));
#pragma omp parallel for schedule(static) if (a.nnz() >= host_parallel_from)
  for (index_t row = 0; row < a.rows; ++row)  // |a_ii|
    diagonal[static_cast<std::size_t>(row)] =
        absolute_diagonal(row, a.row_offsets.data(), a.columns.data(), a.values.data());
  const CsrMatrix<double> t = transpose(a, nullptr);  // row i of A^T: the a_ji
  // Row i of S union S^T, counted (out == nullptr) or written.
  const auto union_row = [&](index_t row, index_t* out) {
    return strong_union_row(row, a.row_offsets.data(), a.columns.data(), a.values.data(),
                            t.row_offsets.data(), t.columns.data(), t.values.data(),
                            diagonal.data(), theta, out);
  };
  StrengthGraph graph;
  graph.nodes = a.rows;
  graph.row_offsets.assign(static_cast<std::size_t>(a.rows) + 1, 0);
#pragma omp parallel for schedule(static) if (a.nnz() >= host_parallel_from)
  for (index_t row = 0; row < a.rows; ++row)
    graph.row_offsets[static_cast<std::size_t>(row) + 1] = union_row(row, nullptr);
  for (index_t row = 0; row < a.rows; ++row) graph.row_offsets[row + 1] += graph.row_offsets[row];
  graph.neighbours.resize(static_cast<std::size_t>(graph.row_offsets.back()));
#pragma omp parallel for schedule(static) if (a.nnz() >= host_parallel_from)
  for (index_t row = 0; row < a.rows; ++row)
    union_row(row, graph.neighbours.data() + graph.row_offsets[row]);
  return graph;
}

}  // namespace spk
