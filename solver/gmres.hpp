#pragma once
// Restarted GMRES(m) (Saad & Schultz 1986) with right preconditioning, and flexible GMRES
// (FGMRES, Saad 1993), written once for any vector space.
//
// GMRES(m) solves A M^-1 u = r0 over the Krylov space K_m(A M^-1, r0) and sets x = x0 + M^-1 u:
// it minimises the TRUE residual ||b - A x|| of the unpreconditioned system over x0 + M^-1 K_m.
// Arnoldi builds an orthonormal basis V_{m+1} with A M^-1 V_m = V_{m+1} H, H (m+1) x m upper
// Hessenberg; Givens rotations turn H into R as the steps go, and g = Q ||r0|| e1, whose last
// entry is the residual of the cycle's least-squares solution, so the residual is known every
// step without x. After m steps, x = x0 + M^-1 V_m y with R y = g, and the next cycle starts
// from the true residual b - A x (as SciPy's gmres does). FGMRES stores Z_m = [M^-1 v_0, ...,
// M^-1 v_{m-1}] and sets x = x0 + Z_m y: the preconditioner may then change from one step to
// the next (an fp32 AMG cycle, an inner solve).
//
// Orthogonalisation: classical Gram-Schmidt, each pass j+1 independent dot products (not j+1
// dependent ones as in MGS): h = V^T w (basis_dots: one pass over w and the columns, one
// reduction over processes; the first pass also sums ||w||^2), then w -= V h (basis_combine,
// one pass). The pass's norm comes from its dots, ||w - V h||^2 = ||w||^2 - ||h||^2, where that
// is at least half of ||w||^2 (accurate there); the Arnoldi step then runs before the update
// (in the dots' last block on the device), and the update writes v_{k+1} = (w - V h) / H(k+1,
// k) straight into v and V's column k+1. A second pass (H(:, k) = h1 + h2) runs either always
// (solver.orthogonalization: cgs2; Giraud, Langou & Rozloznik 2005: orthogonal to working
// precision, like MGS) or only where the first pass removed more than half of ||w||^2
// (selective: the "twice is enough" test of Kahan and Parlett; PETSc's refine_ifneeded). The
// decisions are made on the device from the passes' own sums (gmres_steps.hpp), and a skipped
// pass's operations see a count of 0 and do nothing (a launch each), so every iteration makes
// the same launches.
//
// Where the cycle stands lives in the space (gmres_steps.hpp: GmresState) and the basis
// operations read it there, so every iteration makes the same launches wherever it falls in a
// cycle, and a block of iterations replays as one CUDA graph with no host synchronization. The
// host does what a cycle's end needs (x, b - A x, a new v0) between blocks: the driver ends a
// block at every cycle's end (block_limit) and calls end_block. x is formed only when it is
// needed (current_solution: a cycle's end, the driver's convergence check, a progress
// callback, the end of the solve), from the cycle so far, without ending the cycle: the
// iteration counts are those of SciPy's gmres(restart=m).
//
// Memory: V is one allocation of m+1 vectors (Z one of m), a column every ld = n rounded up to
// 64 entries; on the device their bytes are checked against free memory before allocating.
// Traffic of step j (no preconditioner), c = j+1 columns: the SpMV, c n + n (h1, ||w||^2), c n
// + 3n (w - V h1 into v and V's column): 2 c n + 4n values; with a second pass, c n + 2n (w -=
// V h1 in place), c n + n (h2), c n + 3n (w - V h2 stored): 4 c n + 7n. CGS2 takes the last
// norm from the update's own sum (w -= V h2 in place, then to_column: 3n): 4 c n + 9n. (A pass
// that makes w -= V h1 and h2 reading each column once, 3 c n + 8n for CGS2, measured slower on
// an H100: its loads of a row's columns held in registers reached 45-55% of the DRAM bandwidth
// against 75% for the update.)
#include <algorithm>
#include <cstddef>
#include <string>

#include "solver/gmres_steps.hpp"
#include "solver/krylov_method.hpp"

namespace spk {

template <class Space>
class Gmres : KrylovMethodBase<Space> {
  using Base = KrylovMethodBase<Space>;
  using Base::preconditioned, Base::precondition;
  using Base::space_, Base::matrix_, Base::preconditioner_, Base::n_;

 public:
  using T = typename Space::value_type;

