#pragma once
// device_alltoallv: device arrays moved between the processes of a communicator as
// MPI_Alltoallv moves host arrays: process p sends send_counts[q] elements to each q (its send
// array grouped by destination, in rank order) and receives receive_counts[q] from each q
// (grouped by source, in rank order), itself included. Two transports:
//
//   nccl   one NCCL group of ncclRecv/ncclSend on `stream`, device to device (NVLink between
//          the GPUs of a node); a pair with nothing to move is skipped on both sides. `stream`
//          must be the one every other NCCL call of the communicator runs on (one order on
//          every process).
//   mpi    (no communicator: ranks sharing a GPU, no NCCL) staged through host memory:
//          download, MPI_Alltoallv of bytes, upload. A process that would move more than
//          2^31 - 1 bytes to or from one process refuses with BadInput, on every process.
//
// The counts must agree pairwise (what q sends p is what p expects from q): callers exchange
// them first (MPI_Alltoall). Returns with `stream` synchronized. Collective over comm.
#include <cuda_runtime.h>
#include <mpi.h>

#include <cstdint>
#include <vector>

namespace spk {

class NcclCommunicator;

void device_alltoallv_bytes(MPI_Comm comm, const NcclCommunicator* nccl, const void* send,
                            const std::vector<std::int64_t>& send_bytes, void* receive,
                            const std::vector<std::int64_t>& receive_bytes, cudaStream_t stream);

template <class U>
void device_alltoallv(MPI_Comm comm, const NcclCommunicator* nccl, const U* send,
                      const std::vector<std::int64_t>& send_counts, U* receive,
                      const std::vector<std::int64_t>& receive_counts, cudaStream_t stream) {
  std::vector<std::int64_t> send_bytes(send_counts), receive_bytes(receive_counts);
  for (std::int64_t& b : send_bytes) b *= static_cast<std::int64_t>(sizeof(U));
  for (std::int64_t& b : receive_bytes) b *= static_cast<std::int64_t>(sizeof(U));
  device_alltoallv_bytes(comm, nccl, send, send_bytes, receive, receive_bytes, stream);
}

}  // namespace spk
