#pragma once
// The CUDA-only part of DeviceSpace: running a scalar step as a one-thread kernel.
#include "solver/device_space.hpp"
#include "spmv/base/cuda_check.hpp"

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
  detail::scalar_step_kernel<T, Step><<<1, 1, 0, context_.stream()>>>(step, scalars_.data());
  SPK_CHECK_LAUNCH("scalar_step_kernel");
}

}  // namespace spk
