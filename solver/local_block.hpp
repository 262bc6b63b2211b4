#pragma once
// What block Jacobi (solver/block_jacobi.hpp) needs of this process's diagonal block when the
// solver's vector space is distributed: the entries of its rows whose columns it owns
// (SplitRows::local, distributed/local_halo_split.hpp), as an operator and a pattern in the
// memory of the local space, and where each of them sits in the whole rows' values, which
// update_values receives. The distributed solvers make it; a one-process solver passes none
// (make_preconditioner, solver/preconditioner_factory.hpp), and the block is then the matrix.
//
// LocalSpaceOf<Space>::type is the space the local preconditioner runs in: Space itself, or
// for DistributedSpace<Inner> (specialized in distributed/distributed_space.hpp) Inner, a
// plain HostSpace or DeviceSpace whose dot products stay on this process.
#include "solver/amg/amg_build.hpp"
#include "solver/amg/level_operator.hpp"
#include "solver/space_pattern.hpp"
#include "spmv/host/csr_matrix.hpp"
#include "spmv/linear_operator.hpp"

namespace spk {

template <class Space>
struct LocalSpaceOf {
  using type = Space;
};

// Local: the local space (LocalSpaceOf<the solver's space>::type). Pointers are not owned and
// are read during the preconditioner's setup only (it keeps copies of what it needs later),
// except `matrix`, which must outlive the preconditioner.
template <class Local>
struct LocalBlock {
  using T = typename Local::value_type;
  // y = A_local x over this process's rows and own columns, ordered with the local space's
  // work (on a GPU: on the solver's stream, or forked from it and joined back). Chebyshev and
  // AMG apply it; the factorizations and Jacobi read only the pattern and values.
  const LinearOperator<T>* matrix = nullptr;
  SpacePattern pattern;       // rows x rows, in Local's memory (CSR, own columns renumbered)
  const T* values = nullptr;  // its nnz values at setup, in pattern's CSR order
  index_t nnz = 0;            // the block's entries (the pattern may be in device memory)
  // nnz entries: block entry k is entry positions[k] of the whole rows' values (the CSR order
  // of SplitRows::pattern, what update_values receives), in Local's memory
  const index_t* positions = nullptr;
  global_index_t first_row = 0;  // the global row of the block's row 0: errors name global rows
  int rank = -1;  // this process where several share the matrix (errors name it); -1: one
  // How the local AMG builds its levels' operators (the plain space's factories).
  LevelOperatorFactories<typename AmgBuildOf<Local>::type::Matrix> level_operators;
};

}  // namespace spk
