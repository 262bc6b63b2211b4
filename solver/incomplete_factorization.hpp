#pragma once
// IC(0) and ILU(0) preconditioners: M = L L^T (IC(0), for CG) or M = L U (ILU(0), for
// BiCGSTAB), with the factors restricted to A's pattern (zero fill-in), applied as a forward
// and a backward triangular solve.
//
// The factorization is exact (the classical IC(0)/ILU(0), solver/factor_rows.hpp), computed
// level by level (solver/factor_pattern.hpp): on the GPU a kernel per level over its rows. The
// iterative ParIC/ParILU of Chow & Patel (SIAM J. Sci. Comput. 2015) converges to the same
// factors only after about as many sweeps as there are levels for a 1e-6 agreement, so the
// level-scheduled exact version is used; cuSPARSE's csric02/csrilu02 (deprecated in CUDA 13)
// check it in the GPU tests. The triangular solves are cusparseSpSV on the GPU (analysis
// once, values updated in place) and plain substitution on the CPU: Factors<Space>, written
// per space (solver/host_factors.hpp, solver/device_factors.hpp).
//
// A zero pivot (ILU(0)) or a pivot <= 0 (IC(0)) is reported by check() as BadDiagonal naming
// the first such row; the solve never runs on NaN factors.
#include <chrono>
#include <cstdint>
#include <string>

#include "solver/factor_pattern.hpp"
#include "solver/jacobi_entry.hpp"
#include "solver/preconditioner.hpp"
#include "solver/space_pattern.hpp"
#include "spmv/host/csr_matrix.hpp"

namespace spk {

// The triangular factors of a space: FactorsOf<HostSpace<T>>::type = HostFactors<T>, ...
// Each has ctor(space, pattern), factor(csr_values, fault), solve(r, z), bytes().
template <class Space>
struct FactorsOf;

template <class Space>
class IncompleteFactorizationPreconditioner final : public KrylovPreconditioner<Space> {
 public:
  using T = typename Space::value_type;
  using Factors = typename FactorsOf<Space>::type;

  // pattern: the matrix's pattern in the space (analysed on the host: on the GPU it is
  // downloaded once, host_pattern); csr_values: its values in the space, in CSR order.
  IncompleteFactorizationPreconditioner(Space& space, FactorKind kind, const SpacePattern& pattern,
                                        const T* csr_values)
      : space_(space),
        pattern_(make_factor_pattern(kind, host_pattern<T>(space, pattern))),
        factors_(space, pattern_),
        fault_(space.template allocate<std::uint64_t>(1, "factorization fault code")) {
    const auto start = std::chrono::steady_clock::now();
    update_values(csr_values);
    space.synchronize();
    factor_s_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    check();
  }

  void apply(const T* r, T* z) override { factors_.solve(r, z); }  // z = (L U)^-1 r

  void update_values(const T* csr_values) override {
    factors_.factor(csr_values, fault_.data());
    check_pending_ = true;
  }

  void check() override {
    if (check_pending_) fault_code_ = space_.download(fault_.data(), 1)[0];
    check_pending_ = false;
    throw_pivot_fault(pattern_.kind, fault_code_);
  }

  std::string name() const override { return to_string(pattern_.kind); }

  PreconditionerInfo info() const override {
    PreconditionerInfo info;
    info.name = name();
    info.details = {{"factor_nnz", std::to_string(pattern_.nnz())},
                    {"factorization_ms", std::to_string(1e3 * factor_s_)},
                    {"lower_solve_levels", std::to_string(pattern_.lower_levels())},
                    {"upper_solve_levels", std::to_string(pattern_.upper_levels)},
                    {"factor_bytes", std::to_string(factors_.bytes())}};
    info.setup_phases_s = {{"factorization", factor_s_}};
    return info;
  }

 private:
  Space& space_;
  FactorPattern pattern_;
  Factors factors_;
  typename Space::template Array<std::uint64_t> fault_;
  bool check_pending_ = false;
  std::uint64_t fault_code_ = diagonal_fault::no_fault;
  double factor_s_ = 0.0;
};

}  // namespace spk
