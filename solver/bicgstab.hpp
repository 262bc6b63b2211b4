#pragma once
// Preconditioned BiCGSTAB (van der Vorst 1992; right preconditioning as in Saad's
// "Iterative Methods", Alg. 7.7 with M), written once for any vector space.
//
// s is computed in place in r (r <- r - alpha v), and x is advanced by alpha p_hat before
// the half-step test, so a half-step convergence leaves x and r consistent and the second
// half is frozen. Breakdowns are reported, never divided through:
//   rho = (r_hat, r) with |rho| <= eps^2 ||r_hat|| ||r|| -> breakdown rho
//   (r_hat, v) = 0 or alpha not finite                  -> breakdown (r_hat,v)
//   |(t, s)| <= eps^2 ||t|| ||s|| (omega ~ 0)           -> breakdown omega
// The thresholds are eps^2, not eps, relative to the norms: on nonnormal systems (upwind
// convection-diffusion) |rho| / (||r_hat|| ||r||) drops below eps for a while and the
// iteration still recovers, as SciPy's (which tests |rho| < eps^2 absolutely) does.
#include <cstddef>

#include "solver/krylov_method.hpp"

namespace spk {

namespace bicgstab_steps {

// eps^2 of T, as a double: the relative size below which an inner product counts as zero.
template <class T>
SPK_HOST_DEVICE double tiny_fraction() {
  const double eps = static_cast<double>(epsilon_of<T>());
  return eps * eps;
}

// After r0 = b - A x0 and ||r0||: set the stopping targets, rho_old = alpha = omega = 1.
template <class T>
struct Start {
  bool restart;
  SPK_HOST_DEVICE void operator()(KrylovScalars<T>& s) const {
    if (!restart) s.set_stopping_targets(s.residual_norm);
    s.rho_old = s.alpha = s.omega = T(1);
    s.check_residual(s.residual_norm);
    if (!s.running()) s.freeze();
  }
};

// beta = (rho / rho_old) (alpha / omega)
template <class T>
struct Beta {
  SPK_HOST_DEVICE void operator()(KrylovScalars<T>& s) const {
    if (s.running()) {
      const double rho = static_cast<double>(s.rho);
      const double scale =
          tiny_fraction<T>() * static_cast<double>(s.residual_norm) * s.restart_residual;
      if (!is_finite(rho))
        s.stop(SolveStatus::non_finite);
      else if (!(rho < -scale || rho > scale))
        s.stop(SolveStatus::breakdown, BreakdownQuantity::rho);
    }
    if (!s.running()) {
      s.freeze();
      return;
    }
    s.beta = (s.rho / s.rho_old) * (s.alpha / s.omega);
    s.minus_omega = -s.omega;
  }
};

// alpha = rho / (r_hat, v)
template <class T>
struct Alpha {
  SPK_HOST_DEVICE void operator()(KrylovScalars<T>& s) const {
    if (s.running()) {
      const T alpha = s.rho / s.rhat_v;
      if (!is_finite(static_cast<double>(s.rhat_v)))
        s.stop(SolveStatus::non_finite);
      else if (s.rhat_v == T(0) || !is_finite(static_cast<double>(alpha)))
        s.stop(SolveStatus::breakdown, BreakdownQuantity::rhat_v);
      else {
        s.alpha = alpha;
        s.minus_alpha = -alpha;
        s.rho_old = s.rho;
        return;
      }
    }
    s.freeze();
  }
};

// Half step: stop if ||s|| already meets the tolerance (x = x + alpha p_hat is the answer).
// fused: s_norm holds ||s||^2 (the fused pass's sum), made a norm here.
template <class T>
struct HalfStep {
  bool fused = false;
  SPK_HOST_DEVICE void operator()(KrylovScalars<T>& s) const {
    if (fused) s.s_norm = norm_from_square(s.s_norm);
    if (!s.running()) {
      s.freeze();
      return;
    }
    const double s_norm = static_cast<double>(s.s_norm);
    if (!is_finite(s_norm) || s_norm <= s.threshold) {
      s.iteration += 1;
      s.check_residual(s.s_norm);
      s.freeze();
    }
  }
};

// omega = (t, s) / (t, t)
template <class T>
struct Omega {
  SPK_HOST_DEVICE void operator()(KrylovScalars<T>& s) const {
    if (s.running()) {
      const double t_s = static_cast<double>(s.t_s);
      const double t_t = static_cast<double>(s.t_t);
      const double scale = tiny_fraction<T>() * static_cast<double>(norm_from_square(s.t_t)) *
                           static_cast<double>(s.s_norm);
      if (!is_finite(t_s) || !is_finite(t_t))
        s.stop(SolveStatus::non_finite);
      else if (!(t_t > 0.0) || !(t_s < -scale || t_s > scale))
        s.stop(SolveStatus::breakdown, BreakdownQuantity::omega);
      else {
        s.omega = s.t_s / s.t_t;
        s.minus_omega = -s.omega;
        return;
      }
    }
    s.freeze();
  }
};

// After r = s - omega t: count the iteration and test ||r||. fused: ||r|| from r_r = (r, r),
// the fused pass's sum (which also gave the next rho).
template <class T>
struct End {
  bool fused = false;
  SPK_HOST_DEVICE void operator()(KrylovScalars<T>& s) const {
    if (fused) s.residual_norm_candidate = norm_from_square(s.r_r);
    if (!s.running()) {
      s.freeze();
      return;
    }
    s.iteration += 1;
    s.check_residual(s.residual_norm_candidate);
    if (!s.running()) s.freeze();
  }
};

}  // namespace bicgstab_steps

template <class Space>
class BiCgStab : KrylovMethodBase<Space> {
  using Base = KrylovMethodBase<Space>;
  using Base::fused_, Base::space_, Base::matrix_, Base::preconditioner_, Base::n_;
  using Base::preconditioned, Base::precondition;

