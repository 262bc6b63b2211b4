#pragma once
// The boundary rows of the GPU path's distributed AMG setup moved from GPU to GPU, never
// through the host (the device forms of row_exchange.hpp's two exchanges): the ghost rows of T
// and P that A's halo columns name (device_distributed_prolongator.hpp,
// device_distributed_coarse_product.hpp), as PETSc's MatPtAP for MPIAIJ fetches the rows of P
// that A's off-process columns name, and the rows of U a process computed for other processes'
// aggregates, sent to their owners.
//
//   fetch_rows_on_device   the rows `wanted` (global ids) of a device level, from their owners:
//                          each process tells each owner which of its rows it wants (counts by
//                          MPI_Alltoall, the local row numbers over the device transport), the
//                          owners gather those rows' lengths (sent back first) and then their
//                          entries with global column ids (a thread per row), and both cross
//                          over device_alltoallv (NCCL between the GPUs, or host-staged MPI).
//                          The rows arrive in the order asked for.
//   distinct_outside_on_device   the distinct global columns of such rows outside the own
//                          range, with more given on the host, ascending (a sort and unique on
//                          the device; the result, a halo, to the host)
//   whole_rows_on_device   such rows in the whole form (whole_rows.hpp): local columns, own
//                          ones first, then the halo slots, each row sorted (a segmented sort)
//   send_rows_to_owners_on_device   consecutive rows of a product sent to the processes that
//                          own them (row counts by MPI_Alltoall; the owners' row numbers and
//                          lengths, then the entries with global columns, over
//                          device_alltoallv): each owner receives the pieces of its rows, not
//                          yet summed (DeviceRowMerge adds them to its own part)
//
// They replace fetch_device_rows (device_distributed_level.hpp: the same rows through host MPI,
// the owners downloading them) and the host's whole_rows where the rows are not needed on the
// host; the answers are the same arrays.
#include <cuda_runtime.h>

#include <vector>

#include "core/device_buffer.hpp"
#include "distributed/amg/device_distributed_level.hpp"

namespace spk {

class FaultWatch;
class NcclCommunicator;

// Rows on the device with global column ids: row r holds entries [row_offsets[r],
// row_offsets[r + 1]).
struct DeviceGlobalRows {
  index_t rows = 0;
  DeviceBuffer<index_t> row_offsets;  // rows + 1
  DeviceBuffer<global_index_t> columns;
  DeviceBuffer<double> values;
};

// Rows `wanted` (global ids in [0, level.global_rows()), any order, repeats and own rows
// allowed) of `level`, in the order given. nccl: the communicator the setup's NCCL calls use
// (on `stream`), or null for host-staged MPI. Collective; BadInput on every process for an id
// out of range or a count past 2^31 - 1.
DeviceGlobalRows fetch_rows_on_device(FaultWatch& watch, const NcclCommunicator* nccl,
                                      const DeviceDistributedLevel& level,
                                      const std::vector<global_index_t>& wanted,
                                      cudaStream_t stream);

// Pieces of this process's rows computed by other processes (send_rows_to_owners_on_device):
// piece k is part of local row rows[k], entries [row_offsets[k], row_offsets[k + 1]) with
// global columns (sorted, distinct within a piece); pieces in (source rank, order sent), so a
// row's pieces from several processes come in rank order.
struct DeviceRowPieces {
  index_t pieces = 0;
  DeviceBuffer<index_t> rows;
  DeviceBuffer<index_t> row_offsets;  // pieces + 1
  DeviceBuffer<global_index_t> columns;
  DeviceBuffer<double> values;
};

// Rows [first, product.rows) of `product`, row first + r being global row ids[r] (ascending)
// of the matrix whose rows `owners` splits, sent to their owners; their columns global: c <
// own_columns is first_column + c, c >= own_columns is column_ids[c - own_columns]. Returns
// the pieces this process receives. nccl: as fetch_rows_on_device. Collective; Error (internal,
// on every process) when ids do not match the rows or do not ascend; BadInput for a count past
// 2^31 - 1.
DeviceRowPieces send_rows_to_owners_on_device(FaultWatch& watch, const NcclCommunicator* nccl,
                                              const DeviceCsrMatrix<double>& product, index_t first,
                                              const std::vector<global_index_t>& ids,
                                              const RowPartition& owners,
                                              global_index_t first_column, index_t own_columns,
                                              const std::vector<global_index_t>& column_ids,
                                              cudaStream_t stream);

// The distinct columns of `columns` (rows' or pieces' entries) and of `more` (ascending)
// outside [own_begin, own_end), ascending (distinct_outside of column_set.hpp). Local.
std::vector<global_index_t> distinct_outside_on_device(const DeviceBuffer<global_index_t>& columns,
                                                       global_index_t own_begin,
                                                       global_index_t own_end,
                                                       const std::vector<global_index_t>& more,
                                                       cudaStream_t stream);

// Each of `columns` in the whole form's numbering for the own columns [first_column,
// first_column + own_columns) and the halo `halo_columns` (ascending; it must hold every
// column outside the own range: Error, internal, when one is missing). Local.
DeviceBuffer<index_t> whole_form_columns_on_device(const DeviceBuffer<global_index_t>& columns,
                                                   global_index_t first_column, index_t own_columns,
                                                   const std::vector<global_index_t>& halo_columns,
                                                   cudaStream_t stream);

// `rows` in the whole form for the own columns [first_column, first_column + own_columns) and
// the halo `halo_columns` (ascending; it must hold every column of `rows` outside the own
// range): own_columns + halo size columns, each row sorted. Local. Error (internal) for a column
// in neither; BadInput when a row repeats a column.
DeviceCsrMatrix<double> whole_rows_on_device(const DeviceGlobalRows& rows,
                                             global_index_t first_column, index_t own_columns,
                                             const std::vector<global_index_t>& halo_columns,
                                             cudaStream_t stream);

}  // namespace spk
