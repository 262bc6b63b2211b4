#pragma once
// GMRES's small dense state and the scalar steps that update it (solver/gmres.hpp), run where
// the vectors live: inline on the CPU; on the GPU as a one-thread kernel (DeviceSpace::
// scalar_step) or in the last block of the basis operation before it (the orthogonalisation
// steps), so no iteration waits for the host and a CUDA graph can replay a block.
//
// The state is two arrays of the space: `values` (T) holds the Hessenberg matrix, rotated in
// place into the triangular R, the Givens rotations, g = Q beta e1, the two CGS passes'
// coefficients and y; `positions` (int) holds where the cycle stands (k) and the count and
// columns the basis operations read (vector_space.hpp). A step writes the positions that the
// rest of its iteration and the next one read, so every iteration makes the same launches
// with the same arguments wherever it falls in a cycle: a replayed graph follows the cycle.
//
// Rotations: G_j = [c s; -s c] acts on rows j, j+1 and zeroes H(j+1, j); after step j,
// |g_{j+1}| is the residual norm of the cycle's least-squares solution (Saad & Schultz 1986).
#include <cstddef>

#include "core/host_device.hpp"
#include "solver/krylov_scalars.hpp"

namespace spk {

namespace gmres_detail {

template <class T>
SPK_HOST_DEVICE inline T magnitude(T value) {
  return value < T(0) ? -value : value;
}

// sqrt(a^2 + b^2) without overflow or underflow in the squares.
template <class T>
SPK_HOST_DEVICE inline T hypotenuse(T a, T b) {
  const T largest = magnitude(a) > magnitude(b) ? magnitude(a) : magnitude(b);
  if (largest == T(0)) return T(0);
  const T x = a / largest, y = b / largest;
  return largest * norm_from_square(x * x + y * y);
}

}  // namespace gmres_detail

// Indices into GmresState::positions.
enum GmresPosition : int {
  gmres_step = 0,          // k: Arnoldi steps done in this cycle (columns of V in use: k + 1)
  gmres_dot_count,         // columns the first CGS pass uses: k + 1
  gmres_update_count,      // columns the first pass's update uses: k + 1 (after_first_dots
                           // copies dot_count, which the step it may run sets to k + 2)
  gmres_second_count,      // columns the second CGS pass uses: k + 1, or 0 where it is skipped
  gmres_store_column,      // where a pass's update stores v_{k+1} (k + 1), -1: w in place
  gmres_fallback,          // 1: the step waits for the second update's own ||w||^2
  gmres_next_column,       // where to_column stores a vector (v0, or v_{k+1} after a
                           // fallback), -1: nothing
  gmres_direction_column,  // FGMRES: the column of Z for this iteration's z, -1: none
  gmres_solution_count,    // columns of the x being formed (current_solution)
  gmres_second_passes,     // Arnoldi steps of the solve that took the second CGS pass
  gmres_position_count
};

// Views of the two state arrays (pointers into the space), for a restart length m.
template <class T>
struct GmresState {
  T* values;
  int* positions;
  int m;

  static std::size_t value_count(int m) {
    const auto size = static_cast<std::size_t>(m);
    return size * (size + 1) + 6 * size + 10;
  }

  // Column j of the (m + 1) x m Hessenberg matrix; after its rotations, R's column j.
  SPK_HOST_DEVICE T* column(int j) const { return values + j * (m + 1); }
  SPK_HOST_DEVICE T* cosines() const { return values + m * (m + 1); }
  SPK_HOST_DEVICE T* sines() const { return cosines() + m; }
  SPK_HOST_DEVICE T* g() const { return sines() + m; }  // m + 1
  // CGS pass 1: V^T w (m + 1), then ||w||^2 of w = A z before any pass (w_square)
  SPK_HOST_DEVICE T* first() const { return g() + m + 1; }
  SPK_HOST_DEVICE T* w_square() const { return first() + m + 1; }
  SPK_HOST_DEVICE T* second() const { return first() + m + 2; }   // CGS pass 2: V^T w, m + 1
  SPK_HOST_DEVICE T* y() const { return second() + m + 1; }       // m + 1
  SPK_HOST_DEVICE T* scale() const { return y() + m + 1; }        // 1 / H(k+1, k)
  SPK_HOST_DEVICE T* norm_square() const { return scale() + 1; }  // ||w||^2 after pass 2
  SPK_HOST_DEVICE T* cycle_start() const { return scale() + 2; }  // ||r|| when the cycle began
  SPK_HOST_DEVICE T* first_norm_square() const { return scale() + 3; }  // ||w||^2 after pass 1
  SPK_HOST_DEVICE int& at(GmresPosition which) const { return positions[which]; }
  // Its address, for the basis operations (host code: never dereferenced there).
  SPK_HOST_DEVICE int* position(GmresPosition which) const { return positions + which; }

