#pragma once
// KrylovPreconditioner<Space>: z = M^-1 r for a Krylov method, written against a vector space
// (solver/vector_space.hpp) so one implementation serves every space it makes sense in: the
// host, the device and the distributed one (solver/preconditioner_factory.hpp says which kinds
// each path takes). Setup happens in the implementation's constructor; the methods see only
// apply(). Implementations: JacobiPreconditioner (jacobi.hpp), ChebyshevPreconditioner
// (chebyshev.hpp), IncompleteFactorizationPreconditioner (IC(0)/ILU(0),
// incomplete_factorization.hpp), AmgPreconditioner (amg/amg_preconditioner.hpp),
// SinglePrecisionPreconditioner, which runs any of them in fp32 under fp64 vectors
// (single_precision_preconditioner.hpp), and BlockJacobiPreconditioner, any of the others on
// each process's diagonal block (block_jacobi.hpp).
#include <string>

#include "spkrylov/setup_info.hpp"

namespace spk {

template <class Space>
class KrylovPreconditioner {
 public:
  using T = typename Space::value_type;
  virtual ~KrylovPreconditioner() = default;

  // z = M^-1 r. r and z have the operator's rows() entries, in the space, and do not alias.
  virtual void apply(const T* r, T* z) = 0;
  // New matrix values for the same pattern: nnz values in the CSR order of the matrix the
  // preconditioner was built from, in the space. Asynchronous where the space is; problems
  // it finds (a zero pivot) are reported by check().
  virtual void update_values(const T* csr_values) = 0;
  // Throws BadInput if the last setup or update_values found the values unusable (for
  // example BadDiagonal for a zero Jacobi pivot). Synchronizes only when an update is pending.
  virtual void check() = 0;
  virtual std::string name() const = 0;
  // D^-1 for a diagonal preconditioner (Jacobi), whose apply fused vector ops can fold into
  // their pass over r; nullptr for any other.
  virtual const T* inverse_diagonal() const { return nullptr; }
  // What setup (or the last update_values) built, for SetupInfo::preconditioner.
  virtual PreconditionerInfo info() const {
    PreconditionerInfo info;
    info.name = name();
    return info;
  }
};

}  // namespace spk
