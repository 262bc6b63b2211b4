#include "distributed/device_binding.hpp"

#include <cuda_runtime.h>
#include <unistd.h>

#include <array>
#include <cstring>
#include <vector>

#include "core/cuda_check.hpp"
#include "distributed/agreed_errors.hpp"
#include "distributed/host_processes.hpp"
#include "distributed/mpi_check.hpp"
#include "spkrylov/errors.hpp"

namespace spk {

namespace {

constexpr std::size_t name_bytes = 128;  // host name and bus id, NUL-padded

std::array<char, name_bytes> fixed_text(const std::string& text) {
  std::array<char, name_bytes> fixed{};
  std::strncpy(fixed.data(), text.c_str(), name_bytes - 1);
  return fixed;
}

std::string host_name() {
  std::array<char, name_bytes> name{};
  if (gethostname(name.data(), name.size() - 1) != 0) return "?";
  return name.data();
}

}  // namespace

DeviceBinding bind_device(MPI_Comm comm, bool by_local_rank, bool activate) {
  DeviceBinding binding;
  const HostProcesses on_host = host_processes(comm);
  binding.local_rank = on_host.rank;
  binding.local_processes = on_host.count;

  on_every_process(comm, [&] {
    const cudaError_t counted = cudaGetDeviceCount(&binding.devices);
    if (counted != cudaSuccess || binding.devices == 0)
      throw NoDevice(std::string("no GPU for this process (") +
                     (counted != cudaSuccess ? cudaGetErrorString(counted) : "0 devices") +
                     "); use device: cpu");
    if (by_local_rank) {
      binding.device = binding.local_rank % binding.devices;
      if (activate) SPK_CUDA_CHECK(cudaSetDevice(binding.device));
    } else {
      SPK_CUDA_CHECK(cudaGetDevice(&binding.device));
    }
    std::array<char, name_bytes> bus{};
    SPK_CUDA_CHECK(cudaDeviceGetPCIBusId(bus.data(), static_cast<int>(bus.size()), binding.device));
    binding.pci_bus_id = bus.data();
  });

  // Every process's (host, bus id), to find two on one GPU.
  int size = 1;
  SPK_MPI_CHECK(MPI_Comm_size(comm, &size));
  const std::array<char, name_bytes> mine_host = fixed_text(host_name());
  const std::array<char, name_bytes> mine_bus = fixed_text(binding.pci_bus_id);
  std::vector<char> hosts(static_cast<std::size_t>(size) * name_bytes);
  std::vector<char> buses(static_cast<std::size_t>(size) * name_bytes);
  SPK_MPI_CHECK(MPI_Allgather(mine_host.data(), name_bytes, MPI_CHAR, hosts.data(), name_bytes,
                              MPI_CHAR, comm));
  SPK_MPI_CHECK(MPI_Allgather(mine_bus.data(), name_bytes, MPI_CHAR, buses.data(), name_bytes,
                              MPI_CHAR, comm));
  const auto same = [&](const std::vector<char>& names, int p, int q) {
    return std::strncmp(&names[static_cast<std::size_t>(p) * name_bytes],
                        &names[static_cast<std::size_t>(q) * name_bytes], name_bytes) == 0;
  };
  for (int p = 0; p < size && !binding.gpu_shared(); ++p)
    for (int q = p + 1; q < size; ++q)
      if (same(hosts, p, q) && same(buses, p, q)) {
        binding.shared_first = p;
        binding.shared_second = q;
        break;
      }
  return binding;
}

}  // namespace spk