 public:
  using T = typename Space::value_type;

  // preconditioner: M^-1 (right preconditioning), or nullptr for none. fused: vector_ops
  // fused (iterate_fused).
  BiCgStab(Space& space, const LinearOperator<T>& matrix,
           KrylovPreconditioner<Space>* preconditioner, bool fused = false)
      : Base(space, matrix, preconditioner, fused),
        r_(this->vector("BiCGSTAB residual r")),
        r_hat_(this->vector("BiCGSTAB shadow residual r_hat")),
        p_(this->vector("BiCGSTAB direction p")),
        v_(this->vector("BiCGSTAB product v")),
        t_(this->vector("BiCGSTAB product t")),
        p_hat_(this->vector("BiCGSTAB p_hat", preconditioner != nullptr)),
        s_hat_(this->vector("BiCGSTAB s_hat", preconditioner != nullptr)) {}

  // r0 = b - A x0, r_hat = r0, p = v = 0.
  void initialize(const T* b, T* x, bool restart, const T* residual = nullptr) {
    KrylovScalars<T>* s = space_.scalars();
    this->start_residual(b, x, restart, residual, r_.data());  // r = b - A x0
    space_.copy(n_, r_.data(), r_hat_.data());                 // r_hat = r0
    space_.fill_zero(n_, p_.data());                           // p = 0
    space_.fill_zero(n_, v_.data());                           // v = 0
    norm(space_, n_, r_.data(), &s->residual_norm);            // ||r0||
    space_.scalar_step(bicgstab_steps::Start<T>{restart});
    norm(space_, n_, r_hat_.data(), &s->restart_residual);          // ||r_hat||
    if (fused_) space_.dot(n_, r_hat_.data(), r_.data(), &s->rho);  // rho = (r_hat, r0)
  }

