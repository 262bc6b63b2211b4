#pragma once
// Preconditioned Conjugate Gradient, written once for any vector space (HostSpace or
// DeviceSpace). The driver (solver/krylov_driver.hpp) calls initialize() once and then
// iterate() repeatedly without looking at any scalar; stopping is decided by the scalar
// steps inside the space (see solver/krylov_scalars.hpp).
//
// Memory traffic per iteration (n rows, no preconditioner): one SpMV, plus
//   cublas: dot(p,Ap) 2n + axpy x 3n + axpy r 3n + dot(r,r) 2n + scal p 2n + axpy p 3n = 15n
//   fused (solver.vector_ops): dot(p,Ap) 2n + [r -= alpha Ap, (r,r)] 3n + [x += alpha p,
//          p = r + beta p] 5n = 10n (x's update waits for beta's pass: Ghysels & Vanroose's
//          and Ginkgo's step split, anchors-performance-kernels.md 1.2); with Jacobi, D^-1 r is
//          made inside both passes (+1n each, z never stored) instead of a separate apply,
//          dot and norm (7n).
#include <cstddef>

#include "solver/krylov_method.hpp"

namespace spk {

namespace cg_steps {

// After r0: set the stopping targets and test ||r0||.
template <class T>
struct Start {
  bool preconditioned;
  bool restart;
  SPK_HOST_DEVICE void operator()(KrylovScalars<T>& s) const {
    // ||r0|| = sqrt((r,r)) without a preconditioner, else ||r|| already in residual_norm
    const T r_norm = preconditioned ? s.residual_norm : norm_from_square(s.rho);
    if (!restart) s.set_stopping_targets(r_norm);
    s.check_residual(r_norm);
    if (s.running() && preconditioned && !(s.rho > T(0)))
      s.stop(SolveStatus::breakdown, BreakdownQuantity::r_z);
    if (!s.running()) s.freeze();
  }
};

// alpha = rho / (p, Ap)
template <class T>
struct Alpha {
  SPK_HOST_DEVICE void operator()(KrylovScalars<T>& s) const {
    if (s.running()) {
      if (!is_finite(static_cast<double>(s.p_ap)))
        s.stop(SolveStatus::non_finite);
      else if (!(s.p_ap > T(0)))
        s.stop(SolveStatus::breakdown, BreakdownQuantity::p_ap);
    }
    if (!s.running()) {
      s.freeze();
      s.deferred_alpha = T(0);
      return;
    }
    s.rho_old = s.rho;
    s.alpha = s.rho / s.p_ap;
    s.minus_alpha = -s.alpha;
    s.deferred_alpha = s.alpha;
  }
};

// beta = (r_new, z_new) / (r_old, z_old), after testing ||r_new|| (fused: sqrt of r_r, the
// fused pass's (r, r))
template <class T>
struct Beta {
  bool preconditioned;
  bool fused = false;
  SPK_HOST_DEVICE void operator()(KrylovScalars<T>& s) const {
    if (!s.running()) {
      s.freeze();
      return;
    }
    s.iteration += 1;
    if (fused) s.residual_norm = norm_from_square(s.r_r);
    s.check_residual(preconditioned || fused ? s.residual_norm : norm_from_square(s.rho));
    if (s.running() && preconditioned && !(s.rho > T(0)))
      s.stop(SolveStatus::breakdown, BreakdownQuantity::r_z);
    if (!s.running()) {
      s.freeze();
      return;
    }
    s.beta = s.rho / s.rho_old;
  }
};

}  // namespace cg_steps

template <class Space>
class ConjugateGradient : KrylovMethodBase<Space> {
  using Base = KrylovMethodBase<Space>;
  using Base::fused_, Base::space_, Base::matrix_, Base::preconditioner_, Base::n_;
  using Base::preconditioned, Base::precondition;

 public:
  using T = typename Space::value_type;

  // preconditioner: M^-1, or nullptr for none (then z is r itself, no copy).
  ConjugateGradient(Space& space, const LinearOperator<T>& matrix,
                    KrylovPreconditioner<Space>* preconditioner, bool fused = false)
      : Base(space, matrix, preconditioner, fused),
        r_(this->vector("CG residual r")),
        p_(this->vector("CG direction p")),
        ap_(this->vector("CG product Ap")),
        z_(this->vector("CG preconditioned z", preconditioner != nullptr)) {}

