#pragma once
// Pipelined preconditioned Conjugate Gradient (Ghysels & Vanroose, "Hiding global
// synchronization latency in the preconditioned Conjugate Gradient algorithm", Parallel
// Computing 2014, Alg. 3; PETSc's KSPPIPECG), written once for any vector space.
//
// CG needs two reductions an iteration, (p, Ap) and (r, z), each waiting for the vector just
// made. Pipelined CG carries w = A u (u = M r) and the auxiliary recurrences z = A q, q = M s,
// s = A p, so that the three sums of an iteration, gamma = (r, u), delta = (w, u) and ||r||^2,
// are one reduction which does not wait for this iteration's product: over several processes
// it runs while M w and A M w are computed (space.start_sums ... finish_sums: one
// nonblocking allreduce of 3 values). Iteration i:
//
//   start summing gamma_i, delta_i, (r_i, r_i)           (made by the last update pass)
//   m = M w;  n = A m                                     (overlapping the sum)
//   finish the sum; test ||r_i||; beta = gamma_i / gamma_{i-1},
//     alpha = gamma_i / (delta_i - beta gamma_i / alpha_{i-1})   (i = 0 after a start:
//     beta = 0, alpha = gamma / delta)
//   z = n + beta z, q = m + beta q, s = w + beta s, p = u + beta p,
//   x += alpha p, r -= alpha s, u -= alpha q, w -= alpha z, and the sums of the new r, u, w
//   (one pass: space.pipecg_update, solver/pipecg_pass.hpp; its scalar step runs inside it)
//
// The test of ||r_i|| lags the update that made r_i by one product, so a solve runs one more
// product than CG to see its convergence; the iteration it reports is the one of r_i (the same
// count as CG's, x_i the answer: a stopped step freezes the pass). The recursive residual
// drifts from b - A x more than CG's (more recurrences); the driver's true-residual check and
// residual replacement (krylov_driver.hpp) restart it from b - A x where it matters.
//
// Jacobi is folded into the pass (u = D^-1 r, m = D^-1 w made there, no apply, no u, q, m
// stored); any other M is applied to w between the start and the end of the sum.
//
// Memory traffic per iteration (n rows, vectors only): none 13n (read n z s w p r x, write z s
// p x r w), Jacobi 15n (+ read D^-1, write m), another M 18n (+ u q m read, q u written) plus
// its apply; fused CG is 10n (12n with Jacobi). What pipelining buys is the hidden reduction.
#include <cstddef>
#include <initializer_list>

#include "solver/krylov_method.hpp"
#include "solver/pipecg_pass.hpp"

namespace spk {

namespace pipecg_steps {

// The update pass of a start: alpha = beta = 0 (x, r, u, w stay as they are; the pass makes
// the sums of r0, u0, w0, and Jacobi's m0 = D^-1 w0).
template <class T>
struct StartPass {
  SPK_HOST_DEVICE void operator()(KrylovScalars<T>& s) const { s.alpha = s.beta = T(0); }
};

// After ||r0||: the stopping targets, the test of ||r0||, and rho_old = 0, which marks the
// next step as the first of the directions (beta = 0).
template <class T>
struct Start {
  bool restart;
  SPK_HOST_DEVICE void operator()(KrylovScalars<T>& s) const {
    if (!restart) s.set_stopping_targets(s.residual_norm);
    s.check_residual(s.residual_norm);
    s.rho_old = T(0);
    if (!s.running()) s.freeze();
  }
};

// The step of iteration i, once gamma = rho, (r, r) = r_r and delta = p_ap are summed:
// count the iteration and test ||r_i|| (not on the first step after a start, which tested
// it), gamma > 0, then beta and alpha. The denominator is (p_i, A p_i) in exact arithmetic.
// A stopped solve freezes (alpha = beta = 0) and the pass then leaves every vector alone.
// The update pass runs it on a private copy in every thread (history off) for alpha and
// beta, and once for real.
template <class T>
struct Coefficients {
  SPK_HOST_DEVICE void operator()(KrylovScalars<T>& s) const {
    if (!s.running()) {
      s.freeze();
      return;
    }
    const bool first = !(s.rho_old > T(0));  // Start set rho_old = 0
    if (!first) {
      s.iteration += 1;
      s.check_residual(norm_from_square(s.r_r));  // ||r_i||
    }
    if (s.running() && !(s.rho > T(0))) s.stop(SolveStatus::breakdown, BreakdownQuantity::r_z);
    if (!s.running()) {
      s.freeze();
      return;
    }
    const T beta = first ? T(0) : s.rho / s.rho_old;  // gamma_i / gamma_{i-1}
    // delta_i - beta gamma_i / alpha_{i-1} (= (p, Ap)); alpha holds alpha_{i-1}
    const T denominator = first ? s.p_ap : s.p_ap - beta * s.rho / s.alpha;
    if (!is_finite(static_cast<double>(denominator)))
      s.stop(SolveStatus::non_finite);
    else if (!(denominator > T(0)))
      s.stop(SolveStatus::breakdown, BreakdownQuantity::p_ap);
    if (!s.running()) {
      s.freeze();
      return;
    }
    s.beta = beta;
    s.alpha = s.rho / denominator;
    s.minus_alpha = -s.alpha;
    s.rho_old = s.rho;
  }
};

// The three sums gamma = (r, u), (r, r), delta = (w, u) are rho, r_r and p_ap: consecutive
// values, one array for the pass and the sum over processes.
template <class T>
constexpr bool sums_are_consecutive() {
  constexpr std::size_t rho = offsetof(KrylovScalars<T>, rho);
  return offsetof(KrylovScalars<T>, r_r) == rho + sizeof(T) &&
         offsetof(KrylovScalars<T>, p_ap) == rho + 2 * sizeof(T);
}
static_assert(sums_are_consecutive<float>() && sums_are_consecutive<double>(),
              "pipelined CG sums into rho, r_r and p_ap as three consecutive values");

}  // namespace pipecg_steps

template <class Space>
class PipelinedCg : KrylovMethodBase<Space> {
  using Base = KrylovMethodBase<Space>;
  using Base::preconditioned, Base::precondition;
  using Base::space_, Base::matrix_, Base::preconditioner_, Base::n_;

