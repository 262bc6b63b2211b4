// The CPU reference implementation of Solver<T>: the CSR reference operator, HostSpace, and
// the same method and preconditioner code as the GPU path.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <type_traits>

#include "solver/amg/host_amg_build.hpp"
#include "solver/amg/host_level_operator.hpp"
#include "solver/host_factors.hpp"
#include "solver/host_space.hpp"
#include "solver/host_threads.hpp"
#include "solver/krylov_driver.hpp"
#include "solver/preconditioner_factory.hpp"
#include "solver/solver_impl.hpp"
#include "spmv/host/reference_spmv.hpp"

namespace spk {

namespace {

// spmv.matrix_values single (precision mixed): the fp32-values operator the iteration runs
// with; null for `solver` (the iteration runs with the fp64 operator itself).
template <class T>
std::unique_ptr<HostFp32ValuesOperator> make_fp32_operator(const CsrMatrix<T>& matrix,
                                                           MatrixValues values) {
  if (values == MatrixValues::solver) return nullptr;
  if constexpr (std::is_same_v<T, double>) {
    return std::make_unique<HostFp32ValuesOperator>(matrix);
  } else {
    (void)matrix;
    throw BadInput(
        "spmv.matrix_values single: the solver is already fp32 (precision single); fp32 values "
        "under fp64 vectors are precision mixed");
  }
}

template <class T>
class HostSolver final : public Solver<T>::Impl {
 public:
  // Built on `threads` OpenMP threads (make_host_solver sets them), and every call after
  // runs on them too.
  HostSolver(const CsrMatrix<T>& matrix, const SolverOptions& solver_options, MatrixValues values,
             int threads)
      : threads_(threads),
        matrix_(matrix),
        operator_(matrix_),
        fp32_operator_(make_fp32_operator(matrix_, values)),
        iteration_(space_, iteration_operator(), solver_options,
                   timed_preconditioner<HostSpace<T>>(
                       this->setup.preconditioner,
                       [&] {
                         return make_preconditioner(
                             solver_options, space_, operator_,
                             SpacePattern{matrix_.rows, matrix_.cols, matrix_.row_offsets.data(),
                                          matrix_.columns.data()},
                             matrix_.values.data(), host_level_operator_factories());
                       }),
                   fp32_operator_ ? &operator_ : nullptr) {
    this->setup.operator_name = iteration_operator().name();
    const std::size_t value_bytes = fp32_operator_ ? sizeof(float) : sizeof(T);
    this->setup.bytes_per_spmv = matrix_.values.size() * (value_bytes + sizeof(index_t)) +
                                 (matrix_.row_offsets.size()) * sizeof(index_t) +
                                 2 * static_cast<std::size_t>(matrix_.rows) * sizeof(T);
  }

  SolveResult solve(const std::vector<T>& b, std::vector<T>& x,
                    const ProgressCallback& progress) override {
    return solve_in_place(b.data(), x.data(), progress);
  }

  SolveResult solve_in_place(const T* b, T* x, const ProgressCallback& progress) override {
    const ScopedHostThreads threads(threads_);
    return iteration_.solve(b, x, progress);
  }

  // Checked before anything changes: a rejected update leaves the solver as it was.
  void update_values(const T* values, bool /*on_device*/) override {
    const ScopedHostThreads threads(threads_);
    for (std::size_t k = 0; k < matrix_.values.size(); ++k)
      if (!std::isfinite(values[k]))
        throw BadInput("update_values: non-finite value at entry " + std::to_string(k) +
                       " (0-based)");
    std::vector<T> previous = matrix_.values;
    std::copy(values, values + matrix_.values.size(), matrix_.values.begin());
    try {
      if (fp32_operator_) fp32_operator_->refresh();  // a value past fp32's range throws
      iteration_.update_preconditioner(matrix_.values.data());
      iteration_.check_preconditioner();  // a zero Jacobi pivot throws BadDiagonal
    } catch (const BadInput&) {
      matrix_.values.swap(previous);
      if (fp32_operator_) fp32_operator_->refresh();
      iteration_.update_preconditioner(matrix_.values.data());
      iteration_.check_preconditioner();
      throw;
    }
    iteration_.refresh_preconditioner_info(this->setup.preconditioner);
  }

  double time_spmv_ms(int repetitions) override {
    const ScopedHostThreads threads(threads_);
    std::vector<T> x(static_cast<std::size_t>(matrix_.cols), T(1)),
        y(static_cast<std::size_t>(matrix_.rows));
    std::vector<double> times;
    for (int i = 0; i < std::max(1, repetitions); ++i) {
      const auto start = std::chrono::steady_clock::now();
      iteration_operator().apply(x.data(), y.data());
      times.push_back(
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
              .count());
    }
    std::nth_element(times.begin(), times.begin() + static_cast<std::ptrdiff_t>(times.size() / 2),
                     times.end());
    return times[times.size() / 2];
  }

 private:
  const LinearOperator<T>& iteration_operator() const {
    if constexpr (std::is_same_v<T, double>)
      if (fp32_operator_) return *fp32_operator_;
    return operator_;
  }

  int threads_;
  CsrMatrix<T> matrix_;
  HostCsrOperator<T> operator_;                            // fp64 (or fp32 for float)
  std::unique_ptr<HostFp32ValuesOperator> fp32_operator_;  // precision mixed only
  HostSpace<T> space_;
  KrylovIteration<HostSpace<T>> iteration_;
};

}  // namespace

template <class T>
std::unique_ptr<typename Solver<T>::Impl> make_host_solver(const CsrMatrix<T>& matrix,
                                                           const SolverOptions& options,
                                                           MatrixValues values) {
  const int threads = host_threads_for(matrix.rows);
  const std::string device_name = describe_host_threads(threads);  // before the scope below
  const ScopedHostThreads setup_threads(threads);  // the setup runs on the solves' threads
  auto solver = std::make_unique<HostSolver<T>>(matrix, options, values, threads);
  solver->setup.device_name = device_name;
  return solver;
}

template std::unique_ptr<Solver<float>::Impl> make_host_solver<float>(const CsrMatrix<float>&,
                                                                      const SolverOptions&,
                                                                      MatrixValues);
template std::unique_ptr<Solver<double>::Impl> make_host_solver<double>(const CsrMatrix<double>&,
                                                                        const SolverOptions&,
                                                                        MatrixValues);

}  // namespace spk
