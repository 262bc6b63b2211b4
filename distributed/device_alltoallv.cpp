#include "distributed/device_alltoallv.hpp"

#include <climits>
#include <cstddef>
#include <string>

#include "core/cuda_check.hpp"
#include "distributed/mpi_check.hpp"
#include "distributed/nccl_communicator.hpp"
#include "spkrylov/errors.hpp"

namespace spk {

namespace {

std::vector<std::int64_t> displacements_of(const std::vector<std::int64_t>& counts) {
  std::vector<std::int64_t> first(counts.size() + 1, 0);
  for (std::size_t q = 0; q < counts.size(); ++q) first[q + 1] = first[q] + counts[q];
  return first;
}

void over_nccl(const NcclCommunicator& nccl, const char* send,
               const std::vector<std::int64_t>& send_bytes, char* receive,
               const std::vector<std::int64_t>& receive_bytes, cudaStream_t stream) {
  const NcclLibrary& library = nccl.library();
  const std::vector<std::int64_t> send_first = displacements_of(send_bytes);
  const std::vector<std::int64_t> receive_first = displacements_of(receive_bytes);
  SPK_NCCL_CHECK(library.group_start());
  for (std::size_t q = 0; q < receive_bytes.size(); ++q)
    if (receive_bytes[q] > 0)
      SPK_NCCL_CHECK(library.recv(receive + receive_first[q],
                                  static_cast<std::size_t>(receive_bytes[q]), ncclInt8,
                                  static_cast<int>(q), nccl.get(), stream));
  for (std::size_t q = 0; q < send_bytes.size(); ++q)
    if (send_bytes[q] > 0)
      SPK_NCCL_CHECK(library.send(send + send_first[q], static_cast<std::size_t>(send_bytes[q]),
                                  ncclInt8, static_cast<int>(q), nccl.get(), stream));
  SPK_NCCL_CHECK(library.group_end());
  SPK_CUDA_CHECK(cudaStreamSynchronize(stream));
}

void over_mpi(MPI_Comm comm, const char* send, const std::vector<std::int64_t>& send_bytes,
              char* receive, const std::vector<std::int64_t>& receive_bytes, cudaStream_t stream) {
  const std::vector<std::int64_t> send_first = displacements_of(send_bytes);
  const std::vector<std::int64_t> receive_first = displacements_of(receive_bytes);
  int too_large = send_first.back() > INT_MAX || receive_first.back() > INT_MAX ? 1 : 0;
  int anywhere = 0;
  SPK_MPI_CHECK(MPI_Allreduce(&too_large, &anywhere, 1, MPI_INT, MPI_MAX, comm));
  if (anywhere != 0)
    throw BadInput(
        "distributed setup: more than 2^31 - 1 bytes of device rows to move between two "
        "processes over the mpi transport; use distributed.transport: nccl (a GPU per process)");
  const auto as_ints = [](const std::vector<std::int64_t>& v) {
    return std::vector<int>(v.begin(), v.end());
  };
  std::vector<char> host_send(static_cast<std::size_t>(send_first.back()));
  std::vector<char> host_receive(static_cast<std::size_t>(receive_first.back()));
  if (!host_send.empty())
    SPK_CUDA_CHECK(
        cudaMemcpyAsync(host_send.data(), send, host_send.size(), cudaMemcpyDeviceToHost, stream));
  SPK_CUDA_CHECK(cudaStreamSynchronize(stream));
  const std::vector<int> send_counts = as_ints(send_bytes), receive_counts = as_ints(receive_bytes);
  const std::vector<int> send_displacements = as_ints(send_first);
  const std::vector<int> receive_displacements = as_ints(receive_first);
  SPK_MPI_CHECK(MPI_Alltoallv(host_send.data(), send_counts.data(), send_displacements.data(),
                              MPI_BYTE, host_receive.data(), receive_counts.data(),
                              receive_displacements.data(), MPI_BYTE, comm));
  if (!host_receive.empty())
    SPK_CUDA_CHECK(cudaMemcpyAsync(receive, host_receive.data(), host_receive.size(),
                                   cudaMemcpyHostToDevice, stream));
  SPK_CUDA_CHECK(cudaStreamSynchronize(stream));  // host_receive is freed on return
}

}  // namespace

void device_alltoallv_bytes(MPI_Comm comm, const NcclCommunicator* nccl, const void* send,
                            const std::vector<std::int64_t>& send_bytes, void* receive,
                            const std::vector<std::int64_t>& receive_bytes, cudaStream_t stream) {
  if (nccl != nullptr)
    over_nccl(*nccl, static_cast<const char*>(send), send_bytes, static_cast<char*>(receive),
              receive_bytes, stream);
  else
    over_mpi(comm, static_cast<const char*>(send), send_bytes, static_cast<char*>(receive),
             receive_bytes, stream);
}

}  // namespace spk
