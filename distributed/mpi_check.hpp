#pragma once
// SPK_MPI_CHECK(call): every MPI call of spkrylov goes through it. A failure throws
// spk::CommunicationError naming the call, the rank, MPI's error string, and the source
// location. The communicators spkrylov uses (distributed/communicator.hpp) return errors
// (MPI_ERRORS_RETURN) instead of aborting, so that the error can say where it happened.
#include <mpi.h>

#include <cstdint>

namespace spk {

[[noreturn]] void throw_mpi_error(int code, const char* call, const char* file, int line);

// The MPI datatype of T (the values and indices spkrylov sends).
template <class T>
MPI_Datatype mpi_datatype();
template <>
inline MPI_Datatype mpi_datatype<float>() {
  return MPI_FLOAT;
}
template <>
inline MPI_Datatype mpi_datatype<double>() {
  return MPI_DOUBLE;
}
template <>
inline MPI_Datatype mpi_datatype<std::int64_t>() {
  return MPI_INT64_T;
}
template <>
inline MPI_Datatype mpi_datatype<std::int32_t>() {
  return MPI_INT32_T;
}

}  // namespace spk

#define SPK_MPI_CHECK(call)                                              \
  do {                                                                   \
    const int spk_mpi_status = (call);                                   \
    if (spk_mpi_status != MPI_SUCCESS)                                   \
      ::spk::throw_mpi_error(spk_mpi_status, #call, __FILE__, __LINE__); \
  } while (0)
