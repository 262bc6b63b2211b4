#pragma once
// DeviceRowMerge: this process's rows of a distributed product, summed from the part it
// computed itself and the pieces other processes computed for them: the last step of the GPU
// path's distributed transpose R = P^T and Galerkin product P^T (A P) (PETSc's MatPtAP for
// MPIAIJ adds the received off-process rows to the owner's; device_distributed_coarse_product.hpp).
//
//   own        rows on the device (a prefix of a product's rows), columns in a source
//              numbering: c < own_columns is own column c, c = own_columns + s is the global
//              column source_ids[s] (ascending)
//   received   this process's rows from send_rows_to_owners (host, global columns sorted, each
//              row the sum of the other processes' pieces; most rows empty), or the pieces
//              themselves from send_rows_to_owners_on_device (device, not yet summed: they are
//              renumbered, sorted by (row, column) with a stable radix sort, which keeps each
//              entry's pieces in the order received, and added by a reduce-by-key, all on the
//              device)
//
// The result is in the whole form (whole_rows.hpp): own columns, then the halo, which is the
// distinct global columns outside the own range that either part uses, ascending. Each row is
// the union of its two parts (structural: an entry that cancels stays), c_ij = own_ij +
// received_ij.
//
// On the device, a thread per row: the used source slots are flagged (and read back, to form
// the halo on the host with the received columns); each row's merged length is counted by a
// two-pointer walk over its two sorted parts (the own part renumbered through the slots' map,
// which increases, so it stays sorted), a scan gives the offsets, and a second walk writes the
// columns and where each part's entry went. compute() then writes the values: zero, the own
// entries at their places, the received ones added at theirs: the same order every time, no
// atomics. The constructor does this for the first values; compute() for new values of both
// parts (same patterns: a re-setup).
#include <cuda_runtime.h>

#include <vector>

#include "distributed/amg/device_row_exchange.hpp"
#include "spmv/device/device_csr.hpp"
#include "spmv/host/row_block.hpp"

namespace spk {

class DeviceRowMerge {
 public:
  // own: rows x (own_columns + source_ids.size()), rows = received.rows; merged and halo
  // receive the result. Synchronizes `stream` (read-backs of the flags and the entry count).
  DeviceRowMerge(const DeviceCsr<double>& own, const std::vector<global_index_t>& source_ids,
                 const RowBlock<double>& received, global_index_t first_column, index_t own_columns,
                 DeviceCsrMatrix<double>& merged, std::vector<global_index_t>& halo_columns,
                 cudaStream_t stream);

  // The same from the pieces received on the device. No re-setup follows (compute() is then
  // an error).
  DeviceRowMerge(const DeviceCsr<double>& own, const std::vector<global_index_t>& source_ids,
                 const DeviceRowPieces& received, global_index_t first_column, index_t own_columns,
                 DeviceCsrMatrix<double>& merged, std::vector<global_index_t>& halo_columns,
                 cudaStream_t stream);

  // merged's values for new values of both parts (the same patterns as at construction).
  void compute(const DeviceCsr<double>& own, const RowBlock<double>& received,
               DeviceCsrMatrix<double>& merged);

 private:
  // The source ids the own part names (read back from the device).
  std::vector<global_index_t> used_source_ids(const DeviceCsr<double>& own,
                                              const std::vector<global_index_t>& source_ids);
  // slot_map_ for the merged halo.
  void map_slots(const std::vector<global_index_t>& source_ids,
                 const std::vector<global_index_t>& halo);
  // The merged pattern of the own part and the received rows (received_offsets_ and
  // received_columns_), and where each entry of both went.
  void merge_pattern(const DeviceCsr<double>& own, index_t rows, index_t cols,
                     DeviceCsrMatrix<double>& merged);
  // merged's values: the own part's, plus received_values_.
  void place_values(const DeviceCsr<double>& own, DeviceCsrMatrix<double>& merged);

  cudaStream_t stream_;
  index_t own_columns_ = 0;
  DeviceBuffer<index_t> slot_map_;          // source slot s -> merged column
  DeviceBuffer<index_t> received_offsets_;  // the received rows in the merged numbering
  DeviceBuffer<index_t> received_columns_;
  DeviceBuffer<double> received_values_;
  std::vector<index_t> received_order_;      // received entry of each sorted entry (host form)
  bool from_device_ = false;                 // made from pieces on the device
  DeviceBuffer<index_t> own_position_;       // where each own entry went in merged
  DeviceBuffer<index_t> received_position_;  // where each received entry went
};

}  // namespace spk
