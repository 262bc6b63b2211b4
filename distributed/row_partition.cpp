#include "distributed/row_partition.hpp"

#include <algorithm>

namespace spk {

const char* to_string(RowBalance balance) {
  return balance == RowBalance::rows ? "rows" : "nnz";
}

const char* to_string(Transport transport) {
  switch (transport) {
    case Transport::nccl: return "nccl";
    case Transport::mpi: return "mpi";
    case Transport::automatic: break;
  }
  return "auto";
}

int RowPartition::owner(global_index_t row) const {
  // upper_bound finds the first block starting after `row`; the block before it holds the row
  // (equal offsets mark empty blocks, which upper_bound steps over).
  const auto next = std::upper_bound(offsets.begin(), offsets.end(), row);
  return static_cast<int>(next - offsets.begin()) - 1;
}

RowPartition partition_rows(global_index_t global_rows, int processes, RowBalance balance,
                            const EntriesBefore& entries_before) {
  RowPartition partition;
  partition.offsets.assign(static_cast<std::size_t>(processes) + 1, 0);
  partition.offsets.back() = global_rows;
  const global_index_t entries = entries_before(global_rows);
  const global_index_t count = processes;
  for (global_index_t p = 1; p < count; ++p) {
    if (balance == RowBalance::rows) {
      // p (rows / P) + min(p, rows % P): blocks differ by at most one row
      partition.offsets[p] = p * (global_rows / count) + std::min(p, global_rows % count);
      continue;
    }
    // target = p nnz / P without overflowing p nnz
    const global_index_t target = p * (entries / count) + p * (entries % count) / count;
    global_index_t low = partition.offsets[p - 1], high = global_rows;
    while (low < high) {  // the first row r with entries_before(r) >= target
      const global_index_t middle = low + (high - low) / 2;
      if (entries_before(middle) >= target)
        high = middle;
      else
        low = middle + 1;
    }
    partition.offsets[p] = low;
  }
  return partition;
}

RowPartition partition_from_counts(const std::vector<global_index_t>& rows_per_process) {
  RowPartition partition;
  partition.offsets.assign(rows_per_process.size() + 1, 0);
  for (std::size_t p = 0; p < rows_per_process.size(); ++p)
    partition.offsets[p + 1] = partition.offsets[p] + rows_per_process[p];
  return partition;
}

RowPartition agglomerated_partition(const RowPartition& partition,
                                    global_index_t rows_per_process) {
  const int processes = partition.processes();
  const global_index_t total = partition.global_rows();
  int holding = 0;
  for (int p = 0; p < processes; ++p) holding += partition.rows(p) > 0 ? 1 : 0;
  if (rows_per_process <= 0 || holding <= 1 || total >= holding * rows_per_process)
    return partition;
  const global_index_t groups =
      std::max<global_index_t>(1, (total + rows_per_process - 1) / rows_per_process);
  if (groups >= holding) return partition;
  // rank p (holding rows) joins group floor(rows before it * groups / total); a group's first
  // such rank takes its rows
  std::vector<global_index_t> counts(static_cast<std::size_t>(processes), 0);
  int owner = -1;
  global_index_t owner_group = -1;
  for (int p = 0; p < processes; ++p) {
    if (partition.rows(p) == 0) continue;
    const global_index_t group = partition.first_row(p) * groups / total;
    if (group != owner_group) {
      owner = p;
      owner_group = group;
    }
    counts[static_cast<std::size_t>(owner)] += partition.rows(p);
  }
  return partition_from_counts(counts);
}

}  // namespace spk
