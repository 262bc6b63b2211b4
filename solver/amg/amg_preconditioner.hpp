#pragma once
// Smoothed-aggregation algebraic multigrid (Vanek, Mandel & Brezina, "Algebraic multigrid by
// smoothed aggregation for second and fourth order elliptic problems", Computing 56, 1996),
// applied as one V-cycle per preconditioner application (Briggs, Henson & McCormick, "A
// Multigrid Tutorial", 2nd ed., ch. 3), written once against the vector space.
//
// The hierarchy (aggregates, P_l, R_l = P_l^T, A_{l+1} = R_l A_l P_l, the coarsest inverse)
// is built where the space lives (solver/amg/hierarchy.hpp, by AmgBuildOf<Space>: on the host
// for the CPU path, on the GPU for the GPU path); each level's matrices become operators in
// the space through the solver's LevelOperatorFactory (solver/amg/level_operator.hpp): on the
// GPU an SpMV backend per matrix in the level's format, built from the device arrays. The
// finest level reuses the solver's own operator when its format is the solver's.
//
// z = V_0(r), from a zero initial guess, where on level l (b: the level's right-hand side):
//   coarsest:  x = A_c^-1 b
//   otherwise: x = S^nu(b) from x = 0        pre-smoothing, nu = sweeps
//              r = b - A_l x
//              x += P_l V_{l+1}(R_l r)       coarse-grid correction
//              x = S^nu(b) from x            post-smoothing
// S is the Chebyshev polynomial in D^-1 A (solver/chebyshev.hpp) on [lower_ratio, 1] *
// upper_factor * lambda_l, or damped Jacobi x += (w / lambda_l) D^-1 (b - A x). Both are
// polynomials in D^-1 A, self-adjoint in the A inner product, the same before and after the
// correction, and R = P^T, so for an SPD A the cycle is a fixed SPD operator: valid in CG.
//
// The coarsest solve applies the explicit inverse A_c^-1 (computed on the host from an LU
// factorization with partial pivoting) as one matrix-vector product through the level
// operator factory, on every path. With at most a few thousand rows it is a small dense
// product: on the GPU one fully parallel kernel, where cuSOLVER's getrs would run two
// triangular solves, sequential in the rows, and need a handle, workspace and an info
// check per solve; it needs nothing beyond the SpMV backends, can be captured in the solver's
// CUDA graph, and gives the host and the GPU the same coarse operator. It costs n^2 stored
// values (2 MB at 500 rows) and n^3 flops at setup; the inverse's rounding error, of order
// cond(A_c) eps, is that of the LU solve.
//
// Setup allocates every level vector; apply allocates nothing. update_values (which keeps the
// aggregates and the patterns) converts the new fine values into the hierarchy's finest
// level where it lives (on the GPU: on the device, no host copy), recomputes the hierarchy's
// numbers there, and scatters them into the level operators. With AmgResetup::rebuild the
// hierarchy keeps nothing but A_0 once the operators are made (each level's arrays are freed
// as soon as its operators have them), and update_values frees the operators and builds the
// hierarchy and them again (the solver's captured graphs are dropped: the arrays move).
#include <chrono>
#include <cstdio>
#include <exception>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "solver/amg/amg_build.hpp"
#include "solver/amg/hierarchy.hpp"
#include "solver/amg/level_operator.hpp"
#include "solver/chebyshev.hpp"
#include "solver/preconditioner.hpp"
#include "solver/space_pattern.hpp"
#include "spkrylov/errors.hpp"
#include "spkrylov/options.hpp"

namespace spk {

// Builds that take the solver's operator for the finest level's products in setup (those
// whose own would cost a second copy of it: DeviceDistributedAmgBuild::lend_fine_operator).
template <class Build, class = void>
struct LendsFineOperator : std::false_type {};
template <class Build>
struct LendsFineOperator<Build, std::void_t<decltype(std::declval<Build&>().lend_fine_operator(
                                    std::declval<const LinearOperator<double>*>()))>>
    : std::true_type {};

template <class Space>
class AmgPreconditioner final : public KrylovPreconditioner<Space> {
 public:
  using T = typename Space::value_type;
  using Build = typename AmgBuildOf<Space>::type;
  using Hierarchy = AmgHierarchyOn<Build>;
  using Matrix = typename Build::Matrix;
  using Operators = LevelOperatorFactory<T, Matrix>;

