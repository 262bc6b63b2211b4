#pragma once
// One process's rows of a distributed matrix, split as PETSc (MPIAIJ: diagonal and
// off-diagonal blocks) and Ginkgo (local and non-local matrices) do:
//
//   local    rows x rows: the entries whose column this process owns, column j - first_row
//   halo     rows x H: the other entries, their columns compressed to the H distinct ones
//            (the "halo"), slot k standing for global column halo_columns[k]
//
// so that y = A x is y = local x_own + halo x_halo, with x_halo the H entries of x that other
// processes own. halo_columns is ascending, hence grouped by owner in rank order: the entries
// from one process land in consecutive slots (`sources`). `pattern` keeps every entry in the
// caller's order with own columns first and halo slot k as column rows + k: the preconditioners
// read the whole rows from it (Jacobi finds a_ii at column i, Gershgorin sums the full row).
// A rectangular matrix (AMG's P and R) has its columns cut by a partition of their own: the
// local block is then rows x (own columns), column j - first_column, and halo slot k is
// pattern column (own columns) + k. Nothing here communicates.
#include <vector>

#include "distributed/row_partition.hpp"
#include "spmv/host/csr_matrix.hpp"
#include "spmv/host/row_block.hpp"

namespace spk {

// Halo slots [first_slot, first_slot + count) hold entries of x owned by process `rank`.
struct HaloSource {
  int rank = 0;
  index_t first_slot = 0;
  index_t count = 0;
};

template <class T>
struct SplitRows {
  global_index_t first_row = 0;
  global_index_t first_column = 0;  // the first column this process owns (= first_row if square)
  CsrMatrix<T> local;
  CsrMatrix<T> halo;
  CsrMatrix<T> pattern;
  std::vector<global_index_t> halo_columns;
  std::vector<HaloSource> sources;
  // The blocks' entries. The host split's arrays hold them; the GPU path splits on the device
  // (device_split_rows.hpp) and keeps here only the sizes: local, halo and pattern with rows
  // and cols but no entries. Code that serves both paths reads the counts from these.
  index_t local_entries = 0;
  index_t halo_entries = 0;
  index_t entries() const { return local_entries + halo_entries; }
};

// Splits this process's rows (`rows`, the block [partition.first_row(rank), end_row(rank)))
// into the local and halo parts. BadInput when a column is outside [0, global rows) (naming
// the global row), the offsets decrease, or the block is not the partition's. Parallel over
// the rows (OpenMP), in a few passes that write each output entry once.
template <class T>
SplitRows<T> split_local_and_halo(const RowBlock<T>& rows, const RowPartition& partition, int rank);
// A rectangular matrix: the rows by `row_partition`, the columns by `column_partition` (the
// local block holds this process's columns of it, column j - column_partition.first_row(rank);
// halo slots are owned by column_partition's processes; pattern column own_columns + slot).
template <class T>
SplitRows<T> split_local_and_halo(const RowBlock<T>& rows, const RowPartition& row_partition,
                                  const RowPartition& column_partition, int rank);
// The same from the caller's arrays of the rows [first_row, first_row + arrays.rows), read in
// place: nothing is copied before the split (DistributedSolver's setup).
template <class T>
SplitRows<T> split_local_and_halo(const DistributedCsrArrays<T>& arrays, global_index_t first_row,
                                  const RowPartition& partition, int rank);

// The split's input errors, in the words both splits use (the host's here, the device's in
// device_split_rows.cu): entry k (0-based within the rows' entries, column `column`) is outside
// [0, global_columns), its row found in row_offsets[0..rows_scanned]; the offsets decrease (or
// pass nnz) at local row `row`.
[[noreturn]] void throw_bad_column(global_index_t first_row, const index_t* row_offsets,
                                   index_t rows_scanned, index_t k, global_index_t column,
                                   global_index_t global_columns);
[[noreturn]] void throw_decreasing_offsets(global_index_t first_row, index_t row);

// Consecutive halo slots with the same owner in `columns` (ascending halo_columns: one source
// per owner, in rank order): SplitRows::sources.
std::vector<HaloSource> halo_sources(const std::vector<global_index_t>& halo_columns,
                                     const RowPartition& columns);

// New values for the same pattern (nnz values in the caller's order) into pattern, local and
// halo.
template <class T>
void scatter_values(SplitRows<T>& split, const T* values);

}  // namespace spk
