#include "vector_ops_timing.hpp"

#include "core/event_timer.hpp"
#include "solver/device_context.hpp"
#include "solver/device_space.hpp"
#include "solver/vector_space.hpp"

namespace spk::app {

template <class T>
double time_vector_ops_ms(Method method, index_t n, int runs) {
  DeviceContext context;
  DeviceSpace<T> space(context);
  const std::size_t size = static_cast<std::size_t>(n);
  KrylovScalars<T> values;
  values.alpha = values.beta = values.omega = T(0.5);
  values.minus_alpha = values.minus_omega = T(-0.5);
  space.write_scalars(values);
  KrylovScalars<T>* s = space.scalars();
  const std::vector<T> ones(size, T(1));
  DeviceBuffer<T> a(ones, "vector a"), b(ones, "vector b"), c(ones, "vector c"),
      d(ones, "vector d"), e(ones, "vector e");
  const auto cg_iteration = [&] {
    space.dot(size, a.data(), b.data(), &s->p_ap);          // (p, Ap)
    space.axpy(size, &s->alpha, a.data(), c.data());        // x += alpha p
    space.axpy(size, &s->minus_alpha, b.data(), d.data());  // r -= alpha Ap
    space.dot(size, d.data(), d.data(), &s->rho);           // (r, r)
    space.scal(size, &s->beta, a.data());                   // p = beta p
    space.axpy(size, &s->one, d.data(), a.data());          // p = r + beta p
  };
  const auto bicgstab_iteration = [&] {
    space.dot(size, e.data(), d.data(), &s->rho);              // rho = (r_hat, r)
    space.axpy(size, &s->minus_omega, b.data(), a.data());     // p -= omega v
    space.scal(size, &s->beta, a.data());                      // p = beta p
    space.axpy(size, &s->one, d.data(), a.data());             // p += r
    space.dot(size, e.data(), b.data(), &s->rhat_v);           // (r_hat, v)
    space.axpy(size, &s->minus_alpha, b.data(), d.data());     // s = r - alpha v
    space.axpy(size, &s->alpha, a.data(), c.data());           // x += alpha p
    norm(space, size, d.data(), &s->s_norm);                   // ||s||
    space.dot(size, b.data(), d.data(), &s->t_s);              // (t, s)
    space.dot(size, b.data(), b.data(), &s->t_t);              // (t, t)
    space.axpy(size, &s->omega, d.data(), c.data());           // x += omega s
    space.axpy(size, &s->minus_omega, b.data(), d.data());     // r = s - omega t
    norm(space, size, d.data(), &s->residual_norm_candidate);  // ||r||
  };
  const TimingSummary timing = method == Method::cg
                                   ? time_on_stream(context.stream(), 3, runs, cg_iteration)
                                   : time_on_stream(context.stream(), 3, runs, bicgstab_iteration);
  return timing.median_ms;
}

template double time_vector_ops_ms<float>(Method, index_t, int);
template double time_vector_ops_ms<double>(Method, index_t, int);

}  // namespace spk::app