  // matrix: the solver's operator, which the finest level reuses when its format is the
  // solver's; nullptr when there is none in this space's precision (a mixed-precision cycle):
  // the finest level then gets its own operator. pattern and csr_values: the same matrix's
  // pattern and values in the space (read during setup only: the hierarchy keeps its own copy,
  // in double).
  AmgPreconditioner(Space& space, const LinearOperator<T>* matrix, const SpacePattern& pattern,
                    const T* csr_values, const AmgOptions& options, const Operators& operators)
      : space_(space),
        fine_operator_(matrix),
        options_(options),
        operators_(operators),
        one_(space.template allocate<T>(1, "AMG constant 1")) {
    space.upload(std::vector<T>{T(1)}, one_.data());
    std::unique_ptr<Build> build = AmgBuildOf<Space>::make(space);
    if constexpr (std::is_same_v<T, double> && LendsFineOperator<Build>::value)
      build->lend_fine_operator(matrix);  // its Lanczos estimate of level 0 uses the solver's
    Matrix fine = build->fine_matrix(pattern, csr_values);
    hierarchy_ = std::make_unique<Hierarchy>(std::move(build), std::move(fine), options);
    const auto operators_start = std::chrono::steady_clock::now();
    build_levels();
    level_operator_s_ = seconds_since(operators_start);
  }

  // z = V(r)
  void apply(const T* r, T* z) override {
    if (levels_.empty()) throw Error("amg: no hierarchy (its last re-setup failed)");
    cycle(0, r, z);
  }

  void update_values(const T* csr_values) override {
    const auto start = std::chrono::steady_clock::now();
    try {
      const bool rebuild = options_.resetup == AmgResetup::rebuild;
      if (rebuild) {
        levels_.clear();            // the operators go first: the rebuild's peak is the setup's
        space_.invalidate_graph();  // captured cycles read the arrays just freed
      }
      hierarchy_->build().set_fine_values(hierarchy_->fine_matrix(), csr_values);
      if (rebuild) {
        hierarchy_->rebuild();
        build_levels();
      } else {
        hierarchy_->update_values();
        upload_values();
      }
      hierarchy_->build().synchronize();  // the re-setup time includes the device's work
      pending_error_ = nullptr;
    } catch (const BadInput&) {
      pending_error_ = std::current_exception();  // check(), at the next solve, reports it
    }
    resetup_s_ = seconds_since(start);
  }

  void check() override {
    if (pending_error_) std::rethrow_exception(pending_error_);
  }

  std::string name() const override { return "amg"; }

  // "constant (k = 1)", or for systems e.g. "rigid_body (k = 6), block_size 3, nodal
  // aggregation, 12 columns completed, 0 nodes left out"
  std::string near_nullspace_text() const {
    std::string text = std::string(to_string(options_.near_nullspace)) +
                       " (k = " + std::to_string(hierarchy_->candidate_count()) + ")";
    if (!hierarchy_->systems()) return text;
    return text + ", block_size " + std::to_string(options_.block_size) + ", nodal aggregation, " +
           std::to_string(hierarchy_->completed_columns()) + " columns completed, " +
           std::to_string(hierarchy_->left_out_nodes()) + " nodes left out";
  }

