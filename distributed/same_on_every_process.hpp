#pragma once
// require_same_as_rank0: a mismatch between processes (different configs, different solver
// options) found at setup, before it can make them take different paths and wait for each
// other forever. Rank 0's text is broadcast; a process whose own differs fails, and every
// process throws that failure (agreed_errors.hpp):
//   "rank 2: mismatch between processes in <what>: 'tolerance: 1e-06' here, 'tolerance: 1e-08'
//    on rank 0"
// The texts are compared line by line; the first differing line is quoted (40 characters).
#include <mpi.h>

#include <string>

namespace spk {

// Collective over comm.
void require_same_as_rank0(MPI_Comm comm, const std::string& text, const std::string& what);

// rank 0's `text` on every process. Collective over comm.
std::string broadcast_text(MPI_Comm comm, const std::string& text);

}  // namespace spk
