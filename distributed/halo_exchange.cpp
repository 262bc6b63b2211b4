#include "distributed/halo_exchange.hpp"

#include <algorithm>
#include <string>

#include "distributed/mpi_check.hpp"
#include "spkrylov/errors.hpp"

namespace spk {

namespace {

constexpr int halo_tag = 17;

}  // namespace

template <class T>
HaloExchange<T>::HaloExchange(MPI_Comm comm, const std::vector<HaloSource>& sources,
                              const std::vector<global_index_t>& halo_columns,
                              global_index_t first_row, index_t rows)
    : comm_(comm), sources_(sources), halo_(halo_columns.size()) {
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
  send_rows_.resize(requested.size());
  for (std::size_t k = 0; k < requested.size(); ++k) {
    const global_index_t row = requested[k] - first_row;
    if (row < 0 || row >= rows)
      throw CommunicationError("halo exchange setup: a neighbour asked for row " +
                               std::to_string(requested[k]) + ", which this process (rows " +
                               std::to_string(first_row) + ".." +
                               std::to_string(first_row + rows - 1) + ") does not own");
    send_rows_[k] = static_cast<index_t>(row);
  }
  for (std::size_t q = 0; q < processes; ++q)
    if (send_counts[q] > 0)
      targets_.push_back({static_cast<int>(q), send_offsets[q], send_counts[q]});
  send_buffer_.resize(send_rows_.size());
  requests_.resize(sources_.size() + targets_.size());
}

template <class T>
int HaloExchange<T>::neighbours() const {
  std::vector<int> ranks;
  for (const HaloSource& source : sources_) ranks.push_back(source.rank);
  for (const HaloTarget& target : targets_) ranks.push_back(target.rank);
  std::sort(ranks.begin(), ranks.end());
  return static_cast<int>(std::unique(ranks.begin(), ranks.end()) - ranks.begin());
}

template <class T>
void HaloExchange<T>::start(const T* x) {
  const double begin = MPI_Wtime();
  std::size_t request = 0;
  for (const HaloSource& source : sources_)
    SPK_MPI_CHECK(MPI_Irecv(halo_.data() + source.first_slot, source.count, mpi_datatype<T>(),
                            source.rank, halo_tag, comm_, &requests_[request++]));
  // send buffer = the entries of x the neighbours need
  const auto count = static_cast<std::int64_t>(send_rows_.size());
#pragma omp parallel for schedule(static)
  for (std::int64_t k = 0; k < count; ++k) send_buffer_[k] = x[send_rows_[k]];
  for (const HaloTarget& target : targets_)
    SPK_MPI_CHECK(MPI_Isend(send_buffer_.data() + target.first, target.count, mpi_datatype<T>(),
                            target.rank, halo_tag, comm_, &requests_[request++]));
  times_.start_s += MPI_Wtime() - begin;
}

template <class T>
const T* HaloExchange<T>::finish() {
  const double begin = MPI_Wtime();
  SPK_MPI_CHECK(
      MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE));
  times_.wait_s += MPI_Wtime() - begin;
  ++times_.exchanges;
  return halo_.data();
}

template class HaloExchange<float>;
template class HaloExchange<double>;

}  // namespace spk
