#include <cstdint>
#include <numeric>
#include <string>

#include "core/cuda_check.hpp"
#include "core/device_kernels.cuh"
#include "distributed/agreed_errors.hpp"
#include "distributed/amg/device_ghost_values.hpp"
#include "distributed/amg/device_level_rows.hpp"
#include "distributed/amg/whole_rows.hpp"
#include "distributed/fault_watch.hpp"
#include "distributed/mpi_check.hpp"
#include "spkrylov/errors.hpp"

namespace spk {

namespace {

__global__ void __launch_bounds__(kSetupBlockSize)
    row_starts_kernel(index_t count, const index_t* __restrict__ rows,
                      const index_t* __restrict__ offsets, index_t* __restrict__ starts) {
  for_each_index(count, [&](index_t k) { starts[k] = offsets[rows[k]]; });
}

__global__ void __launch_bounds__(kSetupBlockSize)
    gather_values_kernel(index_t count, const index_t* __restrict__ entries,
                         const double* __restrict__ values, double* __restrict__ gathered) {
  for_each_index(count, [&](index_t k) { gathered[k] = values[entries[k]]; });
}

// Where each of `rows` (local ids) starts in m's entries.
std::vector<index_t> row_starts(const DeviceCsrMatrix<double>& m, const std::vector<index_t>& rows,
                                cudaStream_t stream) {
  std::vector<index_t> starts(rows.size());
  if (rows.empty()) return starts;
  const DeviceBuffer<index_t> asked(rows, "ghost rows asked");
  DeviceBuffer<index_t> found(rows.size(), "ghost rows' first entries");
  const auto count = static_cast<index_t>(rows.size());
  row_starts_kernel<<<setup_grid(count), kSetupBlockSize, 0, stream>>>(
      count, asked.data(), m.row_offsets.data(), found.data());
  SPK_CHECK_LAUNCH("row_starts_kernel");
  SPK_CUDA_CHECK(cudaMemcpyAsync(starts.data(), found.data(), starts.size() * sizeof(index_t),
                                 cudaMemcpyDeviceToHost, stream));
  SPK_CUDA_CHECK(cudaStreamSynchronize(stream));
  return starts;
}

int as_count(std::size_t count, const char* what) {
  check_index_range(static_cast<std::int64_t>(count), what);
  return static_cast<int>(count);
}

}  // namespace

DeviceGhostValues::DeviceGhostValues(FaultWatch& watch, const DeviceDistributedLevel& level,
                                     const std::vector<global_index_t>& wanted, cudaStream_t stream,
                                     FetchedRows<double>& fetched)
    : watch_(watch), stream_(stream) {
  const MPI_Comm comm = watch.comm();
  const int processes = watch.processes();
  const auto size = static_cast<std::size_t>(processes);
  // 1. The rows, each value replaced by the entry's index on its owner.
  fetched = fetch_rows<double>(
      comm, level.row_partition, wanted, [&](const std::vector<global_index_t>& asked) {
        std::vector<index_t> local(asked.size());
        for (std::size_t r = 0; r < asked.size(); ++r)
          local[r] = static_cast<index_t>(asked[r] - level.first_row);
        const CsrMatrix<double> rows = download_rows(level.whole(), local, stream);
        const std::vector<index_t> starts = row_starts(level.whole(), local, stream);
        FetchedRows<double> answer;
        answer.row_offsets = rows.row_offsets;
        answer.columns.resize(rows.columns.size());
        answer.values.resize(rows.columns.size());
        for (std::size_t r = 0; r < local.size(); ++r)
          for (index_t k = rows.row_offsets[r]; k < rows.row_offsets[r + 1]; ++k) {
            answer.columns[k] =
                global_column(rows.columns[k], level.first_column, level.cols, level.halo_columns);
            answer.values[k] = static_cast<double>(starts[r] + (k - rows.row_offsets[r]));
          }
        return answer;
      });

  // 2. Each owner's entries this process needs, in the fetched order, grouped by owner.
  std::vector<std::vector<index_t>> wanted_entries(size);
  std::vector<int> owner_of(fetched.values.size());
  on_every_process(watch, [&] {
    if (fetched.row_offsets.size() != wanted.size() + 1)
      throw Error("amg setup: " + std::to_string(fetched.row_offsets.size() - 1) +
                  " ghost rows fetched for " + std::to_string(wanted.size()) +
                  " asked (internal error)");
    for (std::size_t r = 0; r < wanted.size(); ++r) {
      const int owner = level.row_partition.owner(wanted[r]);
      for (index_t k = fetched.row_offsets[r]; k < fetched.row_offsets[r + 1]; ++k) {
        owner_of[static_cast<std::size_t>(k)] = owner;
        wanted_entries[static_cast<std::size_t>(owner)].push_back(
            static_cast<index_t>(fetched.values[static_cast<std::size_t>(k)]));
      }
    }
    receive_counts_.assign(size, 0);
    for (std::size_t q = 0; q < size; ++q)
      receive_counts_[q] = as_count(wanted_entries[q].size(), "ghost entries from one process");
    receive_displacements_.assign(size, 0);
    std::partial_sum(receive_counts_.begin(), receive_counts_.end() - 1,
                     receive_displacements_.begin() + 1);
    as_count(fetched.values.size(), "ghost entries of one process");
    // received value k (grouped by owner, each group in the fetched order) -> fetched entry
    placement_.resize(fetched.values.size());
    std::vector<int> next(receive_displacements_);
    for (std::size_t k = 0; k < owner_of.size(); ++k)
      placement_[static_cast<std::size_t>(next[static_cast<std::size_t>(owner_of[k])]++)] = k;
  });
  send_counts_.assign(size, 0);
  SPK_MPI_CHECK(
      MPI_Alltoall(receive_counts_.data(), 1, MPI_INT, send_counts_.data(), 1, MPI_INT, comm));
  send_displacements_.assign(size, 0);
  std::partial_sum(send_counts_.begin(), send_counts_.end() - 1, send_displacements_.begin() + 1);
  const std::size_t sends = static_cast<std::size_t>(send_displacements_.back()) +
                            static_cast<std::size_t>(send_counts_.back());
  std::vector<index_t> asked_of_me(sends);
  std::vector<index_t> flat;
  flat.reserve(fetched.values.size());
  for (const std::vector<index_t>& group : wanted_entries)
    flat.insert(flat.end(), group.begin(), group.end());
  SPK_MPI_CHECK(MPI_Alltoallv(flat.data(), receive_counts_.data(), receive_displacements_.data(),
                              MPI_INT, asked_of_me.data(), send_counts_.data(),
                              send_displacements_.data(), MPI_INT, comm));
  on_every_process(watch, [&] {
    const auto nnz = static_cast<index_t>(level.whole().nnz());
    for (const index_t entry : asked_of_me)
      if (entry < 0 || entry >= nnz)
        throw Error("amg setup: a ghost entry " + std::to_string(entry) + " asked of a level of " +
                    std::to_string(nnz) + " entries (internal error)");
    send_entries_ = DeviceBuffer<index_t>(asked_of_me, "ghost entries other processes need");
    send_values_ = DeviceBuffer<double>(sends, "ghost values other processes need");
  });
  // 3. The setup's values.
  fetched.values = values(level);
}

std::vector<double> DeviceGhostValues::values(const DeviceDistributedLevel& level) {
  const auto sends = static_cast<index_t>(send_entries_.size());
  std::vector<double> sent(static_cast<std::size_t>(sends));
  on_every_process(watch_, [&] {
    if (sends == 0) return;
    gather_values_kernel<<<setup_grid(sends), kSetupBlockSize, 0, stream_>>>(
        sends, send_entries_.data(), level.whole().values.data(), send_values_.data());
    SPK_CHECK_LAUNCH("gather_values_kernel");
    SPK_CUDA_CHECK(cudaMemcpyAsync(sent.data(), send_values_.data(), sent.size() * sizeof(double),
                                   cudaMemcpyDeviceToHost, stream_));
    SPK_CUDA_CHECK(cudaStreamSynchronize(stream_));
  });
  std::vector<double> received(placement_.size());
  SPK_MPI_CHECK(MPI_Alltoallv(sent.data(), send_counts_.data(), send_displacements_.data(),
                              MPI_DOUBLE, received.data(), receive_counts_.data(),
                              receive_displacements_.data(), MPI_DOUBLE, watch_.comm()));
  std::vector<double> ordered(received.size());
  for (std::size_t k = 0; k < received.size(); ++k) ordered[placement_[k]] = received[k];
  return ordered;
}

}  // namespace spk
