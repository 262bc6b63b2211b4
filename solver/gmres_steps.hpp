#pragma once
// GMRES's small dense state and the scalar steps that update it (solver/gmres.hpp), run where
// the vectors live: inline on the CPU, as a one-thread kernel on the GPU (DeviceSpace::
// scalar_step), so no iteration waits for the host and a CUDA graph can replay a block.
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
  gmres_dot_count,         // columns the CGS passes use: k + 1
  gmres_next_column,       // where the next Arnoldi vector goes (k + 1), -1: not stored
  gmres_direction_column,  // FGMRES: the column of Z for this iteration's z, -1: none
  gmres_solution_count,    // columns of the x being formed (current_solution)
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
    return size * (size + 1) + 6 * size + 8;
  }

  // Column j of the (m + 1) x m Hessenberg matrix; after its rotations, R's column j.
  SPK_HOST_DEVICE T* column(int j) const { return values + j * (m + 1); }
  SPK_HOST_DEVICE T* cosines() const { return values + m * (m + 1); }
  SPK_HOST_DEVICE T* sines() const { return cosines() + m; }
  SPK_HOST_DEVICE T* g() const { return sines() + m; }            // m + 1
  SPK_HOST_DEVICE T* first() const { return g() + m + 1; }        // CGS pass 1: V^T w, m + 1
  SPK_HOST_DEVICE T* second() const { return first() + m + 1; }   // CGS pass 2: V^T w, m + 1
  SPK_HOST_DEVICE T* y() const { return second() + m + 1; }       // m + 1
  SPK_HOST_DEVICE T* scale() const { return y() + m + 1; }        // 1 / H(k+1, k)
  SPK_HOST_DEVICE T* norm_square() const { return scale() + 1; }  // ||w||^2 after CGS2
  SPK_HOST_DEVICE T* cycle_start() const { return scale() + 2; }  // ||r|| when the cycle began
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
    state.at(gmres_solution_count) = 0;
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

// One Arnoldi step's small part, after w = A z, its two CGS passes (first, second) and ||w||^2:
// H(:, k) = first + second, H(k+1, k) = ||w||; the old rotations, then a new one that zeroes
// H(k+1, k); g's last entry is the residual estimate, which is tested. The new vector v_{k+1} =
// w / H(k+1, k) is stored unless the cycle is full (the driver then restarts it from the true
// residual) or the solve stopped.
//
// Happy breakdown: ||w|| <= eps ||A z|| (||A z||^2 = ||H(:, k)||^2 + ||w||^2; SciPy tests h1 <=
// eps h0): the Krylov space is invariant, H(k+1, k) is taken as 0, the rotation's sine is 0 and
// the estimate exactly 0, so the step stops as converged with the cycle's exact solution, and
// the driver checks it by the true residual. If the rotated column is all zero (A singular on
// the Krylov space), no rotation reduces the residual: the estimate stays |g_k| and the status
// is no_progress. A full cycle whose estimate ends above (1 - sqrt(eps)) of the one it began
// with is no_progress too (the next cycle would start from the same residual and repeat it).
template <class T>
struct Arnoldi {
  GmresState<T> state;
  SPK_HOST_DEVICE void operator()(KrylovScalars<T>& s) const {
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
    // H(0:j, j) = first + second (the CGS2 coefficients), H(j+1, j) = ||w||
    T column_square = T(0);
    for (int i = 0; i <= j; ++i) {
      h[i] = state.first()[i] + state.second()[i];
      column_square += h[i] * h[i];
    }
    const T w_norm = norm_from_square(*state.norm_square());
    if (!is_finite(static_cast<double>(column_square)) || !is_finite(static_cast<double>(w_norm))) {
      s.stop(SolveStatus::non_finite);
      state.store_nothing();
      s.freeze();
      return;
    }
    const bool happy =
        !(w_norm > epsilon_of<T>() * norm_from_square(column_square + w_norm * w_norm));
    // H(:, j) = G_{j-1} ... G_0 H(:, j)
    for (int i = 0; i < j; ++i) {
      const T a = h[i], b = h[i + 1];
      h[i] = c[i] * a + sn[i] * b;
      h[i + 1] = -sn[i] * a + c[i] * b;
    }
    // G_j: r = sqrt(H(j,j)^2 + H(j+1,j)^2), c = H(j,j) / r, s = H(j+1,j) / r
    const T a = h[j], b = happy ? T(0) : w_norm;
    const T r = hypotenuse(a, b);
    T estimate;
    if (r == T(0)) {  // the rotated column vanished: the step adds nothing
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
    if (s.running() && r == T(0)) s.stop(SolveStatus::no_progress);
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
