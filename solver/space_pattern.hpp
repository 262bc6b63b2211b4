#pragma once
// SpacePattern: the sparsity pattern of the solver's matrix in the memory of its vector space
// (host arrays on the CPU path, the device CSR arrays on the GPU path), as preconditioners
// read it at setup (make_preconditioner, solver/preconditioner_factory.hpp). Not owned and
// valid during setup only: a preconditioner that needs it later keeps a copy
// (Space::copy_within). On the GPU it stays on the device, except where a preconditioner's
// setup analyses the pattern on the host (IC(0)/ILU(0)'s level scheduling: host_pattern).
#include <cstddef>

#include "spmv/host/csr_matrix.hpp"

namespace spk {

struct SpacePattern {
  index_t rows = 0;
  index_t cols = 0;
  const index_t* row_offsets = nullptr;  // rows + 1 entries
  const index_t* columns = nullptr;      // row_offsets[rows] entries
};

// The pattern as a host CsrMatrix without values, copied out of the space (Space::download:
// on the GPU the one download of the pattern, for a setup that analyses it on the host).
template <class T, class Space>
CsrMatrix<T> host_pattern(Space& space, const SpacePattern& pattern) {
  CsrMatrix<T> matrix;
  matrix.rows = pattern.rows;
  matrix.cols = pattern.cols;
  matrix.row_offsets =
      space.download(pattern.row_offsets, static_cast<std::size_t>(pattern.rows) + 1);
  matrix.columns =
      space.download(pattern.columns, static_cast<std::size_t>(matrix.row_offsets.back()));
  return matrix;
}

}  // namespace spk
