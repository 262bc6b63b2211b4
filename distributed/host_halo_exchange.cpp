#include "distributed/host_halo_exchange.hpp"

#include "core/host_parallel.hpp"
#include "distributed/abandoned_buffers.hpp"
#include "distributed/mpi_check.hpp"

namespace spk {

namespace {

constexpr int halo_tag = 17;

}  // namespace

template <class T>
HostHaloExchange<T>::HostHaloExchange(MPI_Comm comm, HaloPlan plan, FaultWatch* watch)
    : HaloExchange<T>(std::move(plan)),
      comm_(comm),
      watch_(watch),
      send_buffer_(this->plan_.send_rows.size()),
      halo_(static_cast<std::size_t>(this->plan_.halo_size)),
      requests_(this->plan_.sources.size() + this->plan_.targets.size(), MPI_REQUEST_NULL) {
  if (watch_ != nullptr) death_action_ = watch_->on_death([this] { abandon(); });
}

template <class T>
HostHaloExchange<T>::~HostHaloExchange() {
  if (watch_ != nullptr) watch_->forget_death_action(death_action_);
}

template <class T>
void HostHaloExchange<T>::start(const T* x) {
  const double begin = MPI_Wtime();
  in_flight_ = true;
  std::size_t request = 0;
  for (const HaloSource& source : this->plan_.sources)
    SPK_MPI_CHECK(MPI_Irecv(halo_.data() + source.first_slot, source.count, mpi_datatype<T>(),
                            source.rank, halo_tag, comm_, &requests_[request++]));
  // send buffer = the entries of x the neighbours need
  const std::vector<index_t>& rows = this->plan_.send_rows;
  const auto count = static_cast<std::int64_t>(rows.size());
#pragma omp parallel for schedule(static) if (count >= host_parallel_from)
  for (std::int64_t k = 0; k < count; ++k) send_buffer_[k] = x[rows[k]];
  for (const HaloTarget& target : this->plan_.targets)
    SPK_MPI_CHECK(MPI_Isend(send_buffer_.data() + target.first, target.count, mpi_datatype<T>(),
                            target.rank, halo_tag, comm_, &requests_[request++]));
  this->times_.start_s += MPI_Wtime() - begin;
}

template <class T>
const T* HostHaloExchange<T>::finish() {
  const double begin = MPI_Wtime();
  if (watch_ != nullptr)
    watch_->wait_all(requests_);
  else
    SPK_MPI_CHECK(
        MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE));
  in_flight_ = false;
  this->times_.wait_s += MPI_Wtime() - begin;
  ++this->times_.exchanges;
  return halo_.data();
}

template <class T>
void HostHaloExchange<T>::abandon() noexcept {
  if (!in_flight_) return;
  in_flight_ = false;
  abandon_requests(requests_, this->plan_.sources.size());
  try {
    keep_until_exit(std::move(halo_));
    keep_until_exit(std::move(send_buffer_));
  } catch (...) {  // out of host memory: nothing safer to do
  }
}

template class HostHaloExchange<float>;
template class HostHaloExchange<double>;

}  // namespace spk
