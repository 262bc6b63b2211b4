#pragma once
// Bounds on lambda_max(D^-1 A), D = diag(A), for Chebyshev polynomials and AMG smoothers.
//
// lanczos: m steps of Jacobi-preconditioned CG from a fixed pseudo-random right-hand side
// (solver/lanczos_start.hpp, made where the vectors live; the same on every path and run, so
// is the bound). CG's coefficients give the Lanczos
// tridiagonal matrix T_m of D^-1 A (Saad, "Iterative Methods for Sparse Linear Systems",
// 2nd ed., sec. 6.7.3):
//   T_kk = 1/alpha_k + beta_{k-1}/alpha_{k-1},   T_k,k+1 = sqrt(beta_k) / alpha_k,
// whose largest eigenvalue (Sturm bisection) approaches lambda_max from below. It needs A
// symmetric positive definite; a step with (p, Ap) <= 0 ends it early.
// gershgorin: max_i sum_j |a_ij| / |a_ii|, an upper bound for any A (discs of D^-1 A).
//
// Each Lanczos step reads two scalars back (setup only).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "spmv/host/csr_matrix.hpp"
#include "spmv/linear_operator.hpp"

namespace spk {

struct EigenBound {
  double lambda_max = 0.0;  // the estimate, before any safety factor
  std::string source;       // "lanczos (10 steps)", "gershgorin", "gershgorin (lanczos broke down)"
};

// Largest eigenvalue of the symmetric tridiagonal matrix (diagonal, off_diagonal[k] between
// k and k+1), by bisection on Sturm counts.
double tridiagonal_lambda_max(const std::vector<double>& diagonal,
                              const std::vector<double>& off_diagonal);

// max_i sum_j |a_ij| / |a_ii| over rows with a nonzero diagonal entry.
template <class T>
double gershgorin_lambda_max(const CsrMatrix<T>& matrix);

template <class Space>
double lanczos_lambda_max(Space& space, const LinearOperator<typename Space::value_type>& matrix,
                          const typename Space::value_type* inverse_diagonal, int steps,
                          int* steps_done) {
  using T = typename Space::value_type;
  const std::size_t n = static_cast<std::size_t>(matrix.rows());
  auto r = space.template allocate<T>(n, "Lanczos residual");
  auto z = space.template allocate<T>(n, "Lanczos preconditioned residual");
  auto p = space.template allocate<T>(n, "Lanczos direction");
  auto q = space.template allocate<T>(n, "Lanczos product");
  auto scalars = space.template allocate<T>(3, "Lanczos scalars");  // (p,Ap), (r,z), step
  T* const p_ap = scalars.data();
  T* const rho_slot = scalars.data() + 1;
  T* const step = scalars.data() + 2;
  const auto read = [&](const T* value) {
    return static_cast<double>(space.download(value, 1)[0]);
  };
  const auto write = [&](T* slot, double value) {
    space.upload(std::vector<T>{static_cast<T>(value)}, slot);
  };

  const std::size_t first = space.first_global_index();                 // its first global row
  space.fill_lanczos_start(n, first, r.data());                         // r = v (x0 = 0)
  space.multiply_elementwise(n, inverse_diagonal, r.data(), z.data());  // z = D^-1 r
  space.copy(n, z.data(), p.data());                                    // p = z
  space.dot(n, r.data(), z.data(), rho_slot);                           // rho = (r, z)
  double rho = read(rho_slot);
  std::vector<double> alphas, betas;
  for (int k = 0; k < steps && rho > 0.0 && std::isfinite(rho); ++k) {
    matrix.apply(p.data(), q.data());        // q = A p
    space.dot(n, p.data(), q.data(), p_ap);  // (p, Ap)
    const double pq = read(p_ap);
    if (!(pq > 0.0) || !std::isfinite(pq)) break;
    const double alpha = rho / pq;  // alpha = rho / (p, Ap)
    write(step, -alpha);
    space.axpy(n, step, q.data(), r.data());                              // r = r - alpha A p
    space.multiply_elementwise(n, inverse_diagonal, r.data(), z.data());  // z = D^-1 r
    space.dot(n, r.data(), z.data(), rho_slot);                           // rho' = (r, z)
    const double rho_new = read(rho_slot);
    const double beta = rho_new / rho;  // beta = rho' / rho
    alphas.push_back(alpha);
    betas.push_back(beta);
    if (!(rho_new > 0.0) || !std::isfinite(rho_new)) break;
    write(step, beta);
    space.scal(n, step, p.data());  // p = beta p
    write(step, 1.0);
    space.axpy(n, step, z.data(), p.data());  // p = z + beta p
    rho = rho_new;
  }
  *steps_done = static_cast<int>(alphas.size());
  if (alphas.empty()) return 0.0;
  std::vector<double> diagonal(alphas.size()), off_diagonal(alphas.size() - 1);
  for (std::size_t k = 0; k < alphas.size(); ++k) {
    diagonal[k] = 1.0 / alphas[k] + (k > 0 ? betas[k - 1] / alphas[k - 1] : 0.0);
    if (k + 1 < alphas.size()) off_diagonal[k] = std::sqrt(betas[k]) / alphas[k];
  }
  return tridiagonal_lambda_max(diagonal, off_diagonal);
}

}  // namespace spk
