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
// Pivots that break the factorization (preconditioner_options.shift, FactorizationOptions):
//   - IC(0) on an SPD matrix that is not an M-matrix can meet a pivot <= 0 (bcsstk13 at row
//     95). The remedy is Manteuffel's diagonal shift (Math. Comp. 34, 1980): factor
//     A + alpha diag(A), which for alpha large enough is an H-matrix, whose IC(0) exists.
//     shift auto tries alpha = 0, then alpha = 1e-3, 2e-3, 4e-3, ... (doubling) while alpha
//     <= 1e3 (at most 21 factorizations), until every pivot is > 0; a number tries that alpha
//     only. update_values starts from the last alpha that worked and doubles from there if it
//     must. A diagonal entry a_ii <= 0 stops the search at once (no shift mends it).
//   - ILU(0): a diagonal shift does nothing where a_ii = 0 (west0479: 471 of 479 rows). Unless
//     shift is none, a pivot smaller than 1e-4 x its row's mean |a_ij| is replaced by that
//     amount, with its sign (solver/factor_rows.hpp), a row without a diagonal entry gets one
//     (a zero, then replaced), and both are counted. A number also shifts by alpha diag(A).
//   - shift none: today's plain factorization; a bad pivot is an error.
// The report gives the shift used, the factorizations it took and (ILU(0)) the pivots replaced.
// A pivot that is still bad (IC(0) past the largest shift, a zero row, a non-finite value) is
// reported by check() as BadDiagonal naming the first such row; the solve never runs on NaN
// factors.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "solver/factor_pattern.hpp"
#include "solver/jacobi_entry.hpp"
#include "solver/preconditioner.hpp"
#include "solver/space_pattern.hpp"
#include "spkrylov/options.hpp"
#include "spmv/host/csr_matrix.hpp"

namespace spk {

// The triangular factors of a space: FactorsOf<HostSpace<T>>::type = HostFactors<T>, ...
// Each has ctor(space, pattern), factor(csr_values, fault), solve(r, z), bytes().
template <class Space>
struct FactorsOf;

// shift auto (IC(0)): the first shift tried after alpha = 0, and the largest (doubling).
constexpr double first_auto_shift = 1e-3;
constexpr double max_auto_shift = 1e3;

template <class Space>
class IncompleteFactorizationPreconditioner final : public KrylovPreconditioner<Space> {
 public:
  using T = typename Space::value_type;
  using Factors = typename FactorsOf<Space>::type;

  // pattern: the matrix's pattern in the space (analysed on the host: on the GPU it is
  // downloaded once, host_pattern); csr_values: its values in the space, in CSR order.
  IncompleteFactorizationPreconditioner(Space& space, FactorKind kind, const SpacePattern& pattern,
                                        const T* csr_values,
                                        const FactorizationOptions& options = {})
      : space_(space),
        options_(options),
        pattern_(make_factor_pattern(kind, host_pattern<T>(space, pattern),
                                     replaces_pivots(kind, options))),
        factors_(space, pattern_),
        status_(
            space.template allocate<std::uint64_t>(factor_status::words, "factorization status")),
        shift_(options.shift == FactorShift::fixed ? options.shift_value : 0.0) {
    const auto start = std::chrono::steady_clock::now();
    update_values(csr_values);
    space.synchronize();
    factor_s_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    check();
  }

  void apply(const T* r, T* z) override { factors_.solve(r, z); }  // z = (L U)^-1 r

  // Asynchronous with shift none; otherwise it reads the status after each factorization
  // (one synchronization each), to search the shift or count the replaced pivots.
  void update_values(const T* csr_values) override {
    attempts_ = 0;
    const bool search =
        pattern_.kind == FactorKind::ic0 && options_.shift == FactorShift::automatic;
    double shift = shift_;  // the last one that worked
    for (;;) {
      factors_.factor(csr_values, FactorRequest{shift, replaces_pivots(pattern_.kind, options_)},
                      status_.data());
      ++attempts_;
      tried_shift_ = shift;
      if (options_.shift == FactorShift::none) {
        check_pending_ = true;
        return;
      }
      read_status();
      const std::uint64_t reason = fault_code_ % 4;
      if (fault_code_ == diagonal_fault::no_fault) shift_ = shift;
      if (!search || fault_code_ == diagonal_fault::no_fault ||
          reason == diagonal_fault::nonpositive_diagonal || reason == diagonal_fault::not_finite)
        return;
      // A + alpha diag(A) with a pivot <= 0: double alpha (from first_auto_shift)
      shift = shift == 0.0 ? first_auto_shift : 2.0 * shift;
      if (shift > max_auto_shift) return;  // check() reports the fault
    }
  }

  void check() override {
    if (check_pending_) read_status();
    check_pending_ = false;
    throw_pivot_fault(pattern_.kind, fault_code_, shift_note());
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
    info.details.push_back(
        {"shift", options_.shift == FactorShift::none ? std::string("none") : shift_text(shift_)});
    info.details.push_back({"shift_attempts", std::to_string(attempts_)});
    if (replaces_pivots(pattern_.kind, options_)) {
      info.details.push_back({"replaced_pivots", std::to_string(replaced_pivots_)});
      info.details.push_back({"inserted_diagonals", std::to_string(pattern_.inserted_diagonals)});
    }
    info.setup_phases_s = {{"factorization", factor_s_}};
    return info;
  }

  // The alpha of A + alpha diag(A) the factors hold, the factorizations the last setup or
  // update_values took, and the pivots it replaced (ILU(0)): for tests.
  double shift() const { return shift_; }
  int attempts() const { return attempts_; }
  std::uint64_t replaced_pivots() const { return replaced_pivots_; }

 private:
  // ILU(0) replaces tiny pivots (and inserts missing diagonal entries) unless shift is none.
  static bool replaces_pivots(FactorKind kind, const FactorizationOptions& options) {
    return kind == FactorKind::ilu0 && options.shift != FactorShift::none;
  }
  static std::string shift_text(double shift) {
    char text[32];
    std::snprintf(text, sizeof text, "%.6g", shift);
    return text;
  }
  void read_status() {
    const std::vector<std::uint64_t> status = space_.download(status_.data(), factor_status::words);
    fault_code_ = status[factor_status::fault];
    replaced_pivots_ = status[factor_status::replaced];
  }
  // What the BadDiagonal of a failed factorization adds about the shifts.
  std::string shift_note() const {
    switch (options_.shift) {
      case FactorShift::none: return "";
      case FactorShift::fixed:
        return "with A + " + shift_text(tried_shift_) + " diag(A)" +
               (replaces_pivots(pattern_.kind, options_) ? ", tiny pivots replaced" : "");
      case FactorShift::automatic:
        if (pattern_.kind == FactorKind::ilu0) return "tiny pivots replaced";
        return std::to_string(attempts_) +
               " factorization(s) of A + alpha diag(A), the last with " +
               "alpha = " + shift_text(tried_shift_) +
               "; shift auto stops past alpha = " + shift_text(max_auto_shift);
    }
    return "";
  }

  Space& space_;
  FactorizationOptions options_;
  FactorPattern pattern_;
  Factors factors_;
  typename Space::template Array<std::uint64_t> status_;
  double shift_ = 0.0;        // the alpha of the last factorization that worked
  double tried_shift_ = 0.0;  // the alpha of the last factorization
  int attempts_ = 0;
  bool check_pending_ = false;
  std::uint64_t fault_code_ = diagonal_fault::no_fault;
  std::uint64_t replaced_pivots_ = 0;
  double factor_s_ = 0.0;
};

}  // namespace spk
