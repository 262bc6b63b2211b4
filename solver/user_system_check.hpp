#pragma once
// check_user_system: what a system given by user operators (include/spkrylov/user_operator.hpp)
// can be solved with, checked before anything is built: an A, rows >= 1, the default SpMV
// format and values, and a preconditioner that needs no matrix entries (none, jacobi with
// the caller's diagonal, or the caller's M).
#include <string>

#include "spkrylov/errors.hpp"
#include "spkrylov/options.hpp"
#include "spkrylov/user_operator.hpp"

namespace spk {

template <class T>
void check_user_system(const UserSystem<T>& system, const SolverOptions& options,
                       const SpmvOptions& spmv) {
  if (!system.matrix) throw BadInput("user system: no operator A (UserSystem::matrix is null)");
  if (system.rows < 1)
    throw BadInput("user system: rows must be >= 1, got " + std::to_string(system.rows));
  if (spmv.format != Format::csr)
    throw NotSupported(std::string("spmv.format ") + to_string(spmv.format) +
                       ": a system given by a user operator has no storage format");
  if (spmv.matrix_values != MatrixValues::solver)
    throw NotSupported("spmv.matrix_values single: a user operator's values are its own");
  const Preconditioner kind = options.preconditioner;
  if (system.preconditioner && kind != Preconditioner::none)
    throw BadInput(std::string("solver.preconditioner ") + to_string(kind) +
                   " and a user preconditioner M both given: set solver.preconditioner none");
  if (kind == Preconditioner::jacobi &&
      system.diagonal.size() != static_cast<std::size_t>(system.rows))
    throw BadInput("solver.preconditioner jacobi with a user operator needs diag(A): " +
                   std::to_string(system.diagonal.size()) + " diagonal entries given, " +
                   std::to_string(system.rows) + " rows");
  if (kind != Preconditioner::none && kind != Preconditioner::jacobi)
    throw NotSupported(std::string("solver.preconditioner ") + to_string(kind) +
                       ": it is built from the matrix's entries, which a user operator does "
                       "not give (use none, jacobi with a diagonal, or a user M)");
}

}  // namespace spk
