// The CPU reference path: CG and BiCGSTAB on HostSpace.
#include "solver/host_space.hpp"
#include "solver/krylov_driver.hpp"

namespace spk {

template SolveResult run_krylov(HostSpace<float>&, const LinearOperator<float>&, const float*,
                                const float*, float*, const SolverOptions&, const ProgressCallback&);
template SolveResult run_krylov(HostSpace<double>&, const LinearOperator<double>&, const double*,
                                const double*, double*, const SolverOptions&,
                                const ProgressCallback&);

}  // namespace spk
