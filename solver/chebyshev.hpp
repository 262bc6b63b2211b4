#pragma once
// Chebyshev polynomial preconditioner and smoother: z = p(D^-1 A) D^-1 r, p of degree k-1 so
// that 1 - lambda p(lambda) is the degree-k Chebyshev polynomial scaled to [lambda_min,
// lambda_max], the smallest possible on that interval (Saad, "Iterative Methods for Sparse
// Linear Systems", 2nd ed., Algorithm 12.1, with D^-1 as the inner preconditioner; Adams,
// Brezina, Hu & Tuminaro, "Parallel multigrid smoothing: polynomial versus Gauss-Seidel",
// J. Comput. Phys. 2003, for its use as a smoother).
//
// lambda_max is upper_factor times an estimate of lambda_max(D^-1 A) (solver/
// eigen_estimate.hpp), lambda_min is lower_ratio * lambda_max. With theta = (max + min) / 2,
// delta = (max - min) / 2, sigma = theta / delta:
//   r = b - A x,  d = D^-1 r / theta,  x += d,  rho = 1 / sigma
//   k - 1 times:  r -= A d,  rho' = 1 / (2 sigma - rho),
//                 d = rho' rho d + (2 rho' / delta) D^-1 r,  x += d,  rho = rho'
// k SpMVs through the operator it is given (the configured SpMV backend), k - 1 from x = 0.
// From x = 0 with fixed bounds it is a fixed linear operator, symmetric positive definite
// when A is (D^-1/2 p(S) D^-1/2, S = D^-1/2 A D^-1/2, p > 0 on (0, lambda_max]): valid in CG.
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "solver/eigen_estimate.hpp"
#include "solver/jacobi.hpp"
#include "solver/preconditioner.hpp"
#include "spkrylov/options.hpp"
#include "spmv/linear_operator.hpp"

namespace spk {

// The polynomial on one operator: shared by the preconditioner below and the AMG smoother.
template <class Space>
class ChebyshevPolynomial {
 public:
  using T = typename Space::value_type;

  // matrix and inverse_diagonal (D^-1, in the space) must outlive it.
  ChebyshevPolynomial(Space& space, const LinearOperator<T>& matrix, const T* inverse_diagonal,
                      int degree)
      : space_(space),
        matrix_(matrix),
        inverse_diagonal_(inverse_diagonal),
        degree_(degree),
        n_(static_cast<std::size_t>(matrix.rows())),
        r_(space.template allocate<T>(n_, "Chebyshev residual")),
        d_(space.template allocate<T>(n_, "Chebyshev update")),
        coefficients_(space.template allocate<T>(2 * static_cast<std::size_t>(degree) + 1,
                                                 "Chebyshev coefficients")) {}

  // The interval [lambda_min, lambda_max] the polynomial is scaled to (0 < min < max).
  void set_bounds(double lambda_min, double lambda_max) {
    lambda_min_ = lambda_min;
    lambda_max_ = lambda_max;
    const double theta = 0.5 * (lambda_max + lambda_min);
    const double delta = 0.5 * (lambda_max - lambda_min);
    const double sigma = theta / delta;
    // [unused, 1/theta, then per later step: rho' rho, 2 rho' / delta]
    std::vector<T> host(coefficients_.size());
    host[0] = T(1);
    host[1] = static_cast<T>(1.0 / theta);
    double rho = 1.0 / sigma;
    for (int k = 1; k < degree_; ++k) {
      const double rho_next = 1.0 / (2.0 * sigma - rho);
      host[2 * static_cast<std::size_t>(k)] = static_cast<T>(rho_next * rho);
      host[2 * static_cast<std::size_t>(k) + 1] = static_cast<T>(2.0 * rho_next / delta);
      rho = rho_next;
    }
    space_.upload(host, coefficients_.data());
  }

  // x = x + p(D^-1 A) D^-1 (b - A x); with x_is_zero, x's contents are ignored (x = p D^-1 b).
  // Each step's vector work is one pass (Space::polynomial_step).
  void apply(const T* b, T* x, bool x_is_zero) {
    const T* const first_step = coefficients_.data();  // [unused, 1/theta]
    T* const r = r_.data();
    T* const d = d_.data();
    space_.copy(n_, b, r);                                    // r = b
    if (!x_is_zero) matrix_.apply_scaled(T(-1), x, T(1), r);  // r = b - A x
    // d = D^-1 r / theta,  x = x + d (x = d from zero)
    space_.polynomial_step(n_, inverse_diagonal_, r, first_step, d, x, true, x_is_zero);
    for (int k = 1; k < degree_; ++k) {
      matrix_.apply_scaled(T(-1), d, T(1), r);  // r = r - A d
      // d = rho' rho d + (2 rho' / delta) D^-1 r,  x = x + d
      space_.polynomial_step(n_, inverse_diagonal_, r, coefficients_.data() + 2 * k, d, x, false,
                             false);
    }
  }

