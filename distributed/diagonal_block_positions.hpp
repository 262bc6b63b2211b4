#pragma once
// Where each entry of a process's diagonal block (SplitRows::local, local_halo_split.hpp) sits
// in its whole rows' values (SplitRows::pattern order, the order update_values receives them
// in): the local entries are the pattern's own-column entries, in pattern order, so position k
// is the k-th pattern entry whose column is below the own-column count. Block Jacobi gathers
// its block's new values with them (solver/block_jacobi.hpp); diagonal_block.hpp uses them.
#include <vector>

#include "distributed/local_halo_split.hpp"

namespace spk {

template <class T>
std::vector<index_t> diagonal_block_positions(const SplitRows<T>& split) {
  const index_t own_columns = split.local.cols;
  std::vector<index_t> positions;
  positions.reserve(split.local.columns.size());
  const auto entries = static_cast<index_t>(split.pattern.columns.size());
  for (index_t k = 0; k < entries; ++k)
    if (split.pattern.columns[k] < own_columns) positions.push_back(k);
  return positions;
}

}  // namespace spk
