// The CPU reference implementation of Solver<T>.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <memory>

#include "solver/host_space.hpp"
#include "solver/jacobi.hpp"
#include "solver/krylov.hpp"
#include "solver/solver_impl.hpp"
#include "spmv/host/reference_spmv.hpp"

namespace spk {

namespace {

template <class T>
class HostSolver final : public Solver<T>::Impl {
 public:
  HostSolver(const CsrMatrix<T>& matrix, const SolverOptions& solver_options)
      : matrix_(matrix), operator_(matrix_), krylov_() {
    if (solver_options.preconditioner == Preconditioner::jacobi)
      inverse_diagonal_ = jacobi_inverse_diagonal(matrix_);
    this->setup.device_name = "CPU (" + std::to_string(omp_get_max_threads()) + " threads)";
    this->setup.operator_name = operator_.name();
    this->setup.bytes_per_spmv = matrix_.values.size() * (sizeof(T) + sizeof(index_t)) +
                                 (matrix_.row_offsets.size()) * sizeof(index_t) +
                                 2 * static_cast<std::size_t>(matrix_.rows) * sizeof(T);
    krylov_ = std::make_unique<KrylovSolve<HostSpace<T>>>(
        space_, operator_, inverse_diagonal_.empty() ? nullptr : inverse_diagonal_.data(),
        solver_options);
  }

  SolveResult solve(const std::vector<T>& b, std::vector<T>& x,
                    const ProgressCallback& progress) override {
    return solve_in_place(b.data(), x.data(), progress);
  }

  SolveResult solve_in_place(const T* b, T* x, const ProgressCallback& progress) override {
    return krylov_->run(b, x, progress);
  }

  void update_values(const std::vector<T>& values) override {
    std::vector<T> inverse_diagonal;
    if (!inverse_diagonal_.empty()) {
      CsrMatrix<T> updated = matrix_;
      updated.values = values;
      inverse_diagonal = jacobi_inverse_diagonal(updated);  // throws before anything changes
    }
    matrix_.values = values;
    // In place: the Krylov state holds this pointer.
    std::copy(inverse_diagonal.begin(), inverse_diagonal.end(), inverse_diagonal_.begin());
  }

  double time_spmv_ms(int repetitions) override {
    std::vector<T> x(static_cast<std::size_t>(matrix_.cols), T(1)),
        y(static_cast<std::size_t>(matrix_.rows));
    std::vector<double> times;
    for (int i = 0; i < std::max(1, repetitions); ++i) {
      const auto start = std::chrono::steady_clock::now();
      operator_.apply(x.data(), y.data());
      times.push_back(
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
              .count());
    }
    std::nth_element(times.begin(), times.begin() + static_cast<std::ptrdiff_t>(times.size() / 2),
                     times.end());
    return times[times.size() / 2];
  }

 private:
  CsrMatrix<T> matrix_;
  HostCsrOperator<T> operator_;
  std::vector<T> inverse_diagonal_;
  HostSpace<T> space_;
  std::unique_ptr<KrylovSolve<HostSpace<T>>> krylov_;
};

}  // namespace

template <class T>
std::unique_ptr<typename Solver<T>::Impl> make_host_solver(const CsrMatrix<T>& matrix,
                                                           const SolverOptions& options) {
  return std::make_unique<HostSolver<T>>(matrix, options);
}

template std::unique_ptr<Solver<float>::Impl> make_host_solver<float>(const CsrMatrix<float>&,
                                                                      const SolverOptions&);
template std::unique_ptr<Solver<double>::Impl> make_host_solver<double>(const CsrMatrix<double>&,
                                                                        const SolverOptions&);

}  // namespace spk
