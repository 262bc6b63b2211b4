#pragma once
// UserSystemSolver<Space>: Solver<T>::Impl for a system given by operators
// (include/spkrylov/user_operator.hpp), on the host or the device space: the caller's A as the
// LinearOperator the Krylov driver applies (its true residuals included), and the caller's M,
// Jacobi from a diagonal the caller gives, or no preconditioner. The methods, the driver and
// the stopping rules are the CSR solver's (solver/krylov_driver.hpp); only where A and M come
// from differs. CUDA graphs are off: a graph would replay the first capture of the user's code.
#include <memory>
#include <string>
#include <utility>

#include "solver/jacobi.hpp"
#include "solver/krylov_driver.hpp"
#include "solver/preconditioner.hpp"
#include "solver/preconditioner_factory.hpp"
#include "solver/solver_impl.hpp"
#include "spkrylov/errors.hpp"
#include "spkrylov/user_operator.hpp"

namespace spk {

// Calls the user's apply, its exceptions as one BadInput naming the operator.
template <class T>
void apply_user_operator(UserOperator<T>& op, const char* which, const T* x, T* y,
                         cudaStream_t stream) {
  try {
    op.apply(x, y, stream);
  } catch (const std::exception& error) {
    throw BadInput(std::string("user operator ") + which + ": " + error.what());
  } catch (...) {
    throw BadInput(std::string("user operator ") + which + ": threw a non-standard exception");
  }
}

// y = alpha A x + beta y with the user's A (y = A x into a scratch vector when beta != 0).
template <class Space>
class UserMatrixOperator final : public LinearOperator<typename Space::value_type> {
 public:
  using T = typename Space::value_type;
  UserMatrixOperator(Space& space, std::shared_ptr<UserOperator<T>> op, index_t rows,
                     cudaStream_t stream)
      : space_(space),
        op_(std::move(op)),
        rows_(rows),
        stream_(stream),
        scratch_(space.template allocate<T>(static_cast<std::size_t>(rows), "user A x")),
        coefficients_(space.template allocate<T>(2, "user A coefficients")) {}

  void apply_scaled(T alpha, const T* x, T beta, T* y) const override {
    const auto n = static_cast<std::size_t>(rows_);
    if (beta == T(0)) {
      apply_user_operator(*op_, "A", x, y, stream_);  // y = A x
      if (alpha != T(1)) scale(alpha, beta, n, y);    // y = alpha A x
      return;
    }
    apply_user_operator(*op_, "A", x, scratch_.data(), stream_);  // s = A x
    scale(alpha, beta, n, y);                                      // y = beta y
    space_.axpy(n, coefficients_.data(), scratch_.data(), y);      // y += alpha s
  }
  index_t rows() const override { return rows_; }
  index_t cols() const override { return rows_; }
  std::string name() const override { return "user operator"; }

 private:
  // coefficients = (alpha, beta) in the space (uploaded when they change); y = beta y, or
  // y = alpha y when beta is 0 (the scaled plain product).
  void scale(T alpha, T beta, std::size_t n, T* y) const {
    if (alpha != alpha_ || beta != beta_) {
      space_.upload(std::vector<T>{alpha, beta}, coefficients_.data());
      alpha_ = alpha;
      beta_ = beta;
    }
    space_.scal(n, beta == T(0) ? coefficients_.data() : coefficients_.data() + 1, y);
  }

  Space& space_;
  std::shared_ptr<UserOperator<T>> op_;
  index_t rows_;
  cudaStream_t stream_;
  mutable typename Space::template Array<T> scratch_;
  mutable typename Space::template Array<T> coefficients_;
  mutable T alpha_ = T(0), beta_ = T(0);  // what coefficients_ holds (0, 0: nothing yet)
};

// z = M r with the user's M.
template <class Space>
class UserPreconditioner final : public KrylovPreconditioner<Space> {
 public:
  using T = typename Space::value_type;
  UserPreconditioner(std::shared_ptr<UserOperator<T>> op, cudaStream_t stream)
      : op_(std::move(op)), stream_(stream) {}
  void apply(const T* r, T* z) override { apply_user_operator(*op_, "M", r, z, stream_); }
  void update_values(const T*) override {
    throw NotSupported("update_values: the system is given by user operators");
  }
  void check() override {}
  std::string name() const override { return "user"; }

