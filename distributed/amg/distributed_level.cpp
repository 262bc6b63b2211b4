#include "distributed/amg/distributed_level.hpp"

#include <string>
#include <utility>

#include "distributed/fault_watch.hpp"
#include "spkrylov/errors.hpp"

namespace spk {

RowPartition gather_partition(FaultWatch& watch, global_index_t mine) {
  std::vector<global_index_t> counts(static_cast<std::size_t>(watch.processes()));
  watch.allgather(&mine, 1, MPI_INT64_T, counts.data());
  return partition_from_counts(counts);
}

DistributedLevel make_level(FaultWatch& watch, RowBlock<double> block, RowPartition rows,
                            RowPartition columns) {
  DistributedLevel level;
  level.split = split_local_and_halo(block, rows, columns, watch.rank());
  level.rows = block.rows;
  level.cols = static_cast<index_t>(columns.rows(watch.rank()));
  const global_index_t mine = block.nnz();
  watch.allreduce(&mine, &level.global_nnz, 1, MPI_INT64_T, MPI_SUM);
  level.block = std::move(block);
  level.row_partition = std::move(rows);
  level.column_partition = std::move(columns);
  return level;
}

void set_level_values(DistributedLevel& level, const std::vector<double>& values) {
  if (values.size() != level.block.values.size())
    throw BadInput("amg: " + std::to_string(values.size()) + " new values for a level of " +
                   std::to_string(level.block.values.size()) + " entries");
  level.block.values = values;
  scatter_values(level.split, values.data());
}

RowBlock<double> to_global_rows(const CsrMatrix<double>& local, global_index_t first_row,
                                global_index_t global_rows, global_index_t first_column) {
  RowBlock<double> block;
  block.global_rows = global_rows;
  block.first_row = first_row;
  block.rows = local.rows;
  block.row_offsets = local.row_offsets;
  block.columns.resize(local.columns.size());
  for (std::size_t k = 0; k < local.columns.size(); ++k)
    block.columns[k] = first_column + local.columns[k];
  block.values = local.values;
  return block;
}

}  // namespace spk
