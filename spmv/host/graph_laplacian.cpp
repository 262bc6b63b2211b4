// shifted_graph_laplacian: counting sort of the edge directions by row, a sort and merge of
// each row, then the CSR with the diagonal inserted (see graph_laplacian.hpp).
#include "spmv/host/graph_laplacian.hpp"

#include <algorithm>
#include <cstdint>

namespace spk {
namespace {

// One direction of an edge: the row it is stored in is implied by its position.
struct Neighbour {
  index_t column;
  float weight;
};

bool column_then_weight(const Neighbour& a, const Neighbour& b) {
  return a.column != b.column ? a.column < b.column : a.weight < b.weight;
}

// Sorts a row's neighbours and merges repeated columns into their first slot, keeping the
// largest weight. Returns the number of distinct columns.
index_t sort_and_merge(Neighbour* begin, Neighbour* end) {
  std::sort(begin, end, column_then_weight);
  Neighbour* kept = begin;
  for (Neighbour* next = begin; next != end; ++next) {
    if (kept != begin && (kept - 1)->column == next->column)
      (kept - 1)->weight = next->weight;  // sorted by weight: the last is the largest
    else
      *kept++ = *next;
  }
  return static_cast<index_t>(kept - begin);
}

}  // namespace

CsrMatrix<double> shifted_graph_laplacian(index_t vertices, const std::vector<GraphEdge>& edges,
                                          double shift, const std::string& what) {
  const auto edge_count = static_cast<std::int64_t>(edges.size());
  check_index_range(2 * edge_count + vertices, what + ": nonzeros before merging duplicates");

  // Directions per row, then their start offsets (counting sort by row).
  std::vector<index_t> starts(static_cast<std::size_t>(vertices) + 1, 0);
#pragma omp parallel for schedule(static)
  for (std::int64_t e = 0; e < edge_count; ++e) {
    const GraphEdge& edge = edges[e];
    if (edge.first == edge.second) continue;
#pragma omp atomic
    ++starts[edge.first + 1];
#pragma omp atomic
    ++starts[edge.second + 1];
  }
  for (index_t row = 0; row < vertices; ++row) starts[row + 1] += starts[row];

  std::vector<Neighbour> neighbours(static_cast<std::size_t>(starts[vertices]));
  std::vector<index_t> cursor(starts.begin(), starts.end() - 1);
#pragma omp parallel for schedule(static)
  for (std::int64_t e = 0; e < edge_count; ++e) {
    const GraphEdge& edge = edges[e];
    if (edge.first == edge.second) continue;
    index_t first_slot, second_slot;
#pragma omp atomic capture
    first_slot = cursor[edge.first]++;
#pragma omp atomic capture
    second_slot = cursor[edge.second]++;
    neighbours[first_slot] = {edge.second, edge.weight};
    neighbours[second_slot] = {edge.first, edge.weight};
  }
  std::vector<index_t>().swap(cursor);

  // The scatter order depends on the threads; sorting by (column, weight) removes that.
  std::vector<index_t> distinct(static_cast<std::size_t>(vertices), 0);
#pragma omp parallel for schedule(dynamic, 1024)
  for (index_t row = 0; row < vertices; ++row)
    distinct[row] =
        sort_and_merge(neighbours.data() + starts[row], neighbours.data() + starts[row + 1]);

  CsrMatrix<double> matrix;
  matrix.rows = vertices;
  matrix.cols = vertices;
  matrix.row_offsets.assign(static_cast<std::size_t>(vertices) + 1, 0);
  for (index_t row = 0; row < vertices; ++row)
    matrix.row_offsets[row + 1] = matrix.row_offsets[row] + distinct[row] + 1;
  const auto nnz = static_cast<std::size_t>(matrix.row_offsets[vertices]);
  matrix.columns.resize(nnz);
  matrix.values.resize(nnz);

#pragma omp parallel for schedule(dynamic, 1024)
  for (index_t row = 0; row < vertices; ++row) {
    const Neighbour* neighbour = neighbours.data() + starts[row];
    const Neighbour* const end = neighbour + distinct[row];
    index_t position = matrix.row_offsets[row];
    index_t diagonal_position = -1;
    double weight_sum = 0.0;
    for (; neighbour != end; ++neighbour) {
      if (diagonal_position < 0 && neighbour->column > row) diagonal_position = position++;
      matrix.columns[position] = neighbour->column;
      matrix.values[position] = -static_cast<double>(neighbour->weight);
      weight_sum += static_cast<double>(neighbour->weight);
      ++position;
    }
    if (diagonal_position < 0) diagonal_position = position;
    matrix.columns[diagonal_position] = row;
    matrix.values[diagonal_position] = shift + weight_sum;
  }
  return matrix;
}

}  // namespace spk
