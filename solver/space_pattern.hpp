#pragma once
// SpacePattern: the sparsity pattern of the solver's matrix in the memory of its vector space
// (host arrays on the CPU path, the device CSR arrays on the GPU path), as preconditioners
// read it at setup (make_preconditioner, solver/preconditioner_factory.hpp). Not owned and
// valid during setup only: a preconditioner that needs it later keeps a copy
// (Space::copy_within). On the GPU nothing of it goes through the host.
#include "spmv/host/csr_matrix.hpp"

namespace spk {

struct SpacePattern {
  index_t rows = 0;
  index_t cols = 0;
  const index_t* row_offsets = nullptr;  // rows + 1 entries
  const index_t* columns = nullptr;      // row_offsets[rows] entries
};

}  // namespace spk
