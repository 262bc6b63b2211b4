#pragma once
// KrylovMethodBase<Space>: what every Krylov method of solver/ holds and does besides its own
// recurrence, written once: the vector space, the operator, the preconditioner M^-1 (or none),
// the row count, whether solver.vector_ops is fused; work vectors from the space; z = M^-1 r
// where there is an M; and the first residual, r0 = b - A x0 (or the driver's true residual on
// a restart). A method (cg.hpp, bicgstab.hpp) derives from it and adds its vectors, its
// initialize() and its iterate().
#include <cstddef>

#include "solver/krylov_scalars.hpp"
#include "solver/preconditioner.hpp"
#include "solver/vector_space.hpp"
#include "spmv/linear_operator.hpp"

namespace spk {

template <class Space>
class KrylovMethodBase {
 public:
  using T = typename Space::value_type;
  using Vector = typename Space::template Array<T>;

 protected:
  KrylovMethodBase(Space& space, const LinearOperator<T>& matrix,
                   KrylovPreconditioner<Space>* preconditioner, bool fused)
      : fused_(fused),
        space_(space),
        matrix_(matrix),
        preconditioner_(preconditioner),
        n_(static_cast<std::size_t>(matrix.rows())) {}

  // A work vector of n entries named `what` (in allocation errors); none when not `needed`.
  Vector vector(const char* what, bool needed = true) {
    return space_.template allocate<T>(needed ? n_ : 0, what);
  }

  bool preconditioned() const { return preconditioner_ != nullptr; }
  void precondition(const T* r, T* z) {
    if (preconditioned()) preconditioner_->apply(r, z);
  }

  // ||b|| unless this is a restart (the stopping targets are kept), then r = b - A x0, or
  // `residual` when given (b - A x0 already computed: the driver's true residual).
  void start_residual(const T* b, const T* x, bool restart, const T* residual, T* r) {
    KrylovScalars<T>* s = space_.scalars();
    if (!restart) norm(space_, n_, b, &s->b_norm);  // ||b||
    if (residual != nullptr) {
      space_.copy(n_, residual, r);  // r = b - A x0, given
    } else {
      space_.copy(n_, b, r);                    // r = b
      matrix_.apply_scaled(T(-1), x, T(1), r);  // r = b - A x0
    }
  }

  bool fused_;
  Space& space_;
  const LinearOperator<T>& matrix_;
  KrylovPreconditioner<Space>* preconditioner_;
  std::size_t n_;
};

}  // namespace spk
