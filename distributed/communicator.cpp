#include "distributed/communicator.hpp"

#include "distributed/mpi_check.hpp"

namespace spk {

Communicator::Communicator(MPI_Comm comm) {
  SPK_MPI_CHECK(MPI_Comm_dup(comm, &comm_));
  SPK_MPI_CHECK(MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN));
  SPK_MPI_CHECK(MPI_Comm_rank(comm_, &rank_));
  SPK_MPI_CHECK(MPI_Comm_size(comm_, &size_));
}

Communicator::~Communicator() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized && comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);  // nothing to report to
}

}  // namespace spk
