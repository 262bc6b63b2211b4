#pragma once
// Row I of the nodal matrix of a system with block_size b dofs per node
// (solver/amg/near_nullspace.hpp, nodal_matrix): entry (I, J) = the Frobenius norm of A's block
// coupling node I's dofs b I .. b I + b - 1 with node J's, present when any entry of the block
// is. Written once for the host's loop and the device's kernels
// (solver/amg/device_nodal_aggregation.hpp): the b rows of node I have sorted columns, so the
// row is a b-way merge of their column / b; each norm adds the squares row by row, each row's in
// column order, with the rounding of prolongator_rules.hpp, so both paths give the same matrix.
#include <cmath>

#include "solver/amg/prolongator_rules.hpp"

namespace spk::nodal_rules {

constexpr int max_block_size = 16;  // a coarse level's is k, up to 16

// Walks row `node` of the nodal matrix: emit(J, ||block (node, J)||_F) for each J, increasing.
template <class Emit>
SPK_HOST_DEVICE inline void for_each_nodal_entry(index_t node, int block_size,
                                                 const index_t* row_offsets, const index_t* columns,
                                                 const double* values, const Emit& emit) {
  index_t next[max_block_size], end[max_block_size];
  for (int d = 0; d < block_size; ++d) {
    next[d] = row_offsets[node * block_size + d];
    end[d] = row_offsets[node * block_size + d + 1];
  }
  for (;;) {
    index_t other = -1;  // the smallest column / b not yet walked
    for (int d = 0; d < block_size; ++d)
      if (next[d] < end[d] && (other < 0 || columns[next[d]] / block_size < other))
        other = columns[next[d]] / block_size;
    if (other < 0) return;
    double squares = 0.0;
    for (int d = 0; d < block_size; ++d)
      for (; next[d] < end[d] && columns[next[d]] / block_size == other; ++next[d])
        squares = add_square(squares, values != nullptr ? values[next[d]] : 0.0);
    emit(other, sqrt(squares));
  }
}

}  // namespace spk::nodal_rules
