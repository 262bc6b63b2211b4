#include "distributed/same_on_every_process.hpp"

#include <cstdint>
#include <sstream>

#include "core/printable_text.hpp"
#include "distributed/agreed_errors.hpp"
#include "distributed/mpi_check.hpp"
#include "spkrylov/errors.hpp"

namespace spk {

namespace {

// The first line where `mine` and `reference` differ, quoted, as "'x' here, 'y' on rank 0".
std::string first_difference(const std::string& mine, const std::string& reference) {
  std::istringstream here(mine), there(reference);
  std::string line_here, line_there;
  for (;;) {
    const bool more_here = static_cast<bool>(std::getline(here, line_here));
    const bool more_there = static_cast<bool>(std::getline(there, line_there));
    if (!more_here && !more_there) return "the same lines, different line ends";
    if (more_here && more_there && line_here == line_there) continue;
    return "'" + (more_here ? input_excerpt(line_here, 40) : "(nothing)") + "' here, '" +
           (more_there ? input_excerpt(line_there, 40) : "(nothing)") + "' on rank 0";
  }
}

}  // namespace

std::string broadcast_text(MPI_Comm comm, const std::string& text) {
  std::uint64_t size = text.size();
  SPK_MPI_CHECK(MPI_Bcast(&size, 1, MPI_UINT64_T, 0, comm));
  std::string copy = text;
  copy.resize(static_cast<std::size_t>(size));
  SPK_MPI_CHECK(MPI_Bcast(copy.data(), static_cast<int>(size), MPI_CHAR, 0, comm));
  return copy;
}

void require_same_as_rank0(MPI_Comm comm, const std::string& text, const std::string& what) {
  const std::string reference = broadcast_text(comm, text);
  on_every_process(comm, [&] {
    if (text != reference)
      throw BadInput("mismatch between processes in " + what + ": " +
                     first_difference(text, reference));
  });
}

}  // namespace spk
