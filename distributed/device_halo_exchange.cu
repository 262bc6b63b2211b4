#include <cstdint>

#include "core/cuda_check.hpp"
#include "distributed/abandoned_buffers.hpp"
#include "distributed/device_halo_exchange.hpp"
#include "distributed/mpi_check.hpp"

namespace spk {

namespace {

constexpr int halo_tag = 18;

// out[k] = x[rows[k]]
template <class T>
__global__ void gather_entries(index_t count, const index_t* __restrict__ rows,
                               const T* __restrict__ x, T* __restrict__ out) {
  // 64-bit: the 32-bit product would pass 2^31 in the last block of a count near 2^31
  const std::int64_t k = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k < count) out[k] = x[rows[k]];
}

}  // namespace

CudaStream::CudaStream() {
  SPK_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
}
CudaStream::~CudaStream() {
  if (stream_ != nullptr) (void)cudaStreamDestroy(stream_);
}

template <class T>
PinnedBuffer<T>::PinnedBuffer(std::size_t count) {
  if (count > 0)
    SPK_CUDA_CHECK(cudaMallocHost(reinterpret_cast<void**>(&data_), count * sizeof(T)));
}
template <class T>
PinnedBuffer<T>::~PinnedBuffer() {
  if (data_ != nullptr) (void)cudaFreeHost(data_);
}

template <class T>
DeviceHaloExchange<T>::DeviceHaloExchange(MPI_Comm comm, const NcclCommunicator* nccl,
                                          HaloPlan plan, cudaStream_t stream,
                                          cudaStream_t local_stream, FaultWatch* watch)
    : HaloExchange<T>(std::move(plan)),
      comm_(comm),
      nccl_(nccl),
      watch_(watch),
      stream_(stream),
      local_stream_(local_stream),
      send_rows_(this->plan_.send_rows.size(), "halo send rows"),
      send_buffer_(this->plan_.send_rows.size(), "halo send buffer"),
      halo_(static_cast<std::size_t>(this->plan_.halo_size), "halo vector"),
      host_send_(nccl ? 0 : this->plan_.send_rows.size()),
      host_halo_(nccl ? 0 : static_cast<std::size_t>(this->plan_.halo_size)),
      requests_(this->plan_.sources.size() + this->plan_.targets.size(), MPI_REQUEST_NULL) {
  send_rows_.copy_from_host(this->plan_.send_rows);
  for (cudaEvent_t* event : {&packed_, &x_ready_, &local_done_})
    SPK_CUDA_CHECK(cudaEventCreateWithFlags(event, cudaEventDisableTiming));
  if (watch_ != nullptr && nccl_ == nullptr) {
    death_action_ = watch_->on_death([this] { abandon(); });
    has_death_action_ = true;
  }
}

template <class T>
DeviceHaloExchange<T>::~DeviceHaloExchange() {
  if (has_death_action_) watch_->forget_death_action(death_action_);
  for (cudaEvent_t event : {packed_, x_ready_, local_done_})
    if (event != nullptr) (void)cudaEventDestroy(event);
}

template <class T>
void DeviceHaloExchange<T>::pack(const T* x) {
  const index_t count = this->plan_.send_size();
  if (count == 0) return;
  constexpr int threads = 256;
  const auto blocks = static_cast<unsigned>((std::int64_t{count} + threads - 1) / threads);
  gather_entries<<<blocks, threads, 0, stream_>>>(count, send_rows_.data(), x, send_buffer_.data());
  SPK_CUDA_CHECK(cudaGetLastError());
}

template <class T>
void DeviceHaloExchange<T>::before_local() {
  if (local_stream_ == stream_) return;
  // During an exchange the local product reads x as start() found it; otherwise (no overlap,
  // or the product alone) it follows everything queued so far.
  if (!exchanging_) SPK_CUDA_CHECK(cudaEventRecord(x_ready_, stream_));
  SPK_CUDA_CHECK(cudaStreamWaitEvent(local_stream_, x_ready_, 0));
}