  // y = R^-1 g over the first `count` columns (back substitution); a zero pivot (a direction
  // that added nothing) gives y_i = 0, as SciPy's gmres does.
  SPK_HOST_DEVICE void solve_triangle(int count) const {
    T* solution = y();
    const T* rhs = g();
    for (int i = count - 1; i >= 0; --i) {
      T sum = rhs[i];
      for (int l = i + 1; l < count; ++l) sum -= column(l)[i] * solution[l];
      const T pivot = column(i)[i];
      solution[i] = pivot != T(0) ? sum / pivot : T(0);
    }
    at(gmres_solution_count) = count;
  }

  // No vector to store: the cycle is full or the solve stopped.
  SPK_HOST_DEVICE void store_nothing() const {
    at(gmres_next_column) = -1;
    at(gmres_direction_column) = -1;
    *scale() = T(0);
  }
};

namespace gmres_steps {

// After r = b - A x and ||r|| (in residual_norm): a new cycle, g = (||r||, 0, ...), and v0 =
// r / ||r|| stored by the next to_column. The solve's start (first) sets the stopping targets;
// every start tests ||r||, the true residual (a cycle restart records it in the history in
// place of the last step's estimate). A cycle restart of a solve that has stopped only sets
// k = 0: x (formed just before) is then the cycle start, and nothing else moves.
template <class T>
struct Start {
  GmresState<T> state;
  bool first;
  SPK_HOST_DEVICE void operator()(KrylovScalars<T>& s) const {
    state.store_nothing();
    state.at(gmres_step) = 0;
    state.at(gmres_dot_count) = 1;
    state.at(gmres_update_count) = 1;
    state.at(gmres_second_count) = 0;
    state.at(gmres_store_column) = -1;
    state.at(gmres_fallback) = 0;
    state.at(gmres_solution_count) = 0;
    if (first) state.at(gmres_second_passes) = 0;
    if (!first && !s.running()) return;
    const T beta = s.residual_norm;
    if (first) s.set_stopping_targets(beta);
    s.check_residual(beta);
    state.g()[0] = beta;
    *state.cycle_start() = beta;
    if (!s.running()) {
      s.freeze();
      return;
    }
    *state.scale() = T(1) / beta;  // beta > threshold >= 0
    state.at(gmres_next_column) = 0;
    state.at(gmres_direction_column) = 0;
  }
};

// sum_{i < count} h_i^2, eight loads at a time (on the device one thread: see arnoldi_column).
template <class T>
SPK_HOST_DEVICE T square_sum(const T* h, int count) {
  constexpr int batch = 8;
  T sum = T(0);
  for (int i0 = 0; i0 < count; i0 += batch) {
    T values[batch] = {};
    SPK_UNROLL
    for (int u = 0; u < batch; ++u)
      if (i0 + u < count) values[u] = h[i0 + u];
    SPK_UNROLL
    for (int u = 0; u < batch; ++u) sum += values[u] * values[u];
  }
  return sum;
}

// One Arnoldi step's small part, after the dots of w = A z's CGS pass or passes: H(0:k, k) =
// first (+ second, when the second pass ran), H(k+1, k) = ||w|| after the last pass (its square
// w_square: from the dots or the update, see below); the old rotations, then a new one that
// zeroes H(k+1, k); g's last entry is the residual estimate, which is tested. Where v_{k+1} = w /
// H(k+1, k) goes (next_column, scale) is set unless the cycle is full (the driver then restarts
// it from the true residual) or the solve stopped.
//
// Happy breakdown: ||w|| <= eps ||A z|| (||A z||^2 = ||H(:, k)||^2 + ||w||^2; SciPy tests h1 <=
// eps h0): the Krylov space is invariant, H(k+1, k) is taken as 0, the rotation's sine is 0 and
// the estimate exactly 0, so the step stops as converged with the cycle's exact solution, and
// the driver checks it by the true residual. If the rotated column is all zero (A singular on
// the Krylov space), no rotation reduces the residual: the estimate stays |g_k| and the status
// is no_progress. A full cycle whose estimate ends above (1 - sqrt(eps)) of the one it began
// with is no_progress too (the next cycle would start from the same residual and repeat it).
//
// On the GPU this runs in one thread (the last block of the pass before it): the column's
// inputs are loaded eight rows at a time before any is used, so the loads wait for memory once
// a batch rather than once a row (one load after another took 11 us at restart 30 on an H100).
template <class T>
SPK_HOST_DEVICE SPK_NOINLINE void arnoldi_column(KrylovScalars<T>& s, const GmresState<T>& state,
                                                 bool twice, T w_square) {
  using gmres_detail::hypotenuse;
  using gmres_detail::magnitude;
  const int j = state.at(gmres_step);
  if (!s.running() || j >= state.m) {  // frozen, or a full cycle awaiting its restart
    state.store_nothing();
    if (!s.running()) s.freeze();
    return;
  }
  T* h = state.column(j);
  T* c = state.cosines();
  T* sn = state.sines();
  T* g = state.g();
  const T* first = state.first();
  const T* second = state.second();
  // H(0:j, j) = first + second, rotated by G_0 ... G_{j-1} as it is read: G_i acts on rows i and
  // i + 1, after which row i is final; `carry` holds row i + 1 between rotations.
  T carry = first[0] + (twice ? second[0] : T(0));
  T column_square = carry * carry;
  constexpr int batch = 8;
  for (int i0 = 0; i0 < j; i0 += batch) {
    T next[batch] = {}, cosine[batch] = {}, sine[batch] = {};
    SPK_UNROLL
    for (int u = 0; u < batch; ++u) {
      const int i = i0 + u;
      if (i < j) {
        next[u] = first[i + 1] + (twice ? second[i + 1] : T(0));
        cosine[u] = c[i];
        sine[u] = sn[i];
      }
    }
    SPK_UNROLL
    for (int u = 0; u < batch; ++u) {
      const int i = i0 + u;
      if (i < j) {
        column_square += next[u] * next[u];
        const T a = carry, b = next[u];
        h[i] = cosine[u] * a + sine[u] * b;  // H(:, j) = G_i H(:, j)
        carry = -sine[u] * a + cosine[u] * b;
      }
    }
  }
  const T w_norm = norm_from_square(w_square);
  if (!is_finite(static_cast<double>(column_square)) || !is_finite(static_cast<double>(w_norm))) {
    s.stop(SolveStatus::non_finite);
    state.store_nothing();
    s.freeze();
    return;
  }
  const T column_norm = norm_from_square(column_square + w_norm * w_norm);
  const bool happy = !(w_norm > epsilon_of<T>() * column_norm);
  // G_j: r = sqrt(H(j,j)^2 + H(j+1,j)^2), c = H(j,j) / r, s = H(j+1,j) / r
  const T a = carry, b = happy ? T(0) : w_norm;
  // A rotated column at rounding level of the column it came from counts as zero (A singular
  // on the Krylov space): on the GPU the rounding leaves ~1e-17 where the host gets 0.
  const bool vanished = !(hypotenuse(a, b) > epsilon_of<T>() * column_norm);
  const T r = vanished ? T(0) : hypotenuse(a, b);
  T estimate;
  if (vanished) {  // the rotated column vanished: the step adds nothing
    c[j] = T(1);
    sn[j] = T(0);
    g[j + 1] = T(0);
    estimate = magnitude(g[j]);
  } else {
    c[j] = a / r;
    sn[j] = b / r;
    g[j + 1] = -sn[j] * g[j];  // g = G_j g
    g[j] = c[j] * g[j];
    estimate = magnitude(g[j + 1]);  // ||b - A x_{j+1}|| of the cycle's least-squares x
  }
  h[j] = r;
  h[j + 1] = T(0);
  const int k = j + 1;
  state.at(gmres_step) = k;
  s.iteration += 1;
  s.check_residual(estimate);
  if (s.running() && vanished) s.stop(SolveStatus::no_progress);
  const bool full = k == state.m;
  if (s.running() && full &&
      !(estimate <= (T(1) - norm_from_square(epsilon_of<T>())) * *state.cycle_start()))
    s.stop(SolveStatus::no_progress);
  if (!s.running() || full) {  // x comes from the k columns (current_solution)
    state.store_nothing();
    if (!s.running()) s.freeze();
    return;
  }
  *state.scale() = T(1) / w_norm;  // v_k = w / H(k, k-1); not happy, so w_norm > 0
  state.at(gmres_next_column) = k;
  state.at(gmres_dot_count) = k + 1;
  state.at(gmres_direction_column) = k;
}

// The steps of an Arnoldi step's orthogonalisation (solver/gmres.hpp), each run after the basis
// operation whose sums it reads, where that operation ends (on the device, in its last block).
// A classical Gram-Schmidt pass is h = V^T w (basis_dots, which also sums ||w||^2 on the first
// pass), then w -= V h (basis_combine). Its norm after the pass comes from the dots, before the
// update: ||w - V h||^2 = ||w||^2 - ||h||^2 (V orthonormal), which cancels where the pass
// removes most of w, so it is used only where it removes at most half of ||w||^2: there its
// error is a few eps of the result. Where it removes more, w is mostly what V already spans,
// its rounding is no longer small beside it, and the pass runs again (the "twice is enough"
// test of Kahan and Parlett; Daniel, Gragg, Kaufman & Stewart 1976; Giraud, Langou & Rozloznik
// 2005: CGS2 is orthogonal to working precision) -- always with CGS2 (selective false). With
// the norm known before the update, the Arnoldi step (arnoldi_column) runs before it, and the
// update writes v_{k+1} = (w - V h) / H(k+1, k) straight into v and V's column k+1
// (gmres_store_column) instead of w. Where the second pass also removes more than half (w
// vanishing: a happy breakdown, or NaN), and always with CGS2, its update keeps w with the
// exact ||w||^2 of its own sum, the step runs after it (AfterSecondCombine), and to_column
// stores v_{k+1}.

// Moves where arnoldi_column put v_{k+1} (next_column, for to_column) to the update that stores
// it (store_column).
template <class T>
SPK_HOST_DEVICE void store_in_update(const GmresState<T>& state) {
  state.at(gmres_store_column) = state.at(gmres_next_column);
  state.at(gmres_next_column) = -1;
}

// After the first pass's dots (first = V^T w, w_square = ||w||^2): the step and the update that
// stores v_{k+1}, or the update in place and a second pass.
template <class T>
SPK_HOST_DEVICE SPK_NOINLINE void after_first_dots(KrylovScalars<T>& s, const GmresState<T>& state,
                                                   bool selective) {
  const T before = *state.w_square();
  const T after = before - square_sum(state.first(), state.at(gmres_dot_count));
  const bool working = s.running() && state.at(gmres_step) < state.m;
  // The update w - V h1 spans this step's k + 1 columns: arnoldi_column below sets dot_count to
  // the next step's k + 2, and column k + 1 is the one the update is about to write (unwritten
  // memory the first cycle: 0 h1_{k+1} = 0 only where it holds no NaN).
  state.at(gmres_update_count) = state.at(gmres_dot_count);
  // NaN compares false: a second pass, whose step then stops on it
  if (working && (!selective || !(after >= T(0.5) * before))) {
    state.at(gmres_second_count) = state.at(gmres_dot_count);
    state.at(gmres_store_column) = -1;  // w -= V h1 in place, with ||w||^2
    state.at(gmres_next_column) = -1;
    state.at(gmres_second_passes) += 1;
    return;
  }
  state.at(gmres_second_count) = 0;
  arnoldi_column(s, state, false, after);
  store_in_update(state);
}
template <class T>
struct AfterFirstDots {
  GmresState<T> state;
  bool selective;
  SPK_HOST_DEVICE void operator()(KrylovScalars<T>& s) const {
    after_first_dots(s, state, selective);
  }
};

// After the second pass's dots (second = V^T w, w after the first update with its exact
// ||w||^2 in first_norm_square), where the pass runs. CGS2 (selective false) always takes the
// norm from the update's own sum, the reference it was before the norms came from the dots.
template <class T>
SPK_HOST_DEVICE SPK_NOINLINE void after_second_dots(KrylovScalars<T>& s, const GmresState<T>& state,
                                                    bool selective) {
  if (state.at(gmres_second_count) == 0) return;  // after_first_dots made the step
  const T before = *state.first_norm_square();
  const T after = before - square_sum(state.second(), state.at(gmres_second_count));
  // w vanishing (or NaN), or CGS2: the exact norm decides
  if (!selective || !(after >= T(0.5) * before)) {
    state.at(gmres_store_column) = -1;
    state.at(gmres_fallback) = 1;
    return;
  }
  arnoldi_column(s, state, true, after);
  store_in_update(state);
}
template <class T>
struct AfterSecondDots {
  GmresState<T> state;
  bool selective;
  SPK_HOST_DEVICE void operator()(KrylovScalars<T>& s) const {
    after_second_dots(s, state, selective);
  }
};

// After the second pass's update, where its norm could not be taken from the dots: the step with
// ||w||^2 of the update's own sum (norm_square); to_column then stores v_{k+1}.
template <class T>
struct AfterSecondCombine {
  GmresState<T> state;
  SPK_HOST_DEVICE void operator()(KrylovScalars<T>& s) const {
    if (state.at(gmres_fallback) == 0) return;
    state.at(gmres_fallback) = 0;
    arnoldi_column(s, state, true, *state.norm_square());
  }
};

// Before x is formed: y = R^-1 g over the k steps of the current cycle.
template <class T>
struct Solution {
  GmresState<T> state;
  SPK_HOST_DEVICE void operator()(KrylovScalars<T>& /*s*/) const {
    state.solve_triangle(state.at(gmres_step));
  }
};

}  // namespace gmres_steps

}  // namespace spk