  int degree() const { return degree_; }
  double lambda_min() const { return lambda_min_; }
  double lambda_max() const { return lambda_max_; }

 private:
  Space& space_;
  const LinearOperator<T>& matrix_;
  const T* inverse_diagonal_;
  int degree_;
  std::size_t n_;
  typename Space::template Array<T> r_, d_, coefficients_;
  double lambda_min_ = 0.0, lambda_max_ = 0.0;
};

// lambda_max(D^-1 A) as `options` asks (lanczos falls back to gershgorin when it breaks down,
// e.g. on an indefinite matrix). `gershgorin()` computes the Gershgorin bound.
template <class Space, class T, class Gershgorin>
EigenBound estimate_lambda_max(Space& space, const LinearOperator<T>& matrix,
                               const T* inverse_diagonal, const ChebyshevOptions& options,
                               const Gershgorin& gershgorin) {
  EigenBound bound;
  if (options.eigen_estimate == EigenEstimate::lanczos) {
    int steps = 0;
    const double lanczos =
        lanczos_lambda_max(space, matrix, inverse_diagonal, options.estimate_iterations, &steps);
    if (steps > 0 && lanczos > 0.0 && std::isfinite(lanczos)) {
      bound.lambda_max = lanczos;
      bound.source = "lanczos (" + std::to_string(steps) + " steps)";
      return bound;
    }
    bound.source = "gershgorin (lanczos broke down)";
  } else {
    bound.source = "gershgorin";
  }
  bound.lambda_max = gershgorin();
  return bound;
}

// The Chebyshev preconditioner: Jacobi's D^-1 (and its zero-pivot check) plus the polynomial.
// Setup and update_values estimate the bounds again, synchronously (a few SpMVs and reads).
template <class Space>
class ChebyshevPreconditioner final : public KrylovPreconditioner<Space> {
 public:
  using T = typename Space::value_type;

  // matrix: the operator the solver uses (its SpMV backend); pattern: the same matrix's pattern
  // in the space (its row offsets are kept, for the Gershgorin bound of later updates);
  // csr_values: its values in the space.
  ChebyshevPreconditioner(Space& space, const LinearOperator<T>& matrix,
                          const SpacePattern& pattern, const T* csr_values,
                          const ChebyshevOptions& options)
      : space_(space),
        matrix_(matrix),
        options_(options),
        jacobi_(space, pattern, csr_values),
        polynomial_(space, matrix, jacobi_.inverse_diagonal(), options.degree),
        row_offsets_(space.template allocate<index_t>(static_cast<std::size_t>(pattern.rows) + 1,
                                                      "Chebyshev row offsets")) {
    space.copy_within(pattern.row_offsets, row_offsets_.size(), row_offsets_.data());
    estimate_bounds(csr_values);
  }

  void apply(const T* r, T* z) override { polynomial_.apply(r, z, true); }  // z = p D^-1 r

  void update_values(const T* csr_values) override {
    jacobi_.update_values(csr_values);
    try {
      jacobi_.check();
    } catch (const BadInput&) {
      return;  // no bounds from a bad diagonal: check(), at the next solve, reports it
    }
    estimate_bounds(csr_values);
  }

  void check() override { jacobi_.check(); }
  std::string name() const override { return "chebyshev"; }

  PreconditionerInfo info() const override {
    PreconditionerInfo info;
    info.name = name();
    info.details = {{"degree", std::to_string(polynomial_.degree())},
                    {"lambda_max_estimate", std::to_string(bound_.lambda_max)},
                    {"estimate", bound_.source},
                    {"interval", "[" + std::to_string(polynomial_.lambda_min()) + ", " +
                                     std::to_string(polynomial_.lambda_max()) + "]"}};
    return info;
  }

 private:
  void estimate_bounds(const T* csr_values) {
    const std::size_t n = row_offsets_.size() - 1;
    bound_ = estimate_lambda_max(space_, matrix_, jacobi_.inverse_diagonal(), options_, [&] {
      return space_.gershgorin_bound(n, row_offsets_.data(), csr_values, jacobi_.positions());
    });
    const double high = options_.upper_factor * bound_.lambda_max;
    polynomial_.set_bounds(options_.lower_ratio * high, high);
  }

  Space& space_;
  const LinearOperator<T>& matrix_;
  ChebyshevOptions options_;
  JacobiPreconditioner<Space> jacobi_;
  ChebyshevPolynomial<Space> polynomial_;
  typename Space::template Array<index_t> row_offsets_;
  EigenBound bound_;
};

}  // namespace spk