  // restart: m (>= 1), clipped to the rows of the whole system; flexible: FGMRES (the same as
  // GMRES without a preconditioner). preconditioner: M^-1, or nullptr.
  // selective: the second Gram-Schmidt pass only where needed (AfterFirstDots), else always.
  Gmres(Space& space, const LinearOperator<T>& matrix, KrylovPreconditioner<Space>* preconditioner,
        int restart, bool flexible, bool selective = false)
      : Base(space, matrix, preconditioner, false),
        m_(clipped_restart(space, restart, n_)),
        selective_(selective),
        ld_((n_ + 63) / 64 * 64),
        flexible_(flexible && preconditioner != nullptr),
        basis_(allocate_basis(restart)),
        directions_(
            space.template allocate<T>(flexible_ ? columns(m_) : 0, "FGMRES basis Z = M^-1 V")),
        v_(this->vector("GMRES vector v_k")),
        w_(this->vector("GMRES vector w = A M^-1 v_k")),
        z_(this->vector("GMRES preconditioned z = M^-1 v_k", preconditioner != nullptr)),
        start_(this->vector("GMRES cycle start x0")),
        values_(space.template allocate<T>(GmresState<T>::value_count(m_), "GMRES small state")),
        positions_(space.template allocate<int>(gmres_position_count, "GMRES positions")) {
    space.reserve_basis(m_ + 1);
  }

  int restart() const { return m_; }
  // V: column k at basis() + k leading_dimension() (for tests of its orthogonality).
  const T* basis() const { return basis_.data(); }
  std::size_t leading_dimension() const { return ld_; }

  // A new cycle from r0 = b - A x0 (or `residual`, the driver's true residual). `restart`
  // keeps the stopping targets (residual replacement).
  void initialize(const T* b, T* x, bool restart, const T* residual = nullptr) {
    this->start_residual(b, x, restart, residual, w_.data());  // w = r0 = b - A x0
    start_cycle(x, !restart);
  }

  // One Arnoldi step: k = the position in the cycle, read by every operation from the state.
  void iterate(const T* /*b*/, T* /*x*/) {
    KrylovScalars<T>* s = space_.scalars();
    const GmresState<T> state = this->state();
    T* V = basis_.data();
    T* z = preconditioned() ? z_.data() : v_.data();
    const int* count = state.position(gmres_dot_count);
    precondition(v_.data(), z);  // z = M^-1 v_k
    if (flexible_)               // Z_k = z
      space_.to_column(n_, &s->one, z, nullptr, directions_.data(), ld_,
                       state.position(gmres_direction_column));
    const int* second = state.position(gmres_second_count);
    // where a pass's update stores v_{k+1} = (w - V h) / H(k+1, k) (after the step), if it does
    const ColumnStore<T> store{state.position(gmres_store_column), state.scale(), v_.data(), V};
    matrix_.apply(z, w_.data());  // w = A z
    // h1 = V^T w, ||w||^2; ||w - V h1||^2 = ||w||^2 - ||h1||^2 where it keeps at least half of
    // ||w||^2 (then the step: H(:, k) = h1, H(k+1, k), the rotations, the test of |g_{k+1}|),
    // else a second pass
    space_.basis_dots(n_, V, ld_, count, m_ + 1, w_.data(), state.first(), true,
                      gmres_steps::AfterFirstDots<T>{state, selective_});
    // w - V h1: v_{k+1} and V's column k+1, or w in place with ||w||^2 (a second pass follows)
    space_.basis_combine(n_, V, ld_, state.position(gmres_update_count), state.first(), T(-1),
                         w_.data(), false, state.first_norm_square(), store);
    // the second pass, where it runs: h2 = V^T w, the step with H(:, k) = h1 + h2 (the norm as
    // above), then w - V h2 stored; where w vanishes the step waits for the update's ||w||^2 and
    // to_column stores v_{k+1} = w / H(k+1, k)
    space_.basis_dots(n_, V, ld_, second, m_ + 1, w_.data(), state.second(), false,
                      gmres_steps::AfterSecondDots<T>{state, selective_});
    space_.basis_combine(n_, V, ld_, second, state.second(), T(-1), w_.data(), false,
                         state.norm_square(), store, gmres_steps::AfterSecondCombine<T>{state});
    space_.to_column(n_, state.scale(), w_.data(), v_.data(), V, ld_,
                     state.position(gmres_next_column));
  }

