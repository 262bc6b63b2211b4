#pragma once
// RowPartition: which process owns which rows of a distributed square matrix. Rows are cut
// into contiguous blocks in rank order, rank p owning [offsets[p], offsets[p+1]); the columns
// (the entries of x) are cut the same way, so the owner of column j is the owner of row j.
// Empty blocks are allowed (more processes than rows, or a very heavy row).
//
// partition_rows balances the blocks by stored entries (the default: the SpMV's work and
// traffic) or by rows, from a function giving the entries before a row, so that no process
// needs the whole matrix to cut it (spmv/host/grid_stencil.hpp computes it in closed form).
// Everything here is plain arithmetic, the same on every process: no communication.
#include <cstdint>
#include <functional>
#include <vector>

#include "spkrylov/csr_arrays.hpp"
#include "spkrylov/distributed_info.hpp"

namespace spk {

enum class RowBalance {
  nonzeros,  // about nnz / P stored entries per block (rows are never split)
  rows,      // rows / P rows per block, the first rows % P blocks one more
};

const char* to_string(RowBalance balance);
// distributed.transport (<spkrylov/distributed_info.hpp>): "auto" | "nccl" | "mpi"
const char* to_string(Transport transport);

struct RowPartition {
  std::vector<global_index_t> offsets{0};  // processes + 1 entries, offsets[0] = 0

  int processes() const { return static_cast<int>(offsets.size()) - 1; }
  global_index_t global_rows() const { return offsets.back(); }
  global_index_t first_row(int rank) const { return offsets[static_cast<std::size_t>(rank)]; }
  global_index_t end_row(int rank) const { return offsets[static_cast<std::size_t>(rank) + 1]; }
  global_index_t rows(int rank) const { return end_row(rank) - first_row(rank); }
  // The process owning row (and column) `row`, 0 <= row < global_rows(): the last block
  // starting at or before it that is not empty.
  int owner(global_index_t row) const;
};

// Stored entries in the rows before `row`, for 0 <= row <= global_rows (non-decreasing).
using EntriesBefore = std::function<global_index_t(global_index_t row)>;

// The blocks of `global_rows` rows for `processes` processes. With RowBalance::nonzeros,
// block p ends at the first row r with entries_before(r) >= p * nnz / P (a binary search:
// O(P log rows) calls of entries_before).
RowPartition partition_rows(global_index_t global_rows, int processes, RowBalance balance,
                            const EntriesBefore& entries_before);

// The partition whose block p has rows_per_process[p] rows (the rows each process brings).
RowPartition partition_from_counts(const std::vector<global_index_t>& rows_per_process);

// Agglomeration (a distributed AMG's small coarse level onto fewer processes): when the
// processes holding rows have fewer than `rows_per_process` rows each on average, the
// partition with the same global numbering whose rows sit on ceil(global rows /
// rows_per_process) of them: consecutive ranks grouped by equal shares of the rows, each group's
// rows on its first rank that holds any, the others left empty. Otherwise (or with
// rows_per_process <= 0, or one process holding rows) `partition` itself.
RowPartition agglomerated_partition(const RowPartition& partition, global_index_t rows_per_process);

}  // namespace spk