  PreconditionerInfo info() const override {
    PreconditionerInfo info;
    info.name = name();
    for (std::size_t l = 0; l < levels_.size(); ++l)
      info.levels.push_back(
          {hierarchy_->global_rows(l), hierarchy_->global_nnz(l), levels_[l].format});
    std::string lambdas, rounds, sparse_products, process_rows, agglomeration;
    bool distributed = false;
    for (std::size_t l = 0; l < hierarchy_->size(); ++l) {
      const ProcessRows& spread = hierarchy_->level(l).process_rows;
      distributed = distributed || spread.processes > 1;
      process_rows +=
          (l > 0 ? ", " : "") + std::to_string(spread.fewest) + ".." + std::to_string(spread.most);
      if (l > 0 && spread.holding < hierarchy_->level(l - 1).process_rows.holding)
        agglomeration += std::string(agglomeration.empty() ? "" : "; ") + "level " +
                         std::to_string(l) + " onto " + std::to_string(spread.holding) + " of " +
                         std::to_string(spread.processes) + " processes";
    }
    for (std::size_t l = 0; l + 1 < hierarchy_->size(); ++l) {
      const auto& level = hierarchy_->level(l);
      lambdas += (l > 0 ? ", " : "") + fixed(level.bound.lambda_max, "%.4g") + " (" +
                 level.bound.source + ")";
      rounds += (l > 0 ? ", " : "") + std::to_string(level.aggregation_rounds);
      sparse_products +=
          (l > 0 ? "; level " : "level ") + std::to_string(l) + ": " + level.products;
    }
    info.details = {
        {"operator_complexity", fixed(hierarchy_->operator_complexity(), "%.3f")},
        {"grid_complexity", fixed(hierarchy_->grid_complexity(), "%.3f")},
        {"cycle",
         "V(" + std::to_string(options_.sweeps) + "," + std::to_string(options_.sweeps) + ")"},
        {"smoother", smoother_text()},
        {"strength_threshold", fixed(options_.strength_threshold, "%g")},
        {"prolongator_weight", fixed(options_.prolongator_weight, "%g")},
        {"aggregation",
         std::string(hierarchy_->systems() ? "mis2 on the finest level, mis1 below" : "mis2") +
             ", rounds per level: " + (rounds.empty() ? "none" : rounds)},
        {"lambda_max", lambdas.empty() ? "none (one level)" : lambdas},
        {"coarse_solve",
         "dense LU inverse, " + std::to_string(hierarchy_->global_rows(levels_.size() - 1)) +
             " rows, smallest pivot ratio " + fixed(hierarchy_->coarse_pivot_ratio(), "%.2e")},
        {"coarsening_stopped", hierarchy_->stop_reason()},
        {"setup_on", Build::where},
        {"sparse_products", sparse_products.empty() ? "none (one level)" : sparse_products},
        {"resetup", to_string(options_.resetup)},
        {"resetup_ms", resetup_s_ < 0.0 ? "not run" : fixed(1e3 * resetup_s_, "%.3f")},
        {"near_nullspace", near_nullspace_text()}};
    if (distributed) {  // several processes: how evenly each level is spread, and where it moved
      info.details.emplace_back("rows_per_process", process_rows + " (fewest..most, per level)");
      info.details.emplace_back("agglomeration", agglomeration.empty() ? "none" : agglomeration);
    }
    info.setup_phases_s = hierarchy_->setup_phases();
    info.setup_phases_s.emplace_back("level_operators", level_operator_s_);
    for (const auto& [phase, seconds] : hierarchy_->update_phases())
      info.setup_phases_s.emplace_back("resetup_" + phase, seconds);
    return info;
  }

 private:
  template <class U>
  using Array = typename Space::template Array<U>;

  // What the cycle needs of one level, in the space.
  struct Level {
    std::size_t rows = 0;
    const LinearOperator<T>* matrix = nullptr;  // A_l (the solver's, or own_matrix)
    std::unique_ptr<LevelOperator<T, Matrix>> own_matrix, prolongation, restriction;
    std::unique_ptr<LevelOperator<T, Matrix>> coarse_inverse;  // the coarsest level only
    Array<T> inverse_diagonal, jacobi_step;  // D^-1; (w / lambda) D^-1 (jacobi smoother)
    Array<T> b, x, residual, scratch;        // right-hand side, solution (levels > 0), work
    std::unique_ptr<ChebyshevPolynomial<Space>> chebyshev;
    std::string format;
  };

  static double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  static std::string fixed(double value, const char* format) {
    char text[48];
    std::snprintf(text, sizeof text, format, value);
    return text;
  }
  // A level's A format (its P and R: transfer_format_of): level_formats where it names one;
  // else the finest level takes spmv.format, and a coarser one csr-vector, whose threads per row
  // follow each matrix's mean row length, unless spmv.format is auto (then each matrix is tuned).
  // The coarse levels and the restrictions have long rows (33 to 300 entries on 3-D Poisson), where
  // a format of one thread per row waits on memory latency: with ellpack-r, level 1's 5,351-row
  // restriction took 166 us per cycle (ncu), and csr-vector on levels 1-3 took AMG-PCG at 160^3
  // from 2.98 to 2.76 ms per iteration (H100, BENCHMARKS.md).
  Format format_of(std::size_t level) const {
    if (level == 0 && options_.level_formats.empty()) return operators_.default_format;
    return transfer_format_of(level);
  }

