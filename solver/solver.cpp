#include "solver/solver.hpp"

#include <chrono>
#include <cmath>

#include "solver/solver_impl.hpp"
#include "spmv/base/error.hpp"

namespace spk {

const char* to_string(ExecutionSpace space) { return space == ExecutionSpace::gpu ? "gpu" : "cpu"; }

namespace {

template <class T>
void validate_system(const CsrMatrix<T>& matrix, const SolverOptions& options) {
  if (!matrix.square())
    throw BadInput("the matrix is not square (" + std::to_string(matrix.rows) + " x " +
                   std::to_string(matrix.cols) + "); Krylov solvers need a square matrix");
  if (matrix.rows == 0) throw BadInput("the matrix is empty (0 rows)");
  for (std::size_t k = 0; k < matrix.values.size(); ++k)
    if (!std::isfinite(matrix.values[k])) {
      index_t row = 0;
      while (matrix.row_offsets[row + 1] <= static_cast<index_t>(k)) ++row;
      throw BadInput("the matrix has a non-finite value at row " + std::to_string(row + 1) +
                     ", column " + std::to_string(matrix.columns[k] + 1));
    }
  if (!(options.tolerance > 0.0) || !std::isfinite(options.tolerance))
    throw BadInput("solver.tolerance must be a positive number");
  if (options.max_iterations < 0) throw BadInput("solver.max_iterations must be >= 0");
}

}  // namespace

template <class T>
Solver<T>::Solver(const CsrMatrix<T>& matrix, const SolverOptions& solver_options,
                  const SpmvOptions& spmv_options, ExecutionSpace space, cudaStream_t stream) {
  validate_system(matrix, solver_options);
  const auto start = std::chrono::steady_clock::now();
  impl_ = space == ExecutionSpace::gpu
              ? make_device_solver<T>(matrix, solver_options, spmv_options, stream)
              : make_host_solver<T>(matrix, solver_options);
  impl_->options = solver_options;
  impl_->rows = matrix.rows;
  impl_->setup.space = space;
  impl_->setup.setup_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

template <class T>
Solver<T>::~Solver() = default;
template <class T>
Solver<T>::Solver(Solver&&) noexcept = default;
template <class T>
Solver<T>& Solver<T>::operator=(Solver&&) noexcept = default;

template <class T>
SolveResult Solver<T>::solve(const std::vector<T>& b, std::vector<T>& x,
                             const ProgressCallback& progress) {
  const std::size_t n = static_cast<std::size_t>(impl_->rows);
  if (b.size() != n)
    throw BadInput("right-hand side has " + std::to_string(b.size()) + " entries, the matrix " +
                   std::to_string(n) + " rows");
  if (x.size() != n)
    throw BadInput("initial guess has " + std::to_string(x.size()) + " entries, the matrix " +
                   std::to_string(n) + " rows");
  for (std::size_t i = 0; i < n; ++i) {
    if (!std::isfinite(b[i]))
      throw BadInput("right-hand side has a non-finite value at row " + std::to_string(i + 1));
    if (!std::isfinite(x[i]))
      throw BadInput("initial guess has a non-finite value at row " + std::to_string(i + 1));
  }
  return impl_->solve(b, x, progress);
}

template <class T>
SolveResult Solver<T>::solve_in_place(const T* b, T* x, const ProgressCallback& progress) {
  return impl_->solve_in_place(b, x, progress);
}

template <class T>
double Solver<T>::time_spmv_ms(int repetitions) {
  return impl_->time_spmv_ms(repetitions);
}
template <class T>
const SetupInfo& Solver<T>::setup_info() const {
  return impl_->setup;
}
template <class T>
const SolverOptions& Solver<T>::options() const {
  return impl_->options;
}
template <class T>
index_t Solver<T>::rows() const {
  return impl_->rows;
}

template class Solver<float>;
template class Solver<double>;

}  // namespace spk