 public:
  using T = typename Space::value_type;

  // preconditioner: M^-1, or nullptr for none. solver.vector_ops does not apply: the update
  // is always one pass.
  PipelinedCg(Space& space, const LinearOperator<T>& matrix,
              KrylovPreconditioner<Space>* preconditioner)
      : Base(space, matrix, preconditioner, true),
        diagonal_(preconditioner != nullptr ? preconditioner->inverse_diagonal() : nullptr),
        r_(this->vector("pipelined CG residual r")),
        w_(this->vector("pipelined CG product w")),
        n_product_(this->vector("pipelined CG product n")),
        z_(this->vector("pipelined CG direction z")),
        s_(this->vector("pipelined CG direction s")),
        p_(this->vector("pipelined CG direction p")),
        m_(this->vector("pipelined CG preconditioned m", preconditioner != nullptr)),
        u_(this->vector("pipelined CG preconditioned u", general())),
        q_(this->vector("pipelined CG direction q", general())) {}

  // r0 = b - A x0, the stopping targets and the test of ||r0||; u0 = M r0, w0 = A u0, the
  // directions zero, and the sums of r0, u0, w0 on this process's rows, which the first
  // iterate sums over the processes. `restart` keeps the targets (residual replacement);
  // `residual`, when given, is b - A x0 already computed.
  void initialize(const T* b, T* x, bool restart, const T* residual = nullptr) {
    KrylovScalars<T>* s = space_.scalars();
    this->start_residual(b, x, restart, residual, r_.data());  // r = b - A x0
    norm(space_, n_, r_.data(), &s->residual_norm);            // ||r0||
    space_.scalar_step(pipecg_steps::Start<T>{restart});
    for (T* direction : {z_.data(), s_.data(), p_.data(), n_product_.data()})
      space_.fill_zero(n_, direction);  // z = s = p = 0 (beta = 0 reads them), n = 0
    if (general()) {
      space_.fill_zero(n_, q_.data());
      precondition(r_.data(), u_.data());   // u = M r
      matrix_.apply(u_.data(), w_.data());  // w = A u
      space_.fill_zero(n_, m_.data());      // m = 0 (read by the start pass)
    } else if (diagonal_ != nullptr) {
      space_.multiply_elementwise(n_, diagonal_, r_.data(), m_.data());  // u = D^-1 r (in m)
      matrix_.apply(m_.data(), w_.data());                               // w = A u
    } else {
      matrix_.apply(r_.data(), w_.data());  // w = A r
    }
    // the sums (r, u), (r, r), (w, u) of this process's rows, Jacobi's m = D^-1 w
    space_.pipecg_update(n_, pipecg_steps::StartPass<T>{}, vectors(x), &s->rho);
  }

  void iterate(const T* /*b*/, T* x) {
    KrylovScalars<T>* s = space_.scalars();
    space_.start_sums(&s->rho, 3);                      // gamma, (r, r), delta over the processes
    if (general()) precondition(w_.data(), m_.data());  // m = M w
    matrix_.apply(product_input(), n_product_.data());  // n = A m
    space_.finish_sums();
    // test ||r||, alpha, beta; the directions, x, r, u, w; the new sums (this process's)
    space_.pipecg_update(n_, pipecg_steps::Coefficients<T>{}, vectors(x), &s->rho);
  }

 private:
  // A preconditioner other than Jacobi: u, q, m stored and M applied.
  bool general() const { return preconditioned() && diagonal_ == nullptr; }
  // m (M w, stored) or, without a preconditioner, w itself
  const T* product_input() const { return preconditioned() ? m_.data() : w_.data(); }

  PipeCgVectors<T> vectors(T* x) {
    PipeCgVectors<T> v;
    v.n = n_product_.data();
    v.z = z_.data();
    v.s = s_.data();
    v.p = p_.data();
    v.x = x;
    v.r = r_.data();
    v.w = w_.data();
    if (general()) {
      v.u = u_.data();
      v.q = q_.data();
      v.m = m_.data();
    } else if (diagonal_ != nullptr) {
      v.inverse_diagonal = diagonal_;
      v.m_next = m_.data();
    }
    return v;
  }

  const T* diagonal_;  // Jacobi's D^-1, else null
  typename Base::Vector r_, w_, n_product_, z_, s_, p_, m_, u_, q_;
};

}  // namespace spk
