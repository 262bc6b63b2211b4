#include "distributed/amg/distributed_level.hpp"

#include <string>
#include <utility>

#include "distributed/agreed_errors.hpp"
#include "distributed/amg/row_exchange.hpp"
#include "distributed/fault_watch.hpp"
#include "distributed/mpi_check.hpp"
#include "spkrylov/errors.hpp"

namespace spk {

RowPartition gather_partition(FaultWatch& watch, global_index_t mine) {
  std::vector<global_index_t> counts(static_cast<std::size_t>(watch.processes()));
  watch.allgather(&mine, 1, MPI_INT64_T, counts.data());
  return partition_from_counts(counts);
}

std::vector<double> moved_rows(FaultWatch& watch, const std::vector<double>& values,
                               const RowPartition& from, const RowPartition& to) {
  const int rank = watch.rank();
  const global_index_t mine = from.rows(rank);
  const std::int64_t width = mine > 0 ? static_cast<std::int64_t>(values.size()) / mine : 0;
  std::int64_t widest = 0;
  watch.allreduce(&width, &widest, 1, MPI_INT64_T, MPI_MAX);
  GlobalRows<double> rows;  // row r: columns 0 .. widest - 1
  on_every_process(watch, [&] {
    if (mine > 0 && static_cast<std::int64_t>(values.size()) != mine * widest)
      throw Error("amg agglomeration: " + std::to_string(values.size()) + " candidate values for " +
                  std::to_string(mine) + " rows of " + std::to_string(widest) +
                  " (internal error)");
    for (global_index_t r = 0; r < mine; ++r) {
      rows.ids.push_back(from.first_row(rank) + r);
      for (std::int64_t k = 0; k < widest; ++k) {
        rows.columns.push_back(k);
        rows.values.push_back(values[static_cast<std::size_t>(r * widest + k)]);
      }
      rows.row_offsets.push_back(static_cast<index_t>(rows.columns.size()));
    }
  });
  RowBlock<double> received = send_rows_to_owners(watch.comm(), to, widest, rows);
  on_every_process(watch, [&] {
    if (static_cast<std::int64_t>(received.values.size()) != to.rows(rank) * widest)
      throw Error("amg agglomeration: " + std::to_string(received.values.size()) +
                  " candidate values received for " + std::to_string(to.rows(rank)) +
                  " rows (internal error)");
  });
  return std::move(received.values);
}

ProcessRows spread_over_processes(FaultWatch& watch, index_t mine) {
  const std::int64_t extremes[2] = {-static_cast<std::int64_t>(mine), mine};
  std::int64_t most[2] = {0, 0};
  watch.allreduce(extremes, most, 2, MPI_INT64_T, MPI_MAX);
  const int holds = mine > 0 ? 1 : 0;
  int holding = 0;
  watch.allreduce(&holds, &holding, 1, MPI_INT, MPI_SUM);
  return {-most[0], most[1], holding, watch.processes()};
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

CsrMatrix<double> gather_rows_everywhere(FaultWatch& watch, const RowBlock<double>& mine,
                                         global_index_t rows, global_index_t cols) {
  // Every process's rows, in rank order: counts, then the row lengths, columns and values.
  const int processes = watch.processes();
  const MPI_Comm comm = watch.comm();
  if (rows > 1 << 20)
    throw BadInput("amg: the coarsest level has " + std::to_string(rows) +
                   " rows, too many to gather on every process");
  std::vector<int> row_counts(static_cast<std::size_t>(processes));
  std::vector<int> entry_counts(static_cast<std::size_t>(processes));
  const int my_rows = mine.rows;
  const int my_entries = mine.nnz();
  watch.allgather(&my_rows, 1, MPI_INT, row_counts.data());
  watch.allgather(&my_entries, 1, MPI_INT, entry_counts.data());
  std::vector<int> row_starts(static_cast<std::size_t>(processes), 0);
  std::vector<int> entry_starts(static_cast<std::size_t>(processes), 0);
  long long total_entries = 0;
  for (int p = 0; p < processes; ++p) {
    const auto q = static_cast<std::size_t>(p);
    if (p > 0) {
      row_starts[q] = row_starts[q - 1] + row_counts[q - 1];
      entry_starts[q] = entry_starts[q - 1] + entry_counts[q - 1];
    }
    total_entries += entry_counts[q];
  }
  if (total_entries > (1LL << 31) - 1)
    throw BadInput("amg: the coarsest level has " + std::to_string(total_entries) +
                   " entries, too many to gather");
  std::vector<int> lengths(static_cast<std::size_t>(mine.rows));
  for (index_t i = 0; i < mine.rows; ++i)
    lengths[static_cast<std::size_t>(i)] = mine.row_offsets[i + 1] - mine.row_offsets[i];
  std::vector<int> all_lengths(static_cast<std::size_t>(rows));
  std::vector<global_index_t> columns(static_cast<std::size_t>(total_entries));
  std::vector<double> values(static_cast<std::size_t>(total_entries));
  SPK_MPI_CHECK(MPI_Allgatherv(lengths.data(), my_rows, MPI_INT, all_lengths.data(),
                               row_counts.data(), row_starts.data(), MPI_INT, comm));
  SPK_MPI_CHECK(MPI_Allgatherv(mine.columns.data(), my_entries, MPI_INT64_T, columns.data(),
                               entry_counts.data(), entry_starts.data(), MPI_INT64_T, comm));
  SPK_MPI_CHECK(MPI_Allgatherv(mine.values.data(), my_entries, MPI_DOUBLE, values.data(),
                               entry_counts.data(), entry_starts.data(), MPI_DOUBLE, comm));
  CsrMatrix<double> gathered;
  gathered.rows = static_cast<index_t>(rows);
  gathered.cols = static_cast<index_t>(cols);
  gathered.row_offsets.assign(static_cast<std::size_t>(rows) + 1, 0);
  for (global_index_t i = 0; i < rows; ++i)
    gathered.row_offsets[i + 1] =
        gathered.row_offsets[i] + all_lengths[static_cast<std::size_t>(i)];
  gathered.columns.assign(columns.begin(), columns.end());
  gathered.values = std::move(values);
  return gathered;
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