 private:
  std::shared_ptr<UserOperator<T>> op_;
  cudaStream_t stream_;
};

// Place: where the vectors live, first of the solver's members, made from the solver's stream:
//   Space space;                  the vector space (after whatever it needs)
//   cudaStream_t stream();        what the user's operators are given
//   with_host_vectors(b, x, solve)   solve(b, x) with host vectors' copies in the space (or
//                                 the vectors themselves on the host), x copied back
template <class Place>
class UserSystemSolver final : public Solver<typename Place::Space::value_type>::Impl {
 public:
  using Space = typename Place::Space;
  using T = typename Space::value_type;
  // options.cuda_graph is turned off here.
  UserSystemSolver(const UserSystem<T>& system, const SolverOptions& solver_options,
                   cudaStream_t solver_stream)
      : place_(solver_stream),
        matrix_(place_.space, system.matrix, system.rows, place_.stream()),
        iteration_(place_.space, matrix_, without_graphs(solver_options),
                   timed_preconditioner<Space>(this->setup.preconditioner, [&] {
                     return make(place_.space, system, solver_options.preconditioner,
                                 place_.stream());
                   })) {
    this->setup.operator_name = matrix_.name();
    this->stream = place_.stream();
  }

  SolveResult solve(const std::vector<T>& b, std::vector<T>& x,
                    const ProgressCallback& progress) override {
    return place_.with_host_vectors(b, x, [&](const T* b_in_space, T* x_in_space) {
      return iteration_.solve(b_in_space, x_in_space, progress);
    });
  }
  SolveResult solve_in_place(const T* b, T* x, const ProgressCallback& progress) override {
    return iteration_.solve(b, x, progress);
  }
  void update_values(const T*, bool) override {
    throw NotSupported("update_values: the system is given by user operators (change what "
                       "your operator applies instead)");
  }
  double time_spmv_ms(int) override {
    throw NotSupported("time_spmv_ms: the system is given by user operators");
  }

 private:
  static SolverOptions without_graphs(SolverOptions options) {
    options.cuda_graph = false;
    return options;
  }
  static std::unique_ptr<KrylovPreconditioner<Space>> make(Space& space,
                                                           const UserSystem<T>& system,
                                                           Preconditioner kind,
                                                           cudaStream_t stream) {
    if (system.preconditioner)
      return std::make_unique<UserPreconditioner<Space>>(system.preconditioner, stream);
    if (kind != Preconditioner::jacobi) return nullptr;
    // Jacobi of the diagonal matrix diag(A): its pattern and values in the space.
    const auto n = static_cast<std::size_t>(system.rows);
    std::vector<index_t> offsets(n + 1), columns(n);
    for (std::size_t i = 0; i <= n; ++i) offsets[i] = static_cast<index_t>(i);
    for (std::size_t i = 0; i < n; ++i) columns[i] = static_cast<index_t>(i);
    auto row_offsets = space.template allocate<index_t>(n + 1, "user diagonal offsets");
    auto column_ids = space.template allocate<index_t>(n, "user diagonal columns");
    auto values = space.template allocate<T>(n, "user diagonal");
    space.upload(offsets, row_offsets.data());
    space.upload(columns, column_ids.data());
    space.upload(system.diagonal, values.data());
    return std::make_unique<JacobiPreconditioner<Space>>(
        space, SpacePattern{system.rows, system.rows, row_offsets.data(), column_ids.data()},
        values.data());
  }

  Place place_;
  UserMatrixOperator<Space> matrix_;
  KrylovIteration<Space> iteration_;
};

}  // namespace spk
