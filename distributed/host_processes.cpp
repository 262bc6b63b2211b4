#include "distributed/host_processes.hpp"

#include "distributed/mpi_check.hpp"

namespace spk {

HostProcesses host_processes(MPI_Comm comm) {
  MPI_Comm host;
  SPK_MPI_CHECK(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &host));
  HostProcesses processes;
  const int ranked = MPI_Comm_rank(host, &processes.rank);
  const int sized = MPI_Comm_size(host, &processes.count);
  SPK_MPI_CHECK(MPI_Comm_free(&host));  // freed before a failure above is thrown
  SPK_MPI_CHECK(ranked);
  SPK_MPI_CHECK(sized);
  return processes;
}

}  // namespace spk
