#pragma once
// Communicator: spkrylov's own duplicate of the caller's MPI communicator (MPI_Comm_dup), so
// that its messages never match the caller's, with MPI_ERRORS_RETURN so that a failed call
// becomes a CommunicationError (SPK_MPI_CHECK) instead of aborting without a word. Freed
// (MPI_Comm_free) with the owner. Construction is collective over `comm`.
#include <mpi.h>

namespace spk {

class Communicator {
 public:
  explicit Communicator(MPI_Comm comm);
  ~Communicator();
  Communicator(const Communicator&) = delete;
  Communicator& operator=(const Communicator&) = delete;

  MPI_Comm get() const { return comm_; }
  int rank() const { return rank_; }
  int size() const { return size_; }

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0;
  int size_ = 1;
};

}  // namespace spk
