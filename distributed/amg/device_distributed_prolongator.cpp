#include "distributed/amg/device_distributed_prolongator.hpp"

#include <algorithm>
#include <utility>
#include <vector>

#include "distributed/agreed_errors.hpp"
#include "distributed/amg/column_set.hpp"
#include "distributed/amg/device_level_rows.hpp"
#include "distributed/amg/row_exchange.hpp"
#include "distributed/amg/whole_rows.hpp"
#include "distributed/fault_watch.hpp"

namespace spk {

DeviceDistributedProlongator::DeviceDistributedProlongator(FaultWatch& watch,
                                                           const DeviceDistributedLevel& a,
                                                           DeviceDistributedLevel tentative,
                                                           double weight,
                                                           const DeviceSetupContext& setup)
    : weight_(weight), tentative_(std::move(tentative)) {
  if (weight_ == 0.0) return;  // P = T
  const cudaStream_t stream = setup.stream();
  const DeviceDistributedLevel& t = tentative_;

  // The rows of T that A's halo columns name, from their owners (each downloads those asked).
  const FetchedRows<double> ghost = fetch_device_rows(watch, t, a.halo_columns, stream);

  // T_ext = [T_own; the ghost rows], its columns own aggregates then the others named (P's
  // halo: the ghost rows' and, after agglomeration, T's own halo), and P's pattern from
  // A_whole T_ext.
  std::vector<global_index_t> halo = t.halo_columns;
  on_every_process(watch, [&] {
    RowBlock<double> rows;
    rows.rows = static_cast<index_t>(a.halo_columns.size());
    rows.row_offsets = ghost.row_offsets;
    rows.columns = ghost.columns;
    rows.values = ghost.values;
    halo = distinct_outside(ghost.columns, t.first_column, t.first_column + t.cols, halo);
    const index_t width = t.cols + static_cast<index_t>(halo.size());
    WholeRows ghost_rows = whole_rows(rows, t.first_column, t.cols, halo);
    // T's own halo slots (a process that gave its coarse rows away) into the wider halo
    DeviceCsrMatrix<double> renumbered;
    if (!t.halo_columns.empty()) {
      const ColumnSlots halo_slots(halo);
      std::vector<index_t> slot_map(t.halo_columns.size());
      for (std::size_t k = 0; k < slot_map.size(); ++k)
        slot_map[k] = t.cols + halo_slots.slot_of(t.halo_columns[k]);
      renumbered = remapped_copy(t.whole(), t.cols, slot_map, width, stream);
    }
    DeviceCsrMatrix<double> extended = stack_rows(t.halo_columns.empty() ? t.whole() : renumbered,
                                                  ghost_rows.matrix, width, stream);
    tentative_.owned = DeviceCsrMatrix<double>();  // T_ext holds T's rows now
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