  void iterate(const T* /*b*/, T* x) {
    if (fused_) {
      iterate_fused(x);
      return;
    }
    KrylovScalars<T>* s = space_.scalars();
    T* p_hat = preconditioned() ? p_hat_.data() : p_.data();
    T* s_hat = preconditioned() ? s_hat_.data() : r_.data();
    space_.dot(n_, r_hat_.data(), r_.data(), &s->rho);         // rho = (r_hat, r)
    space_.scalar_step(bicgstab_steps::Beta<T>{});             // beta = (rho/rho_old)(alpha/omega)
    space_.axpy(n_, &s->minus_omega, v_.data(), p_.data());    // p = p - omega v
    space_.scal(n_, &s->beta, p_.data());                      // p = beta (p - omega v)
    space_.axpy(n_, &s->one, r_.data(), p_.data());            // p = r + beta (p - omega v)
    precondition(p_.data(), p_hat);                            // p_hat = M p
    matrix_.apply(p_hat, v_.data());                           // v = A p_hat
    space_.dot(n_, r_hat_.data(), v_.data(), &s->rhat_v);      // (r_hat, v)
    space_.scalar_step(bicgstab_steps::Alpha<T>{});            // alpha = rho / (r_hat, v)
    space_.axpy(n_, &s->minus_alpha, v_.data(), r_.data());    // s = r - alpha v (in r)
    space_.axpy(n_, &s->alpha, p_hat, x);                      // x = x + alpha p_hat
    norm(space_, n_, r_.data(), &s->s_norm);                   // ||s||
    space_.scalar_step(bicgstab_steps::HalfStep<T>{});         // stop if ||s|| <= threshold
    precondition(r_.data(), s_hat);                            // s_hat = M s
    matrix_.apply(s_hat, t_.data());                           // t = A s_hat
    space_.dot(n_, t_.data(), r_.data(), &s->t_s);             // (t, s)
    space_.dot(n_, t_.data(), t_.data(), &s->t_t);             // (t, t)
    space_.scalar_step(bicgstab_steps::Omega<T>{});            // omega = (t, s) / (t, t)
    space_.axpy(n_, &s->omega, s_hat, x);                      // x = x + omega s_hat
    space_.axpy(n_, &s->minus_omega, t_.data(), r_.data());    // r = s - omega t
    norm(space_, n_, r_.data(), &s->residual_norm_candidate);  // ||r||
    space_.scalar_step(bicgstab_steps::End<T>{});              // test ||r||
  }

 private:
  // The same iteration with vector_ops: fused, in five passes over the vectors besides the two
  // products (about 21 vector reads and writes against 31): p's update is one pass (Jacobi's
  // p_hat = D^-1 p inside it); s = r - alpha v with x += alpha p_hat and ||s||^2 one (and
  // s_hat = D^-1 s); (t, s) and (t, t) one; x += omega s_hat and r = s - omega t with ||r||^2
  // and the next iteration's rho = (r_hat, r) one. The same algebra, other rounding: counts
  // match the cuBLAS path's within a few iterations, not bit for bit.
  void iterate_fused(T* x) {
    KrylovScalars<T>* s = space_.scalars();
    const T* diagonal = preconditioned() ? preconditioner_->inverse_diagonal() : nullptr;
    const bool other = preconditioned() && diagonal == nullptr;  // not foldable into a pass
    T* p_hat = preconditioned() ? p_hat_.data() : p_.data();
    T* s_hat = preconditioned() ? s_hat_.data() : r_.data();
    const CoefficientStep<T, bicgstab_steps::Alpha<T>, &KrylovScalars<T>::alpha> alpha{};
    const CoefficientStep<T, bicgstab_steps::Omega<T>, &KrylovScalars<T>::omega> omega{};
    space_.scalar_step(bicgstab_steps::Beta<T>{});  // beta = (rho/rho_old)(alpha/omega)
    // p = r + beta (p - omega v) [, p_hat = D^-1 p]
    space_.bicgstab_direction(n_, r_.data(), v_.data(), &s->beta, &s->omega, p_.data(), diagonal,
                              p_hat);
    if (other) precondition(p_.data(), p_hat);  // p_hat = M p
    // v = A p_hat and (r_hat, v) (in the SpMV's kernel where the format folds it)
    space_.apply_dots(matrix_, p_hat, v_.data(), r_hat_.data(), &s->rhat_v, 1);
    // alpha = rho / (r_hat, v) (made inside the pass), x = x + alpha p_hat, s = r - alpha v (in
    // r) [, s_hat = D^-1 s], ||s||^2, then stop if ||s|| <= threshold
    space_.bicgstab_update(n_, alpha, p_hat, v_.data(), x, r_.data(), diagonal, s_hat, nullptr,
                           &s->s_norm, bicgstab_steps::HalfStep<T>{true});
    if (other) precondition(r_.data(), s_hat);  // s_hat = M s
    // t = A s_hat, (t, s) and (t, t) (in the SpMV's kernel where the format folds them)
    space_.apply_dots(matrix_, s_hat, t_.data(), r_.data(), &s->t_s, 2);
    // omega = (t, s) / (t, t) (made inside the pass), x = x + omega s_hat, r = s - omega t,
    // rho = (r_hat, r), r_r = (r, r), then test ||r||
    space_.bicgstab_update(n_, omega, s_hat, t_.data(), x, r_.data(), nullptr, nullptr,
                           r_hat_.data(), &s->rho, bicgstab_steps::End<T>{true});
  }

  typename Base::Vector r_, r_hat_, p_, v_, t_, p_hat_, s_hat_;
};

}  // namespace spk
