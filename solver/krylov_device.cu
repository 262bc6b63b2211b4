// The GPU path: CG and BiCGSTAB on DeviceSpace (cuBLAS in device pointer mode, scalar
// steps as one-thread kernels).
#include "solver/device_space.cuh"
#include "solver/krylov_driver.hpp"

namespace spk {

template SolveResult run_krylov(DeviceSpace<float>&, const LinearOperator<float>&, const float*,
                                const float*, float*, const SolverOptions&, const ProgressCallback&);
template SolveResult run_krylov(DeviceSpace<double>&, const LinearOperator<double>&,
                                const double*, const double*, double*, const SolverOptions&,
                                const ProgressCallback&);

}  // namespace spk
