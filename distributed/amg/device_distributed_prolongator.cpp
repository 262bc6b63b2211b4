#include "distributed/amg/device_distributed_prolongator.hpp"

#include <algorithm>
#include <utility>
#include <vector>

#include "distributed/agreed_errors.hpp"
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
  const FetchedRows<double> ghost = fetch_rows<double>(
      watch.comm(), t.row_partition, a.halo_columns, [&](const std::vector<global_index_t>& asked) {
        std::vector<index_t> local(asked.size());
        for (std::size_t r = 0; r < asked.size(); ++r)
          local[r] = static_cast<index_t>(asked[r] - t.first_row);
        const CsrMatrix<double> rows = download_rows(t.whole(), local, stream);
        FetchedRows<double> answer;
        answer.row_offsets = rows.row_offsets;
        answer.columns.resize(rows.columns.size());
        for (std::size_t k = 0; k < rows.columns.size(); ++k)
          answer.columns[k] = t.first_column + rows.columns[k];  // T has no halo
        answer.values = rows.values;
        return answer;
      });

  // T_ext = [T_own; the ghost rows], its columns own aggregates then the others named (P's
  // halo), and P's pattern from A_whole T_ext.
  std::vector<global_index_t> halo;
  on_every_process(watch, [&] {
    RowBlock<double> rows;
    rows.rows = static_cast<index_t>(a.halo_columns.size());
    rows.row_offsets = ghost.row_offsets;
    rows.columns = ghost.columns;
    rows.values = ghost.values;
    WholeRows ghost_rows = whole_rows(rows, t.first_column, t.cols);
    halo = std::move(ghost_rows.halo_columns);
    DeviceCsrMatrix<double> extended = stack_rows(
        t.whole(), ghost_rows.matrix, t.cols + static_cast<index_t>(halo.size()), stream);
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
