#include "distributed/amg/device_distributed_prolongator.hpp"

#include <algorithm>
#include <utility>
#include <vector>

#include "core/cuda_check.hpp"
#include "distributed/agreed_errors.hpp"
#include "distributed/amg/column_set.hpp"
#include "distributed/amg/device_level_rows.hpp"
#include "distributed/amg/device_row_exchange.hpp"
#include "distributed/fault_watch.hpp"

namespace spk {

DeviceDistributedProlongator::DeviceDistributedProlongator(
    FaultWatch& watch, const DeviceDistributedLevel& a, DeviceDistributedLevel tentative,
    double weight, const DeviceSetupContext& setup, const NcclCommunicator* nccl)
    : weight_(weight), tentative_(std::move(tentative)) {
  if (weight_ == 0.0) return;  // P = T
  const cudaStream_t stream = setup.stream();
  const DeviceDistributedLevel& t = tentative_;

  // The rows of T that A's halo columns name, from their owners, GPU to GPU.
  const DeviceGlobalRows ghost = fetch_rows_on_device(watch, nccl, t, a.halo_columns, stream);

  // T_ext = [T_own; the ghost rows], its columns own aggregates then the others named (P's
  // halo: the ghost rows' and, after agglomeration, T's own halo), and P's pattern from
  // A_whole T_ext.
  std::vector<global_index_t> halo = t.halo_columns;
  on_every_process(watch, [&] {
    halo = distinct_outside_on_device(ghost.columns, t.first_column, t.first_column + t.cols,
                                      t.halo_columns, stream);
    const index_t width = t.cols + static_cast<index_t>(halo.size());
    const DeviceCsrMatrix<double> ghost_rows =
        whole_rows_on_device(ghost, t.first_column, t.cols, halo, stream);
    // T's own halo slots (a process that gave its coarse rows away) into the wider halo
    DeviceCsrMatrix<double> renumbered;
    if (!t.halo_columns.empty()) {
      const ColumnSlots halo_slots(halo);
      std::vector<index_t> slot_map(t.halo_columns.size());
      for (std::size_t k = 0; k < slot_map.size(); ++k)
        slot_map[k] = t.cols + halo_slots.slot_of(t.halo_columns[k]);
      renumbered = remapped_copy(t.whole(), t.cols, slot_map, width, stream);
    }
    DeviceCsrMatrix<double> extended =
        stack_rows(t.halo_columns.empty() ? t.whole() : renumbered, ghost_rows, width, stream);
    SPK_CUDA_CHECK(cudaStreamSynchronize(stream));  // the stacked parts are freed on leaving
    tentative_.owned = DeviceCsrMatrix<double>();   // T_ext holds T's rows now
    smoothed_ =
        std::make_unique<DeviceSmoothedProlongator>(a.whole(), std::move(extended), weight_, setup);
  });
  prolongator_ =
      make_device_level(watch, tentative_.row_partition, tentative_.column_partition,
                        std::move(halo), DeviceCsrMatrix<double>(), &smoothed_->matrix());
}

void DeviceDistributedProlongator::compute(const DeviceDistributedLevel& a,
                                           const DeviceBuffer<double>& inverse_diagonal,
                                           double lambda_max) {
  if (weight_ == 0.0) return;
  smoothed_->compute(a.whole(), inverse_diagonal, lambda_max);  // P = T - (w/lambda) D^-1 A T
}

}  // namespace spk
