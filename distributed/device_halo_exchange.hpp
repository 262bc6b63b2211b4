#pragma once
// DeviceHaloExchange<T>: the halo of a distributed x in GPU memory, on the solver's stream,
// over one of two transports (the same HaloPlan, neighbours and order for both):
//
//   nccl   start: pack the entries neighbours need (a gather kernel) and run one NCCL group of
//          ncclRecv/ncclSend per neighbour, on the solver's stream, where the inner products'
//          allreduces also run: every NCCL call of the communicator is on one stream, in one
//          order on every process. The local product runs meanwhile on a stream of its own
//          (`local_stream`, the local block's backend's): before_local makes it wait for x
//          (an event recorded when start began), after_local makes the solver's stream wait
//          for it. Nothing synchronizes the host, and the whole product can be captured in a
//          CUDA graph (the two streams fork and join through events).
//   mpi    host-staged, for ranks that share a GPU (NCCL refuses that) or a machine without
//          NCCL: start packs and copies the send buffer to pinned host memory; finish waits
//          for that copy only (the local product queued after it keeps running), exchanges
//          with MPI_Isend/Irecv/Waitall (the solver's FaultWatch's polled wait), and queues
//          the copy of the halo to the device. Not capturable. When the solver dies during
//          that wait (another process failed), the receives are cancelled, the requests freed
//          and the pinned buffers kept until exit (MPI may still use them).
#include <cuda_runtime.h>
#include <mpi.h>

#include "core/device_buffer.hpp"
#include "distributed/fault_watch.hpp"
#include "distributed/halo_plan.hpp"
#include "distributed/nccl_communicator.hpp"

namespace spk {

// A non-blocking CUDA stream, destroyed with its owner.
class CudaStream {
 public:
  CudaStream();
  ~CudaStream();
  CudaStream(const CudaStream&) = delete;
  CudaStream& operator=(const CudaStream&) = delete;
  cudaStream_t get() const { return stream_; }

 private:
  cudaStream_t stream_ = nullptr;
};

// Page-locked host memory (cudaMallocHost), so that copies to and from it run asynchronously.
// A move hands the memory over (its address stays).
template <class T>
class PinnedBuffer {
 public:
  explicit PinnedBuffer(std::size_t count);
  ~PinnedBuffer();
  PinnedBuffer(PinnedBuffer&& other) noexcept : data_(other.data_) { other.data_ = nullptr; }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(PinnedBuffer&&) = delete;
  T* data() { return data_; }

 private:
  T* data_ = nullptr;
};

template <class T>
class DeviceHaloExchange final : public HaloExchange<T> {
 public:
  // nccl: the transport; null for host-staged MPI over comm. stream: the solver's;
  // local_stream: the local block's (nccl; the solver's stream for mpi). watch: the solver's
  // (mpi: its waits give up when another process fails); null: plain MPI waits.
  DeviceHaloExchange(MPI_Comm comm, const NcclCommunicator* nccl, HaloPlan plan,
                     cudaStream_t stream, cudaStream_t local_stream, FaultWatch* watch = nullptr);
  ~DeviceHaloExchange() override;
  DeviceHaloExchange(const DeviceHaloExchange&) = delete;
  DeviceHaloExchange& operator=(const DeviceHaloExchange&) = delete;

  void start(const T* x) override;
  const T* finish() override;
  void before_local() override;
  void after_local() override;
  bool capturable() const override { return nccl_ != nullptr; }
  std::string transport() const override { return nccl_ ? "nccl" : "mpi (host-staged)"; }

 private:
  void pack(const T* x);
  void abandon() noexcept;
  bool idle() const { return this->plan_.sources.empty() && this->plan_.targets.empty(); }

  MPI_Comm comm_;
  const NcclCommunicator* nccl_;
  FaultWatch* watch_;
  std::size_t death_action_ = 0;  // abandon() (MPI), with the watch
  bool has_death_action_ = false;
  cudaStream_t stream_;
  cudaStream_t local_stream_;
  cudaEvent_t packed_ = nullptr;      // mpi: the send buffer is on the host
  cudaEvent_t x_ready_ = nullptr;     // nccl: x as start() found it
  cudaEvent_t local_done_ = nullptr;  // nccl: the local product has run
  bool exchanging_ = false;           // between start() and finish()
  DeviceBuffer<index_t> send_rows_;
  DeviceBuffer<T> send_buffer_;
  DeviceBuffer<T> halo_;
  PinnedBuffer<T> host_send_;  // mpi only (empty for nccl)
  PinnedBuffer<T> host_halo_;
  std::vector<MPI_Request> requests_;
  bool requests_posted_ = false;  // mpi: inside finish()'s wait
};

}  // namespace spk
