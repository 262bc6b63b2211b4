// The GPU path: CG and BiCGSTAB on DeviceSpace (cuBLAS in device pointer mode, scalar
// steps as one-thread kernels).
#include "solver/device_space.cuh"
#include "solver/krylov_driver.hpp"

namespace spk {

template class KrylovSolve<DeviceSpace<float>>;
template class KrylovSolve<DeviceSpace<double>>;

}  // namespace spk
