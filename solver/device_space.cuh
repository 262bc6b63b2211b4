#pragma once
// The CUDA-only part of DeviceSpace: running a scalar step as a one-thread kernel, and the
// fused reductions, templates on the scalar step their last block runs
// (solver/device_reductions.cuh).
#include <type_traits>

#include "core/cuda_check.hpp"
#include "solver/device_reductions.cuh"
#include "solver/device_space.hpp"
#include "solver/pipecg_kernels.cuh"

namespace spk {

namespace detail {
template <class T, class Step>
__global__ void __launch_bounds__(1) scalar_step_kernel(Step step, KrylovScalars<T>* scalars) {
  step(*scalars);
}
}  // namespace detail

template <class T>
template <class Step>
void DeviceSpace<T>::scalar_step(const Step& step) {
  if constexpr (std::is_same_v<Step, NoScalarStep>) return;
  detail::scalar_step_kernel<T, Step><<<1, 1, 0, context_.stream()>>>(step, scalars_.data());
  SPK_CHECK_LAUNCH("scalar_step_kernel");
}

template <class T>
template <class Step>
void DeviceSpace<T>::fused_dot(std::size_t n, const T* x, const T* y, T* result, const Step& then) {
  fused_reduction::
      dot_kernel<<<fused_reduction::grid(n), fused_reduction::block, 0, context_.stream()>>>(
          n, x, y,
          fused_reduction::Finish<T, Step>{partial_sums_.data(), last_block_ticket_.data(), result,
                                           then, scalars_.data()});
  SPK_CHECK_LAUNCH("fused_reduction::dot_kernel");
}

template <class T>
template <class Coefficient, class Step>
void DeviceSpace<T>::cg_update(std::size_t n, const Coefficient& alpha, const T* p, const T* ap,
                               T* x, T* r, const T* inverse_diagonal, T* z, T* sums,
                               const Step& then) {
  fused_reduction::
      cg_update_kernel<<<fused_reduction::grid(n), fused_reduction::block, 0, context_.stream()>>>(
          n, alpha, p, ap, x, r, inverse_diagonal, z,
          fused_reduction::Finish<T, Step>{partial_sums_.data(), last_block_ticket_.data(), sums,
                                           then, scalars_.data()});
  SPK_CHECK_LAUNCH("fused_reduction::cg_update_kernel");
}

template <class T>
template <class Coefficient, class Step>
void DeviceSpace<T>::bicgstab_update(std::size_t n, const Coefficient& coefficient, const T* u,
                                     const T* w, T* x, T* r, const T* inverse_diagonal, T* z,
                                     const T* r_hat, T* sums, const Step& then) {
  fused_reduction::bicgstab_update_kernel<<<fused_reduction::grid(n), fused_reduction::block, 0,
                                            context_.stream()>>>(
      n, coefficient, u, w, x, r, inverse_diagonal, z, r_hat,
      fused_reduction::Finish<T, Step>{partial_sums_.data(), last_block_ticket_.data(), sums, then,
                                       scalars_.data()});
  SPK_CHECK_LAUNCH("fused_reduction::bicgstab_update_kernel");
}

template <class T>
template <class Step>
void DeviceSpace<T>::dot_pair(std::size_t n, const T* t, const T* r, T* sums, const Step& then) {
  fused_reduction::
      dot_pair_kernel<<<fused_reduction::grid(n), fused_reduction::block, 0, context_.stream()>>>(
          n, t, r,
          fused_reduction::Finish<T, Step>{partial_sums_.data(), last_block_ticket_.data(), sums,
                                           then, scalars_.data()});
  SPK_CHECK_LAUNCH("fused_reduction::dot_pair_kernel");
}

template <class T>
template <class Step>
void DeviceSpace<T>::pipecg_update(std::size_t n, const Step& step, const PipeCgVectors<T>& vectors,
                                   T* sums) {
  pipecg_kernels::
      update_kernel<<<fused_reduction::grid(n), fused_reduction::block, 0, context_.stream()>>>(
          n, step, vectors, partial_sums_.data(), last_block_ticket_.data(), sums, scalars_.data());
  SPK_CHECK_LAUNCH("pipecg_kernels::update_kernel");
}

}  // namespace spk
