// The CPU reference path: CG and BiCGSTAB on HostSpace.
#include "solver/host_space.hpp"
#include "solver/krylov_driver.hpp"

namespace spk {

template class KrylovSolve<HostSpace<float>>;
template class KrylovSolve<HostSpace<double>>;

}  // namespace spk
