#include "distributed/amg/device_distributed_level.hpp"

#include <string>

#include "core/host_parallel.hpp"
#include "core/step_trace.hpp"
#include "distributed/agreed_errors.hpp"
#include "distributed/amg/device_level_rows.hpp"
#include "distributed/amg/whole_rows.hpp"
#include "distributed/fault_watch.hpp"
#include "spkrylov/errors.hpp"

namespace spk {

DeviceDistributedLevel make_device_level(FaultWatch& watch, RowPartition rows, RowPartition columns,
                                         std::vector<global_index_t> halo_columns,
                                         DeviceCsrMatrix<double> whole,
                                         const DeviceCsrMatrix<double>* computed) {
  const int rank = watch.rank();
  DeviceDistributedLevel level;
  level.owned = std::move(whole);
  level.computed = computed;
  const DeviceCsrMatrix<double>& m = level.whole();
  on_every_process(watch, [&] {
    const global_index_t own = columns.rows(rank);
    if (m.rows != rows.rows(rank) ||
        m.cols != own + static_cast<global_index_t>(halo_columns.size()))
      throw BadInput("amg setup: a level's rows are " + std::to_string(m.rows) + " x " +
                     std::to_string(m.cols) + ", not " + std::to_string(rows.rows(rank)) + " x (" +
                     std::to_string(own) + " own + " + std::to_string(halo_columns.size()) +
                     " halo) columns (internal error)");
  });
  level.rows = m.rows;
  level.cols = static_cast<index_t>(columns.rows(rank));
  level.first_row = rows.first_row(rank);
  level.first_column = columns.first_row(rank);
  const global_index_t mine = m.nnz();
  watch.allreduce(&mine, &level.global_nnz, 1, MPI_INT64_T, MPI_SUM);
  level.row_partition = std::move(rows);
  level.column_partition = std::move(columns);
  level.halo_columns = std::move(halo_columns);
  return level;
}

FetchedRows<double> fetch_device_rows(FaultWatch& watch, const DeviceDistributedLevel& level,
                                      const std::vector<global_index_t>& rows,
                                      cudaStream_t stream) {
  return fetch_rows<double>(
      watch.comm(), level.row_partition, rows, [&](const std::vector<global_index_t>& asked) {
        std::vector<index_t> local(asked.size());
        for (std::size_t r = 0; r < asked.size(); ++r)
          local[r] = static_cast<index_t>(asked[r] - level.first_row);
        StepTrace trace = StepTrace::when_enabled([&] {
          return "fetch_device_rows (rank " + std::to_string(watch.rank()) + ", " +
                 std::to_string(asked.size()) + " rows asked)";
        });
        const CsrMatrix<double> downloaded = download_rows(level.whole(), local, stream);
        trace.lap("gathered and downloaded");
        FetchedRows<double> answer;
        answer.row_offsets = downloaded.row_offsets;
        answer.columns.resize(downloaded.columns.size());
        const auto entries = static_cast<std::int64_t>(downloaded.columns.size());
#pragma omp parallel for schedule(static) if (entries >= host_parallel_from)
        for (std::int64_t k = 0; k < entries; ++k)
          answer.columns[static_cast<std::size_t>(k)] =
              global_column(downloaded.columns[static_cast<std::size_t>(k)], level.first_column,
                            level.cols, level.halo_columns);
        answer.values = downloaded.values;
        trace.lap("global columns");
        return answer;
      });
}

}  // namespace spk
