#pragma once
// DeviceDistributedLevel: one matrix of the GPU path's distributed AMG hierarchy (A_l, P_l,
// R_l, A_c^-1) as this process holds it, on the device: its rows of a global_rows x
// global_cols matrix in the whole form (whole_rows.hpp: own columns first, then the halo
// slots, each row sorted), with the halo's global column ids on the host. It is the device
// counterpart of DistributedLevel (distributed_level.hpp), which holds the same rows on the
// host twice (global columns, and split).
//
// Rows follow row_partition, columns column_partition (the same one for A_l; P_l's columns are
// the coarse level's rows, R_l's the fine level's). The level owns its arrays (`owned`), or
// shows those of the piece that computes them in place (`computed`: the smoothed
// prolongator's P, whose values each re-setup rewrites). The global nonzero count is summed
// once, when the level is made, so that every decision taken from it is the same everywhere.
#include <utility>
#include <vector>

#include "distributed/amg/row_exchange.hpp"
#include "distributed/row_partition.hpp"
#include "spmv/device/device_csr.hpp"

namespace spk {

class FaultWatch;

struct DeviceDistributedLevel {
  RowPartition row_partition, column_partition;
  index_t rows = 0;  // this process's rows
  index_t cols = 0;  // the columns it owns (the local block's)
  global_index_t first_row = 0, first_column = 0;
  std::vector<global_index_t> halo_columns;  // global id of halo slot k (column cols + k)
  global_index_t global_nnz = 0;
  DeviceCsrMatrix<double> owned;
  const DeviceCsrMatrix<double>* computed = nullptr;

  const DeviceCsrMatrix<double>& whole() const { return computed ? *computed : owned; }
  global_index_t global_rows() const { return row_partition.global_rows(); }
  global_index_t global_cols() const { return column_partition.global_rows(); }
};

// The level of `whole` (this process's rows by `rows`, in the whole form for `columns` with
// `halo_columns`): owned, or (`computed` not null) shown. Collective (the global nonzero
// count). BadInput (on every process) when the shapes disagree.
DeviceDistributedLevel make_device_level(FaultWatch& watch, RowPartition rows, RowPartition columns,
                                         std::vector<global_index_t> halo_columns,
                                         DeviceCsrMatrix<double> whole,
                                         const DeviceCsrMatrix<double>* computed = nullptr);

// Rows `rows` (global ids, in the order given) of `level`, fetched from their owners with
// global column ids (collective): each owner downloads only the rows it is asked for
// (download_rows). The ghost rows of T and P that A's halo columns name.
FetchedRows<double> fetch_device_rows(FaultWatch& watch, const DeviceDistributedLevel& level,
                                      const std::vector<global_index_t>& rows, cudaStream_t stream);

}  // namespace spk
