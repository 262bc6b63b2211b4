#pragma once
// split_rows_on_device: the GPU path's local/halo split (local_halo_split.hpp) of the caller's
// rows, done on the device. The caller's CSR arrays (host, global 64-bit columns) are uploaded
// once; nothing of the split exists on the host but its sizes and the halo column list, so the
// setup allocates, fills and uploads no host copy of the rows (the host split's 2.8 GB for 16M
// rows took 1.6 s on the GPU machines, most of it the kernel clearing fresh pages, and the
// local block and the pattern were uploaded apart after it).
//
//   local          rows x own_columns, column j - first_column (the local block)
//   halo           the halo block's non-empty rows (compressed_rows_operator.hpp): halo_rows[k]
//                  is the local row of halo row k; column s is halo slot s, global column
//                  halo_columns[s]
//   halo_starts    rows + 1: the halo block's offsets over every row (the whole form: the same
//                  columns and values arrays as `halo`; what split_values_on_device reads)
//   pattern        the whole rows in the caller's order, own columns as local ids and halo slot
//                  s as column own_columns + s (SplitRows::pattern); its values are the caller's
//   local_positions (asked for: block Jacobi) the pattern position of each local entry
//                  (diagonal_block_positions.hpp)
//   halo_columns   the distinct columns outside the own range, ascending (host)
//
// The arrays equal, entry for entry, split_local_and_halo's on the host and drop_empty_rows of
// its halo block (tests/gpu/test_device_split_rows.cpp). The input errors are the host split's,
// with the same words: a column out of range names its global row (the first in row order),
// decreasing offsets the first row where they decrease (local_halo_split.hpp).
//
// How, all on `stream`: the offsets, columns and values are uploaded; a thread per row finds
// the first row whose offsets decrease, then counts each row's own and halo entries and flags a
// column out of range (atomicMin of the entry); scans give the blocks' offsets and the kept
// halo rows; a second pass writes the entries, each halo entry's global column and pattern
// place; the halo columns are sorted and made unique (CUB) and each halo entry finds its slot by
// binary search. Read back: the first bad row and entry, the sizes, the halo column list.
#include <cuda_runtime.h>

#include <vector>

#include "core/device_buffer.hpp"
#include "distributed/local_halo_split.hpp"
#include "distributed/row_partition.hpp"
#include "spkrylov/distributed_info.hpp"
#include "spmv/device/device_csr.hpp"

namespace spk {

template <class T>
struct DeviceSplitRows {
  global_index_t first_row = 0;
  global_index_t first_column = 0;
  index_t rows = 0;
  index_t own_columns = 0;
  DeviceCsrMatrix<T> local;
  DeviceCsrMatrix<T> halo;  // halo_rows.size() rows x halo_columns.size() columns
  DeviceBuffer<index_t> halo_rows;
  DeviceBuffer<index_t> halo_starts;
  DeviceCsrMatrix<T> pattern;
  DeviceBuffer<index_t> local_positions;  // empty unless asked for
  std::vector<global_index_t> halo_columns;

  index_t local_entries() const { return local.nnz(); }
  index_t halo_entries() const { return halo.nnz(); }
};

// Rows [first_row, first_row + arrays.rows) (the block `partition` gives `rank`), whose
// offsets start at 0 and whose values are finite (checked by the caller, split_caller_rows's
// checks). BadInput for a column outside [0, global rows) or decreasing offsets; synchronizes
// `stream` before it returns.
template <class T>
DeviceSplitRows<T> split_rows_on_device(const DistributedCsrArrays<T>& arrays,
                                        const RowPartition& partition, int rank,
                                        bool local_positions, cudaStream_t stream);

// The host's record of a device split: SplitRows without entries (local, halo and pattern
// with their rows and cols only), the halo columns and their sources, and the entry counts.
// What DistributedMatrix (the halo plan) and the reports read.
template <class T>
SplitRows<T> split_shape(const DeviceSplitRows<T>& rows, const RowPartition& partition);

}  // namespace spk
