#include "distributed/mpi_check.hpp"

#include <string>

#include "spkrylov/errors.hpp"

namespace spk {

void throw_mpi_error(int code, const char* call, const char* file, int line) {
  char text[MPI_MAX_ERROR_STRING] = {};
  int length = 0;
  if (MPI_Error_string(code, text, &length) != MPI_SUCCESS) length = 0;
  int rank = -1, initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (initialized && !finalized) MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const std::string where = rank >= 0 ? "rank " + std::to_string(rank) : "before MPI_Init";
  throw CommunicationError(std::string(call) + " failed on " + where + ": " +
                           (length > 0 ? std::string(text, static_cast<std::size_t>(length))
                                       : "MPI error " + std::to_string(code)) +
                           " (" + file + ":" + std::to_string(line) + ")");
}

}  // namespace spk
