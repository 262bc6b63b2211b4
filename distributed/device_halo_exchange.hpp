#pragma once
// DeviceHaloExchange<T>: the halo of a distributed x in GPU memory, on the solver's stream,
// over one of two transports (the same HaloPlan, neighbours and order for both):
//
//   nccl   start: pack the entries neighbours need (a gather kernel) on the stream; a second
//          stream waits for it (event) and runs one NCCL group of ncclRecv/ncclSend per
//          neighbour; finish: the solver's stream waits for that group (event). Nothing
//          synchronizes the host, so the caller's local product runs while the halo travels
//          and the whole product can be captured in a CUDA graph.
//   mpi    host-staged, for ranks that share a GPU (NCCL refuses that) or a machine without
//          NCCL: start packs and copies the send buffer to pinned host memory; finish waits
//          for that copy only (the local product queued after it keeps running), exchanges
//          with MPI_Isend/Irecv/Waitall, and queues the copy of the halo to the device.
//          Not capturable.
#include <cuda_runtime.h>
#include <mpi.h>

#include "distributed/halo_plan.hpp"
#include "distributed/nccl_communicator.hpp"
#include "spmv/base/device_buffer.hpp"

namespace spk {

// Page-locked host memory (cudaMallocHost), so that copies to and from it run asynchronously.
template <class T>
class PinnedBuffer {
 public:
  explicit PinnedBuffer(std::size_t count);
  ~PinnedBuffer();
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  T* data() { return data_; }

 private:
  T* data_ = nullptr;
};

template <class T>
class DeviceHaloExchange final : public HaloExchange<T> {
 public:
  // nccl: the transport; null for host-staged MPI over comm. stream: the solver's.
  DeviceHaloExchange(MPI_Comm comm, const NcclCommunicator* nccl, HaloPlan plan,
                     cudaStream_t stream);
  ~DeviceHaloExchange() override;
  DeviceHaloExchange(const DeviceHaloExchange&) = delete;
  DeviceHaloExchange& operator=(const DeviceHaloExchange&) = delete;

  void start(const T* x) override;
  const T* finish() override;
  bool capturable() const override { return nccl_ != nullptr; }
  std::string transport() const override { return nccl_ ? "nccl" : "mpi (host-staged)"; }

 private:
  void pack(const T* x);
  bool idle() const { return this->plan_.sources.empty() && this->plan_.targets.empty(); }

  MPI_Comm comm_;
  const NcclCommunicator* nccl_;
  cudaStream_t stream_;
  cudaStream_t comm_stream_ = nullptr;  // nccl: where the group runs
  cudaEvent_t packed_ = nullptr;        // the send buffer is ready (on the host, for mpi)
  cudaEvent_t arrived_ = nullptr;       // nccl: the halo is in device memory
  DeviceBuffer<index_t> send_rows_;
  DeviceBuffer<T> send_buffer_;
  DeviceBuffer<T> halo_;
  PinnedBuffer<T> host_send_;  // mpi only (empty for nccl)
  PinnedBuffer<T> host_halo_;
  std::vector<MPI_Request> requests_;
};

}  // namespace spk
