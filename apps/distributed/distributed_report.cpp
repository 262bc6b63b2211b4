#include "distributed_report.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "distributed/mpi_check.hpp"

namespace spk::app {

namespace {

constexpr int gather_tag = 29;

index_t saturated(long long count) {
  return static_cast<index_t>(std::min<long long>(count, std::numeric_limits<index_t>::max()));
}

}  // namespace

MatrixStats combined_matrix_stats(const Communicator& communicator, const RowBlock<double>& rows) {
  return combined_matrix_stats(communicator, compute_block_stats(rows), rows.first_row);
}

MatrixStats combined_matrix_stats(const Communicator& communicator, const MatrixStats& mine,
                                  global_index_t first_row) {
  const double row_count = mine.rows;
  // sums: rows, entries, empty rows, aligned entries, strictly dominant, zero diagonal, and
  // the sum of squared row lengths (avg^2 + stddev^2 per row)
  double sums[7] = {row_count,
                    static_cast<double>(mine.nnz),
                    static_cast<double>(mine.empty_rows),
                    static_cast<double>(mine.aligned16_entries),
                    static_cast<double>(mine.strictly_dominant_rows),
                    static_cast<double>(mine.zero_or_missing_diagonal),
                    row_count * (mine.avg_row_length * mine.avg_row_length +
                                 mine.row_length_stddev * mine.row_length_stddev)};
  double totals[7];
  SPK_MPI_CHECK(MPI_Allreduce(sums, totals, 7, MPI_DOUBLE, MPI_SUM, communicator.get()));
  // minima: shortest row (processes without rows do not count), first zero diagonal, and
  // whether any row is not dominant (as 0 - dominant)
  long long minima[3] = {mine.rows > 0 ? mine.min_row_length : std::numeric_limits<index_t>::max(),
                         mine.first_zero_diagonal_row >= 0
                             ? first_row + mine.first_zero_diagonal_row
                             : std::numeric_limits<long long>::max(),
                         mine.diagonally_dominant ? 1 : 0};
  long long global_minima[3];
  SPK_MPI_CHECK(
      MPI_Allreduce(minima, global_minima, 3, MPI_LONG_LONG, MPI_MIN, communicator.get()));
  long long longest = mine.max_row_length, global_longest = 0;
  SPK_MPI_CHECK(
      MPI_Allreduce(&longest, &global_longest, 1, MPI_LONG_LONG, MPI_MAX, communicator.get()));

  MatrixStats stats;
  const auto total = [&](int k) { return static_cast<long long>(std::llround(totals[k])); };
  stats.rows = stats.cols = saturated(total(0));
  stats.nnz = total(1);
  stats.empty_rows = saturated(total(2));
  stats.aligned16_entries = total(3);
  stats.strictly_dominant_rows = saturated(total(4));
  stats.zero_or_missing_diagonal = saturated(total(5));
  stats.min_row_length = saturated(global_minima[0]);
  stats.max_row_length = saturated(global_longest);
  stats.first_zero_diagonal_row =
      stats.zero_or_missing_diagonal == 0 ? -1 : saturated(global_minima[1]);
  stats.diagonally_dominant = global_minima[2] == 1;
  if (totals[0] > 0.0) {
    stats.avg_row_length = totals[1] / totals[0];
    stats.row_length_stddev = std::sqrt(
        std::max(0.0, totals[6] / totals[0] - stats.avg_row_length * stats.avg_row_length));
  }
  if (stats.avg_row_length > 0.0)
    stats.row_length_variation = stats.row_length_stddev / stats.avg_row_length;
  if (totals[1] > 0.0)
    stats.ell_fill_ratio = totals[0] * static_cast<double>(global_longest) / totals[1];
  return stats;
}

DistributedRun gather_distributed_run(const Communicator& communicator, const ProcessInfo& info,
                                      const CommunicationTimes& times, const ProcessSetup& setup) {
  const auto processes = static_cast<std::size_t>(communicator.size());
  DistributedRun run;
  if (communicator.rank() == 0) {
    run.processes.resize(processes);
    run.times.resize(processes);
    run.setups.resize(processes);
  }
  // Plain structs of numbers, gathered as bytes (every process runs the same build).
  SPK_MPI_CHECK(MPI_Gather(&info, sizeof info, MPI_BYTE, run.processes.data(), sizeof info,
                           MPI_BYTE, 0, communicator.get()));
  SPK_MPI_CHECK(MPI_Gather(&times, sizeof times, MPI_BYTE, run.times.data(), sizeof times, MPI_BYTE,
                           0, communicator.get()));
  SPK_MPI_CHECK(MPI_Gather(&setup, sizeof setup, MPI_BYTE, run.setups.data(), sizeof setup,
                           MPI_BYTE, 0, communicator.get()));
  return run;
}

double sum_over_processes(const Communicator& communicator, double value) {
  std::vector<double> values(static_cast<std::size_t>(communicator.size()));
  SPK_MPI_CHECK(
      MPI_Allgather(&value, 1, MPI_DOUBLE, values.data(), 1, MPI_DOUBLE, communicator.get()));
  double total = 0.0;
  for (const double part : values) total += part;  // rank order
  return total;
}

std::vector<double> gather_to_rank0(const Communicator& communicator,
                                    const std::vector<double>& local,
                                    const RowPartition& partition) {
  if (communicator.rank() != 0) {
    SPK_MPI_CHECK(MPI_Send(local.data(), static_cast<int>(local.size()), MPI_DOUBLE, 0, gather_tag,
                           communicator.get()));
    return {};
  }
  std::vector<double> whole(static_cast<std::size_t>(partition.global_rows()));
  std::copy(local.begin(), local.end(), whole.begin());
  for (int p = 1; p < communicator.size(); ++p)
    SPK_MPI_CHECK(MPI_Recv(whole.data() + partition.first_row(p),
                           static_cast<int>(partition.rows(p)), MPI_DOUBLE, p, gather_tag,
                           communicator.get(), MPI_STATUS_IGNORE));
  return whole;
}

}  // namespace spk::app
