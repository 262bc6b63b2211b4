#pragma once
// One row of pipelined CG's update pass (solver/pipecg.hpp), written once for the CPU loop
// (HostSpace::pipecg_update) and the CUDA kernel (solver/pipecg_kernels.cuh), so that the two
// paths make the same arithmetic. With the coefficients alpha (a) and beta (b) of iteration i:
//
//   z = n + b z,  s = w + b s,  p = u + b p,  q = m + b q      (the directions)
//   x += a p,  r -= a s,  w -= a z,  u -= a q                    (the iterates)
//   and the row's terms of gamma = (r, u), (r, r) and delta = (w, u) of the new vectors.
//
// u = M r and m = M w, q = M s are stored only for a general preconditioner (u, q, m given).
// With Jacobi (inverse_diagonal given) they are D^-1 times r, w and s, made in the pass: u =
// D^-1 r is taken from the new r itself (no recurrence of its own, so it cannot drift from r),
// and m_next = D^-1 w, the next product's input, is stored. Without a preconditioner u = r and
// m = w. Every input of the row is loaded before anything is stored, so the pointers may be
// unrestricted.
#include <cstddef>

#include "core/host_device.hpp"

namespace spk {

template <class T>
struct PipeCgVectors {
  const T* n = nullptr;  // A m, this iteration's product
  T* z = nullptr;
  T* s = nullptr;
  T* p = nullptr;
  T* x = nullptr;
  T* r = nullptr;
  T* w = nullptr;
  // a general preconditioner M: u = M r, q = M s, m = M w (made by M's apply)
  T* u = nullptr;
  T* q = nullptr;
  const T* m = nullptr;
  // Jacobi: D^-1, and where D^-1 w_new goes (the next product's input)
  const T* inverse_diagonal = nullptr;
  T* m_next = nullptr;
};

// Row i with coefficients a = alpha, b = beta; adds its terms to (r, u), (r, r) and (w, u).
template <class T>
SPK_HOST_DEVICE inline void pipecg_row(const PipeCgVectors<T>& v, std::size_t i, T a, T b, T& r_u,
                                       T& r_r, T& w_u) {
  const bool stored_u = v.u != nullptr;
  const T d = v.inverse_diagonal != nullptr ? v.inverse_diagonal[i] : T(1);
  const T n_i = v.n[i], z_i = v.z[i], s_i = v.s[i], p_i = v.p[i], x_i = v.x[i], r_i = v.r[i],
          w_i = v.w[i];
  const T u_i = stored_u ? v.u[i] : d * r_i;
  const T q_i = stored_u ? v.q[i] : T(0);
  const T m_i = stored_u ? v.m[i] : T(0);

  const T z_new = n_i + b * z_i;    // z = n + beta z
  const T s_new = w_i + b * s_i;    // s = w + beta s
  const T p_new = u_i + b * p_i;    // p = u + beta p
  const T x_new = x_i + a * p_new;  // x = x + alpha p
  const T r_new = r_i - a * s_new;  // r = r - alpha s
  const T w_new = w_i - a * z_new;  // w = w - alpha z
  const T q_new = m_i + b * q_i;    // q = m + beta q (general M)
  // u = u - alpha q (general M), else D^-1 r (Jacobi) or r
  const T u_new = stored_u ? u_i - a * q_new : d * r_new;

  v.z[i] = z_new;
  v.s[i] = s_new;
  v.p[i] = p_new;
  v.x[i] = x_new;
  v.r[i] = r_new;
  v.w[i] = w_new;
  if (stored_u) {
    v.q[i] = q_new;
    v.u[i] = u_new;
  }
  if (v.m_next != nullptr) v.m_next[i] = d * w_new;  // m = D^-1 w, for the next product
  r_u += r_new * u_new;
  r_r += r_new * r_new;
  w_u += w_new * u_new;
}

}  // namespace spk
