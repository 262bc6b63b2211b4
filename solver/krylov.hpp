#pragma once
// The compiled CG/BiCGSTAB entry point (see solver/krylov_driver.hpp for the algorithm):
// include this, not the driver, from code that only calls it.
#include <memory>

#include "solver/progress.hpp"
#include "solver/solve_result.hpp"
#include "solver/solver_options.hpp"
#include "spmv/linear_operator.hpp"

namespace spk {

template <class T>
class HostSpace;
template <class T>
class DeviceSpace;

// One linear system's Krylov method: the method's vectors (r, p, ...) and the driver's
// buffers (history, true residual) are allocated once here and reused by every run(), so
// repeated solves allocate nothing. All pointers live in `space`'s memory; `matrix` and
// `inverse_diagonal` (Jacobi 1/a_ii, or nullptr) must outlive this object.
template <class Space>
class KrylovSolve {
 public:
  using T = typename Space::value_type;
  KrylovSolve(Space& space, const LinearOperator<T>& matrix, const T* inverse_diagonal,
              const SolverOptions& options);
  ~KrylovSolve();
  KrylovSolve(const KrylovSolve&) = delete;
  KrylovSolve& operator=(const KrylovSolve&) = delete;

  // Solves A x = b, x holding the initial guess.
  SolveResult run(const T* b, T* x, const ProgressCallback& progress = {});

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace spk
