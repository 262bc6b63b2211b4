#include "distributed/halo_plan.hpp"

#include <algorithm>
#include <string>

#include "distributed/mpi_check.hpp"
#include "spkrylov/errors.hpp"

namespace spk {

int HaloPlan::neighbours() const {
  std::vector<int> ranks;
  for (const HaloSource& source : sources) ranks.push_back(source.rank);
  for (const HaloTarget& target : targets) ranks.push_back(target.rank);
  std::sort(ranks.begin(), ranks.end());
  return static_cast<int>(std::unique(ranks.begin(), ranks.end()) - ranks.begin());
}

HaloPlan make_halo_plan(MPI_Comm comm, const std::vector<HaloSource>& sources,
                        const std::vector<global_index_t>& halo_columns,
                        global_index_t first_column, index_t columns) {
  HaloPlan plan;
  plan.sources = sources;
  plan.halo_size = static_cast<index_t>(halo_columns.size());
  int size = 1;
  SPK_MPI_CHECK(MPI_Comm_size(comm, &size));
  const auto processes = static_cast<std::size_t>(size);

  // receive_counts[q]: entries this process needs from q; send_counts[q]: q needs from it
  std::vector<int> receive_counts(processes, 0), receive_offsets(processes, 0);
  for (const HaloSource& source : sources) {
    receive_counts[static_cast<std::size_t>(source.rank)] = source.count;
    receive_offsets[static_cast<std::size_t>(source.rank)] = source.first_slot;
  }
  std::vector<int> send_counts(processes, 0), send_offsets(processes, 0);
  SPK_MPI_CHECK(
      MPI_Alltoall(receive_counts.data(), 1, MPI_INT, send_counts.data(), 1, MPI_INT, comm));
  std::int64_t total = 0;
  for (std::size_t q = 0; q < processes; ++q) {
    send_offsets[q] = static_cast<int>(total);
    total += send_counts[q];
  }
  check_index_range(total, "entries one process sends in a halo exchange");

  // Which entries: the global columns of each source's slots, to their owner.
  std::vector<global_index_t> requested(static_cast<std::size_t>(total));
  SPK_MPI_CHECK(MPI_Alltoallv(halo_columns.data(), receive_counts.data(), receive_offsets.data(),
                              MPI_INT64_T, requested.data(), send_counts.data(),
                              send_offsets.data(), MPI_INT64_T, comm));
  plan.send_rows.resize(requested.size());
  for (std::size_t k = 0; k < requested.size(); ++k) {
    const global_index_t own = requested[k] - first_column;
    if (own < 0 || own >= columns)
      throw CommunicationError("halo exchange setup: a neighbour asked for entry " +
                               std::to_string(requested[k]) + " of x, which this process (" +
                               std::to_string(first_column) + ".." +
                               std::to_string(first_column + columns - 1) + ") does not own");
    plan.send_rows[k] = static_cast<index_t>(own);
  }
  for (std::size_t q = 0; q < processes; ++q)
    if (send_counts[q] > 0)
      plan.targets.push_back({static_cast<int>(q), send_offsets[q], send_counts[q]});
  return plan;
}

}  // namespace spk