template <class T>
void DeviceHaloExchange<T>::after_local() {
  if (local_stream_ == stream_) return;
  SPK_CUDA_CHECK(cudaEventRecord(local_done_, local_stream_));
  SPK_CUDA_CHECK(cudaStreamWaitEvent(stream_, local_done_, 0));
}

template <class T>
void DeviceHaloExchange<T>::start(const T* x) {
  ++this->times_.exchanges;
  exchanging_ = true;
  if (local_stream_ != stream_) SPK_CUDA_CHECK(cudaEventRecord(x_ready_, stream_));
  if (idle()) return;
  const double begin = MPI_Wtime();
  if (nccl_ != nullptr) {
    const NcclLibrary& nccl = nccl_->library();
    pack(x);
    SPK_NCCL_CHECK(nccl.group_start());
    for (const HaloSource& source : this->plan_.sources)
      SPK_NCCL_CHECK(nccl.recv(halo_.data() + source.first_slot,
                               static_cast<std::size_t>(source.count), nccl_datatype<T>(),
                               source.rank, nccl_->get(), stream_));
    for (const HaloTarget& target : this->plan_.targets)
      SPK_NCCL_CHECK(nccl.send(send_buffer_.data() + target.first,
                               static_cast<std::size_t>(target.count), nccl_datatype<T>(),
                               target.rank, nccl_->get(), stream_));
    SPK_NCCL_CHECK(nccl.group_end());
  } else {
    pack(x);
    const std::size_t bytes = this->plan_.send_rows.size() * sizeof(T);
    if (bytes > 0)
      SPK_CUDA_CHECK(cudaMemcpyAsync(host_send_.data(), send_buffer_.data(), bytes,
                                     cudaMemcpyDeviceToHost, stream_));
    SPK_CUDA_CHECK(cudaEventRecord(packed_, stream_));
  }
  this->times_.start_s += MPI_Wtime() - begin;
}

template <class T>
const T* DeviceHaloExchange<T>::finish() {
  exchanging_ = false;
  if (idle()) return halo_.data();
  const double begin = MPI_Wtime();
  if (nccl_ == nullptr) {  // nccl: the halo follows the group on the solver's stream
    SPK_CUDA_CHECK(cudaEventSynchronize(packed_));  // the send buffer is on the host
    std::size_t request = 0;
    requests_posted_ = true;
    for (const HaloSource& source : this->plan_.sources)
      SPK_MPI_CHECK(MPI_Irecv(host_halo_.data() + source.first_slot, source.count,
                              mpi_datatype<T>(), source.rank, halo_tag, comm_,
                              &requests_[request++]));
    for (const HaloTarget& target : this->plan_.targets)
      SPK_MPI_CHECK(MPI_Isend(host_send_.data() + target.first, target.count, mpi_datatype<T>(),
                              target.rank, halo_tag, comm_, &requests_[request++]));
    if (watch_ != nullptr)
      watch_->wait_all(requests_);
    else
      SPK_MPI_CHECK(
          MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE));
    requests_posted_ = false;
    const std::size_t bytes = static_cast<std::size_t>(this->plan_.halo_size) * sizeof(T);
    if (bytes > 0)
      SPK_CUDA_CHECK(
          cudaMemcpyAsync(halo_.data(), host_halo_.data(), bytes, cudaMemcpyHostToDevice, stream_));
  }
  this->times_.wait_s += MPI_Wtime() - begin;
  return halo_.data();
}

template <class T>
void DeviceHaloExchange<T>::abandon() noexcept {
  if (!requests_posted_) return;
  requests_posted_ = false;
  abandon_requests(requests_, this->plan_.sources.size());
  try {
    keep_until_exit(std::move(host_halo_));
    keep_until_exit(std::move(host_send_));
  } catch (...) {  // out of host memory: nothing safer to do
  }
}

template class PinnedBuffer<float>;
template class PinnedBuffer<double>;
template class DeviceHaloExchange<float>;
template class DeviceHaloExchange<double>;

}  // namespace spk
