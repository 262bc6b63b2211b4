#pragma once
// Declarations of the compiled CG/BiCGSTAB entry points (see solver/krylov_driver.hpp for
// the algorithm): include this, not the driver, from code that only calls them.
#include "solver/progress.hpp"
#include "solver/solve_result.hpp"
#include "solver/solver_options.hpp"
#include "spmv/linear_operator.hpp"

namespace spk {

template <class T>
class HostSpace;
template <class T>
class DeviceSpace;

template <class Space>
SolveResult run_krylov(Space& space, const LinearOperator<typename Space::value_type>& matrix,
                       const typename Space::value_type* inverse_diagonal,
                       const typename Space::value_type* b, typename Space::value_type* x,
                       const SolverOptions& options, const ProgressCallback& progress = {});

}  // namespace spk