  // r0 = b - A x0, z0 = M r0, p0 = z0, rho = (r0, z0). `restart` keeps the stopping targets
  // (residual replacement after a false convergence); `residual`, when given, is b - A x0
  // already computed (the driver's true residual).
  void initialize(const T* b, T* x, bool restart, const T* residual = nullptr) {
    KrylovScalars<T>* s = space_.scalars();
    T* z = preconditioned() ? z_.data() : r_.data();
    this->start_residual(b, x, restart, residual, r_.data());              // r = b - A x0
    precondition(r_.data(), z);                                            // z = M r
    space_.copy(n_, z, p_.data());                                         // p = z
    space_.dot(n_, r_.data(), z, &s->rho);                                 // rho = (r, z)
    if (preconditioned()) norm(space_, n_, r_.data(), &s->residual_norm);  // ||r||
    space_.scalar_step(cg_steps::Start<T>{preconditioned(), restart});
  }

  void iterate(const T* b, T* x) {
    if (fused_) {
      iterate_fused(x);
      return;
    }
    (void)b;
    KrylovScalars<T>* s = space_.scalars();
    T* z = preconditioned() ? z_.data() : r_.data();
    matrix_.apply(p_.data(), ap_.data());                                  // Ap = A p
    space_.dot(n_, p_.data(), ap_.data(), &s->p_ap);                       // (p, Ap)
    space_.scalar_step(cg_steps::Alpha<T>{});                              // alpha = rho / (p, Ap)
    space_.axpy(n_, &s->alpha, p_.data(), x);                              // x = x + alpha p
    space_.axpy(n_, &s->minus_alpha, ap_.data(), r_.data());               // r = r - alpha Ap
    precondition(r_.data(), z);                                            // z = M r
    space_.dot(n_, r_.data(), z, &s->rho);                                 // rho = (r, z)
    if (preconditioned()) norm(space_, n_, r_.data(), &s->residual_norm);  // ||r||
    space_.scalar_step(cg_steps::Beta<T>{preconditioned()});               // beta = rho / rho_old
    space_.scal(n_, &s->beta, p_.data());                                  // p = beta p
    space_.axpy(n_, &s->one, z, p_.data());                                // p = z + beta p
  }

 private:
  // The same iteration with vector_ops: fused: one pass updates r and sums (r, z) and (r, r)
  // (Jacobi's z = D^-1 r made inside it, not stored), and one pass updates x with this
  // iteration's alpha and p = z + beta p. A distributed space sums the two in one reduction.
  void iterate_fused(T* x) {
    KrylovScalars<T>* s = space_.scalars();
    const T* diagonal = preconditioned() ? preconditioner_->inverse_diagonal() : nullptr;
    const bool stored_z = preconditioned() && diagonal == nullptr;  // another preconditioner
    const cg_steps::Beta<T> beta_step{preconditioned(), true};
    // alpha = rho / (p, Ap), made and used inside the update pass (no launch of its own)
    const CoefficientStep<T, cg_steps::Alpha<T>, &KrylovScalars<T>::alpha> alpha{};
    // Ap = A p and (p, Ap) (in the SpMV's kernel where the format folds it)
    space_.apply_dots(matrix_, p_.data(), ap_.data(), p_.data(), &s->p_ap, 1);
    // alpha, then r -= alpha Ap, rho = (r, D^-1 r) (or (r, r)), r_r = (r, r), then (no other
    // preconditioner) beta = rho / rho_old
    if (stored_z) {
      space_.cg_update(n_, alpha, p_.data(), ap_.data(), nullptr, r_.data(), diagonal, nullptr,
                       &s->rho);
      precondition(r_.data(), z_.data());                              // z = M r
      space_.fused_dot(n_, r_.data(), z_.data(), &s->rho, beta_step);  // rho = (r, z), beta
    } else {
      space_.cg_update(n_, alpha, p_.data(), ap_.data(), nullptr, r_.data(), diagonal, nullptr,
                       &s->rho, beta_step);
    }
    // x += alpha p, p = z + beta p (z = D^-1 r for Jacobi, made in the pass)
    space_.cg_direction(n_, &s->deferred_alpha, &s->beta, x, p_.data(),
                        stored_z ? z_.data() : r_.data(), diagonal);
  }

  typename Base::Vector r_, p_, ap_, z_;
};

}  // namespace spk