  // Arnoldi steps of the solve that took the second Gram-Schmidt pass (reads the space: a
  // device space synchronizes; call after the solve).
  int second_passes() {
    return space_.template download<int>(positions_.data() + gmres_second_passes, 1)[0];
  }

  // The driver's block ends here at the latest: the cycle's end.
  int block_limit() const { return m_ - cycle_steps_; }

  // After a block: at a cycle's end, x = x0 + M^-1 V y (or Z y) and a new cycle from the true
  // residual b - A x, all on the stream (a solve that stopped keeps its x; see Start).
  void end_block(int block, const T* b, T* x) {
    cycle_steps_ += block;
    if (cycle_steps_ < m_) return;
    current_solution(x);                                   // x = x0 + M^-1 V y
    this->start_residual(b, x, true, nullptr, w_.data());  // w = r = b - A x
    start_cycle(x, false);
  }

  // x = x0 + M^-1 V_k y (x0 + Z_k y with FGMRES, x0 + V_k y without M), y = R^-1 g for the
  // cycle's k steps. The cycle goes on unchanged (w and z are scratch between iterations).
  void current_solution(T* x) {
    KrylovScalars<T>* s = space_.scalars();
    const GmresState<T> state = this->state();
    const int* count = state.position(gmres_solution_count);
    space_.scalar_step(gmres_steps::Solution<T>{state});  // y = R^-1 g
    space_.copy(n_, start_.data(), x);                    // x = x0
    if (preconditioned() && !flexible_) {
      space_.fill_zero(n_, w_.data());
      space_.basis_combine(n_, basis_.data(), ld_, count, state.y(), T(1), w_.data(), false,
                           nullptr);           // u = V y
      precondition(w_.data(), z_.data());      // z = M^-1 u
      space_.axpy(n_, &s->one, z_.data(), x);  // x = x0 + M^-1 V y
      return;
    }
    space_.basis_combine(n_, flexible_ ? directions_.data() : basis_.data(), ld_, count, state.y(),
                         T(1), x, false, nullptr);  // x = x0 + Z y (or V y)
  }

 private:
  std::size_t columns(int count) const { return static_cast<std::size_t>(count) * ld_; }

  static int clipped_restart(Space& space, int restart, std::size_t n) {
    const std::size_t rows = space.global_count(n);
    const std::size_t clipped = std::min(static_cast<std::size_t>(restart < 1 ? 1 : restart), rows);
    return clipped < 1 ? 1 : static_cast<int>(clipped);
  }

  // V (m+1 columns), after checking that V, Z (FGMRES) and the work vectors fit.
  typename Base::Vector allocate_basis(int requested) {
    const std::size_t vectors = static_cast<std::size_t>(m_ + 1 + (flexible_ ? m_ : 0));
    const std::size_t bytes = (vectors * ld_ + 4 * n_) * sizeof(T);
    space_.require_free_memory(
        bytes, "the GMRES basis of solver.restart = " + std::to_string(requested) + " (" +
                   std::to_string(vectors) + " vectors of " + std::to_string(n_) + " values" +
                   (flexible_ ? ": V and FGMRES's Z" : "") +
                   ", and 4 work vectors); lower solver.restart");
    return space_.template allocate<T>(columns(m_ + 1), "GMRES basis V");
  }

  // With r in w: beta = ||r||, the Start step, v0 = r / beta, x0 = x.
  void start_cycle(const T* x, bool first) {
    KrylovScalars<T>* s = space_.scalars();
    const GmresState<T> state = this->state();
    norm(space_, n_, w_.data(), &s->residual_norm);           // beta = ||r||
    space_.scalar_step(gmres_steps::Start<T>{state, first});  // g = beta e1, test beta
    space_.to_column(n_, state.scale(), w_.data(), v_.data(), basis_.data(), ld_,
                     state.position(gmres_next_column));  // v0 = r / beta
    space_.copy(n_, x, start_.data());                    // x0 = x
    cycle_steps_ = 0;
  }

  GmresState<T> state() { return GmresState<T>{values_.data(), positions_.data(), m_}; }

  int m_;
  bool selective_;
  std::size_t ld_;
  bool flexible_;
  typename Base::Vector basis_, directions_, v_, w_, z_, start_;
  typename Base::Vector values_;
  typename Space::template Array<int> positions_;
  int cycle_steps_ = 0;  // iterations the driver ran in this cycle (its blocks)
};

}  // namespace spk