  // P's and R's format: level_formats where it names one; else csr-vector at every level, the
  // finest included (their rows are short for P and long for R, which csr-vector's threads per
  // row follow; ellpack-r padded level 0's R to its longest row: 5.8 GB more at 500^3), unless
  // spmv.format is auto.
  Format transfer_format_of(std::size_t level) const {
    if (level < options_.level_formats.size()) return options_.level_formats[level];
    if (operators_.default_format == Format::automatic) return Format::automatic;
    return Format::csr_vector;
  }

  std::unique_ptr<LevelOperator<T, Matrix>> make_operator(const Matrix& matrix, Format format,
                                                          std::size_t level,
                                                          const char* what) const {
    try {
      return operators_.make(matrix, format);
    } catch (const BadInput& error) {
      throw BadInput("amg: level " + std::to_string(level) + " " + what + " (" +
                     std::to_string(matrix.rows) + " x " + std::to_string(matrix.cols) +
                     "): " + error.what());
    }
  }

  void build_levels() {
    const std::size_t count = hierarchy_->size();
    levels_.resize(count);
    for (std::size_t l = 0; l < count; ++l) {
      const auto& source = hierarchy_->level(l);
      Level& level = levels_[l];
      level.rows = static_cast<std::size_t>(hierarchy_->rows(l));
      if (l > 0) {
        level.b = space_.template allocate<T>(level.rows, "AMG level right-hand side");
        level.x = space_.template allocate<T>(level.rows, "AMG level solution");
      }
      if (l + 1 == count) {  // the coarsest: x = A_c^-1 b
        level.coarse_inverse =
            make_operator(hierarchy_->coarse_inverse(), format_of(l), l, "coarsest inverse");
        level.format = level.coarse_inverse->name() + " (dense inverse)";
        if (options_.resetup == AmgResetup::rebuild) hierarchy_->release_level(l);
        break;
      }
      const bool reuse_fine =
          l == 0 && fine_operator_ != nullptr &&
          (!operators_.formats_apply || format_of(0) == operators_.default_format);
      if (reuse_fine) {
        level.matrix = fine_operator_;
      } else {
        level.own_matrix = make_operator(source.matrix, format_of(l), l, "A");
        level.matrix = level.own_matrix.get();
      }
      level.format = level.matrix->name();
      level.prolongation = make_operator(source.prolongation(), transfer_format_of(l), l, "P");
      level.restriction = make_operator(source.restriction(), transfer_format_of(l), l, "R");
      level.inverse_diagonal = space_.template allocate<T>(level.rows, "AMG level D^-1");
      level.residual = space_.template allocate<T>(level.rows, "AMG level residual");
      if (options_.smoother == AmgSmoother::chebyshev) {
        level.chebyshev = std::make_unique<ChebyshevPolynomial<Space>>(
            space_, *level.matrix, level.inverse_diagonal.data(), options_.chebyshev.degree);
      } else {
        level.jacobi_step = space_.template allocate<T>(level.rows, "AMG level Jacobi step");
        level.scratch = space_.template allocate<T>(level.rows, "AMG level Jacobi update");
      }
      upload_smoother(l);
      // rebuild: the operators hold the level now (A_0 stays, the solver's or the next setup's)
      if (options_.resetup == AmgResetup::rebuild) hierarchy_->release_level(l);
    }
  }

  // D^-1 and the smoother's scaling of smoothing level l, from the hierarchy (converted to T
  // where the hierarchy lives).
  void upload_smoother(std::size_t l) {
    Build& build = hierarchy_->build();
    const auto& source = hierarchy_->level(l);
    Level& level = levels_[l];
    build.convert(level.rows, 1.0, source.inverse_diagonal.data(), level.inverse_diagonal.data());
    const double lambda = source.bound.lambda_max;
    if (level.chebyshev) {
      const double high = options_.chebyshev.upper_factor * lambda;  // [ratio, 1] * 1.1 lambda
      level.chebyshev->set_bounds(options_.chebyshev.lower_ratio * high, high);
    } else {  // (w / lambda) D^-1
      build.convert(level.rows, options_.jacobi_weight / lambda, source.inverse_diagonal.data(),
                    level.jacobi_step.data());
    }
  }

  // New hierarchy numbers into the level operators and smoothers (same patterns).
  void upload_values() {
    for (std::size_t l = 0; l < levels_.size(); ++l) {
      const auto& source = hierarchy_->level(l);
      Level& level = levels_[l];
      if (level.coarse_inverse) {
        level.coarse_inverse->update_values(hierarchy_->coarse_inverse());
        continue;
      }
      if (level.own_matrix) level.own_matrix->update_values(source.matrix);
      level.prolongation->update_values(source.prolongation());
      level.restriction->update_values(source.restriction());
      upload_smoother(l);
    }
  }

  std::string smoother_text() const {
    if (options_.smoother == AmgSmoother::chebyshev)
      return "chebyshev degree " + std::to_string(options_.chebyshev.degree) + " on [" +
             fixed(options_.chebyshev.lower_ratio * options_.chebyshev.upper_factor, "%.4g") +
             ", " + fixed(options_.chebyshev.upper_factor, "%.4g") + "] x lambda_max, " +
             std::to_string(options_.sweeps) + " sweep(s)";
    return "jacobi, weight " + fixed(options_.jacobi_weight, "%.4g") + " / lambda_max, " +
           std::to_string(options_.sweeps) + " sweep(s)";
  }

  // One smoothing sweep on level l: x = S(b) from x (or from 0 when x_is_zero).
  void smooth(Level& level, const T* b, T* x, bool x_is_zero) {
    if (level.chebyshev) {
      level.chebyshev->apply(b, x, x_is_zero);  // x += p(D^-1 A) D^-1 (b - A x)
      return;
    }
    const std::size_t n = level.rows;
    if (x_is_zero) {
      space_.multiply_elementwise(n, level.jacobi_step.data(), b, x);  // x = (w/lambda) D^-1 b
      return;
    }
    T* const r = level.residual.data();
    space_.copy(n, b, r);                           // r = b
    level.matrix->apply_scaled(T(-1), x, T(1), r);  // r = b - A x
    space_.multiply_elementwise(n, level.jacobi_step.data(), r, level.scratch.data());
    space_.axpy(n, one_.data(), level.scratch.data(), x);  // x += (w/lambda) D^-1 r
  }

  // x = V_l(b), from a zero initial guess.
  void cycle(std::size_t l, const T* b, T* x) {
    Level& level = levels_[l];
    if (level.coarse_inverse) {
      level.coarse_inverse->apply(b, x);  // x = A_c^-1 b
      return;
    }
    Level& coarse = levels_[l + 1];
    const std::size_t n = level.rows;
    for (int sweep = 0; sweep < options_.sweeps; ++sweep)
      smooth(level, b, x, sweep == 0);  // pre-smoothing from x = 0
    T* const r = level.residual.data();
    space_.copy(n, b, r);                                              // r = b
    level.matrix->apply_scaled(T(-1), x, T(1), r);                     // r = b - A x
    level.restriction->apply(r, coarse.b.data());                      // b_c = R r
    cycle(l + 1, coarse.b.data(), coarse.x.data());                    // x_c = V_{l+1}(b_c)
    level.prolongation->apply_scaled(T(1), coarse.x.data(), T(1), x);  // x += P x_c
    for (int sweep = 0; sweep < options_.sweeps; ++sweep)
      smooth(level, b, x, false);  // post-smoothing
  }

  Space& space_;
  const LinearOperator<T>* fine_operator_;
  AmgOptions options_;
  Operators operators_;
  Array<T> one_;
  std::unique_ptr<Hierarchy> hierarchy_;
  std::vector<Level> levels_;
  std::exception_ptr pending_error_;
  double level_operator_s_ = 0.0, resetup_s_ = -1.0;
};

}  // namespace spk
