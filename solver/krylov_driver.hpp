#pragma once
// The outer loop shared by the Krylov methods on any vector space (detail::drive), and
// KrylovIteration, which holds one system's method, preconditioner and buffers.
//
//   1. initialize (r0, stopping targets), read the scalars once;
//   2. run blocks of iterations without looking at anything (a full block of check_every
//      optionally as a CUDA graph), then read the scalars: the only host synchronization.
//      After the first, a block is as long as the residual's rate says it still needs, up
//      to check_every (solver/check_schedule.hpp);
//   3. when the recursive residual claims convergence, compute the true residual
//      ||b - A x||. If it misses the target, restart from x with r = b - A x (residual
//      replacement, at most max_residual_replacements times); if it still misses, the
//      status is `stagnated`, never `converged`. With fp32 matrix values (precision mixed)
//      the iteration's operator is the fp32 one and the true residual uses an fp64 operator:
//      each replacement is then a step of iterative refinement (up to
//      mixed_max_residual_replacements, stopping when one fails to halve the true residual);
//   4. report status, iterations, both residuals, history and times.
// Before the driver reads x (a true residual, a progress callback's iterate) it asks the method
// for it (form_solution): GMRES forms x only then, from the cycle so far.
// A BiCGSTAB breakdown (rho, (r_hat, v) or omega ~ 0) is seen when a block ends (the iteration
// froze there): the method restarts from x with r_hat = r = b - A x, at most
// solver.breakdown_restarts times, the iteration count and history going on.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "core/nvtx_range.hpp"
#include "solver/bicgstab.hpp"
#include "solver/cg.hpp"
#include "solver/check_schedule.hpp"
#include "solver/gmres.hpp"
#include "solver/pipecg.hpp"
#include "solver/preconditioner.hpp"
#include "solver/solve_outcome.hpp"
#include "solver/vector_space.hpp"
#include "spkrylov/options.hpp"
#include "spkrylov/result.hpp"

namespace spk {

constexpr int max_residual_replacements = 2;
// With fp32 matrix values each replacement gains about the factor eps_fp32 * cond(A): enough
// steps for a 1e-12 target on a system whose fp32 rounding costs 4 digits a step.
constexpr int mixed_max_residual_replacements = 10;

namespace detail {

// Whether a method restarts after a breakdown (solver.breakdown_restarts): BiCGSTAB, whose
// breakdowns depend on the shadow residual r_hat, which a restart chooses afresh.
template <class Algorithm>
struct restarts_after_breakdown : std::false_type {};
template <class Space>
struct restarts_after_breakdown<BiCgStab<Space>> : std::true_type {};
// Pipelined CG, whose (p, Ap) <= 0 on an SPD matrix is its recurrences' rounding (bcsstk13
// with Jacobi: at a relative residual of 7e-3, as a NumPy transcription of the algorithm does
// too): a restart from r = b - A x takes fresh directions.
template <class Space>
struct restarts_after_breakdown<PipelinedCg<Space>> : std::true_type {};

// x made current before the driver reads it: GMRES forms x only when asked
// (Gmres::current_solution); CG and BiCGSTAB update x every iteration and have no such hook.
template <class Algorithm, class T>
auto form_solution(Algorithm& algorithm, T* x, int) -> decltype(algorithm.current_solution(x)) {
  algorithm.current_solution(x);
}
template <class Algorithm, class T>
void form_solution(Algorithm& /*algorithm*/, T* /*x*/, long) {}

// The most iterations the method's next block may run (GMRES: to its cycle's end, where the
// host restarts the cycle), and what it does when a block has run (end_block).
template <class Algorithm>
auto block_limit(const Algorithm& algorithm, int) -> decltype(algorithm.block_limit()) {
  return algorithm.block_limit();
}
template <class Algorithm>
int block_limit(const Algorithm& /*algorithm*/, long) {
  return std::numeric_limits<int>::max();
}
template <class Algorithm, class T>
auto end_block(Algorithm& algorithm, int block, const T* b, T* x, int)
    -> decltype(algorithm.end_block(block, b, x)) {
  algorithm.end_block(block, b, x);
}
template <class Algorithm, class T>
void end_block(Algorithm& /*algorithm*/, int /*block*/, const T* /*b*/, T* /*x*/, long) {}

// GMRES: its Arnoldi steps that took Gram-Schmidt's second pass (Gmres::second_passes); 0 for
// the other methods.
template <class Algorithm>
auto second_passes(Algorithm& algorithm, int) -> decltype(algorithm.second_passes()) {
  return algorithm.second_passes();
}
template <class Algorithm>
int second_passes(Algorithm& /*algorithm*/, long) {
  return 0;
}

// The driver's own buffers, allocated once per solver and reused by every solve.
template <class Space>
struct DriverWorkspace {
  using T = typename Space::value_type;
  DriverWorkspace(Space& space, std::size_t n, const SolverOptions& options)
      : history_capacity(options.keep_history ? options.max_iterations + 1 : 0),
        history_residual(space.template allocate<T>(static_cast<std::size_t>(history_capacity),
                                                    "residual history")),
        history_time(space.template allocate<std::uint64_t>(
            static_cast<std::size_t>(history_capacity), "history times")),
        true_residual(space.template allocate<T>(n, "true residual b - A x")) {}
  int history_capacity;
  typename Space::template Array<T> history_residual;
  typename Space::template Array<std::uint64_t> history_time;
  typename Space::template Array<T> true_residual;
};

// `exact` computes the true residuals: the iteration's own operator, or (precision mixed) the
// fp64 one beside the fp32 operator the algorithm iterates with.
template <class Space, class Algorithm>
SolveResult drive(Space& space, Algorithm& algorithm, DriverWorkspace<Space>& workspace,
                  const LinearOperator<typename Space::value_type>& exact, bool refinement,
                  const typename Space::value_type* b, typename Space::value_type* x,
                  const SolverOptions& options, const ProgressCallback& progress) {
  using T = typename Space::value_type;
  using Clock = std::chrono::steady_clock;
  const std::size_t n = static_cast<std::size_t>(exact.rows());
  const NvtxRange profiler_range("spk solve");

  const int history_capacity = workspace.history_capacity;
  auto& history_residual = workspace.history_residual;
  auto& history_time = workspace.history_time;
  auto& true_residual = workspace.true_residual;

  KrylovScalars<T> initial;
  initial.tolerance = options.tolerance;
  initial.tolerance_mode = options.tolerance_mode;
  initial.divergence_factor = options.divergence_factor;
  initial.max_iterations = options.max_iterations;
  initial.history_residual = history_residual.data();
  initial.history_time_ns = history_time.data();
  initial.history_capacity = history_capacity;
  space.write_scalars(initial);

  const auto start = Clock::now();
  const auto elapsed_s = [&] {
    return std::chrono::duration<double>(Clock::now() - start).count();
  };
  KrylovScalars<T>* device_scalars = space.scalars();

  // ||b - A x|| into scalars.true_residual.
  const auto compute_true_residual = [&] {
    form_solution(algorithm, x, 0);                                        // x current
    space.copy(n, b, true_residual.data());                                // t = b
    exact.apply_scaled(T(-1), x, T(1), true_residual.data());              // t = b - A x
    norm(space, n, true_residual.data(), &device_scalars->true_residual);  // ||b - A x||
    return space.read_scalars();
  };

  algorithm.initialize(b, x, false);
  KrylovScalars<T> scalars = space.read_scalars();
  SolveStatus host_status = SolveStatus::running;
  int executed = 0;
  int replacements = 0;
  int breakdown_restarts = 0;
  const int replacement_limit =
      refinement ? mixed_max_residual_replacements : max_residual_replacements;
  double last_true_residual = -1.0;  // before the first replacement
  // Whether scalars.true_residual is that of the final x (the loop ended right after computing
  // it): then the report does not apply A once more (one product fewer; a user operator's
  // caller counts its calls).
  bool true_residual_current = false;
  CheckSchedule schedule(options.check_every);
  for (;;) {
    while (scalars.running()) {
      const int scheduled =
          schedule.next_block(scalars.iteration, static_cast<double>(scalars.residual_norm),
                              scalars.threshold, options.max_iterations - scalars.iteration);
      const int block = std::min(scheduled, block_limit(algorithm, 0));
      // Only full blocks, and blocks cut at a GMRES cycle's end (the same length every cycle),
      // replay a CUDA graph (one per length): a shorter, predicted block runs as plain
      // launches rather than capturing another graph.
      space.run_repeated(
          block, options.cuda_graph && (block == schedule.check_every() || block < scheduled),
          [&] { algorithm.iterate(b, x); });
      end_block(algorithm, block, b, x, 0);  // GMRES: a new cycle from b - A x, on the stream
      executed += block;
      scalars = space.read_scalars();
      bool stop_asked = false;
      if (progress) {
        Progress report;
        report.iteration = scalars.iteration;
        report.residual = static_cast<double>(scalars.residual_norm);
        report.threshold = scalars.threshold;
        report.elapsed_s = elapsed_s();
        report.iterate_copier = [&](void* destination) {
          form_solution(algorithm, x, 0);
          const std::vector<T> iterate = space.download(x, n);
          std::copy(iterate.begin(), iterate.end(), static_cast<T*>(destination));
        };
        progress(report);
        stop_asked = report.stop_requested();
      }
      // Every process of a distributed solve stops at the same block (any_process).
      if (scalars.running() && space.any_process(stop_asked)) {
        host_status = SolveStatus::interrupted;
        break;
      }
      if (scalars.running() && options.time_limit_s > 0.0 &&
          space.any_process(elapsed_s() > options.time_limit_s)) {
        host_status = SolveStatus::time_limit;
        break;
      }
    }
    if (restarts_after_breakdown<Algorithm>::value && host_status == SolveStatus::running &&
        scalars.status == SolveStatus::breakdown &&
        breakdown_restarts < options.breakdown_restarts &&
        scalars.iteration < options.max_iterations) {
      // Breakdown restart: r_hat = r = b - A x, p = v = 0, rho_old = alpha = omega = 1.
      ++breakdown_restarts;
      scalars = compute_true_residual();
      schedule.restart();
      scalars.status = SolveStatus::running;
      scalars.breakdown = BreakdownQuantity::none;
      space.write_scalars(scalars);
      algorithm.initialize(b, x, true, true_residual.data());
      scalars = space.read_scalars();
      continue;
    }
    if (host_status != SolveStatus::running || scalars.status != SolveStatus::converged) break;
    scalars = compute_true_residual();
    true_residual_current = true;
    const double true_now = static_cast<double>(scalars.true_residual);
    const bool true_met = true_now <= scalars.threshold;
    // Refinement that no longer halves the true residual has met fp32's limit on this system.
    const bool refinement_stalled =
        refinement && last_true_residual >= 0.0 && !(true_now <= 0.5 * last_true_residual);
    if (true_met || refinement_stalled || replacements >= replacement_limit ||
        scalars.iteration >= options.max_iterations)
      break;
    last_true_residual = true_now;
    true_residual_current = false;
    // Residual replacement: restart the recurrence from the current x and r = b - A x, the
    // true residual just computed.
    ++replacements;
    schedule.restart();
    scalars.status = SolveStatus::running;
    space.write_scalars(scalars);
    algorithm.initialize(b, x, true, true_residual.data());
    scalars = space.read_scalars();
  }
  space.synchronize();
  const double solve_s = elapsed_s();
  if (!true_residual_current) scalars = compute_true_residual();

  SolveResult result;
  result.status = host_status != SolveStatus::running ? host_status : scalars.status;
  result.breakdown = scalars.breakdown;
  result.iterations =
      host_status != SolveStatus::running ? scalars.iteration : scalars.stop_iteration;
  result.iterations_executed = executed;
  result.residual_replacements = replacements;
  result.breakdown_restarts = breakdown_restarts;
  result.second_passes = second_passes(algorithm, 0);
  result.threshold = scalars.threshold;
  result.b_norm = static_cast<double>(scalars.b_norm);
  result.initial_residual = scalars.initial_residual;
  result.recursive_residual = static_cast<double>(scalars.residual_norm);
  result.true_residual = static_cast<double>(scalars.true_residual);
  result.relative_true_residual =
      result.b_norm > 0.0 ? result.true_residual / result.b_norm : result.true_residual;
  result.solve_s = solve_s;
  if (result.status == SolveStatus::converged && !(result.true_residual <= result.threshold))
    result.status =
        is_finite(result.true_residual) ? SolveStatus::stagnated : SolveStatus::non_finite;

  if (history_capacity > 0) {
    const std::size_t count =
        static_cast<std::size_t>(std::min(result.iterations + 1, history_capacity));
    const auto residuals = space.download(history_residual.data(), count);
    const auto times = space.download(history_time.data(), count);
    result.history.residual.assign(residuals.begin(), residuals.end());
    result.history.elapsed_s.resize(count);
    for (std::size_t k = 0; k < count; ++k)
      result.history.elapsed_s[k] = 1e-9 * static_cast<double>(times[k] - times[0]);
  }
  result.message = describe_outcome(result, options);
  if (refinement && result.status == SolveStatus::stagnated)
    result.message += "; with fp32 matrix values after " + std::to_string(replacements) +
                      " refinement steps (precision mixed): the fp32 rounding loses too much on "
                      "this system, use precision: double";
  return result;
}

}  // namespace detail

// The Krylov methods, as one type: adding a method is its header plus one entry here and one
// case in make_krylov_method.
template <class Space>
using KrylovMethod =
    std::variant<ConjugateGradient<Space>, BiCgStab<Space>, Gmres<Space>, PipelinedCg<Space>>;

template <class Space>
KrylovMethod<Space> make_krylov_method(
    Method method, Space& space, const LinearOperator<typename Space::value_type>& matrix,
    KrylovPreconditioner<Space>* preconditioner, VectorOps vector_ops = VectorOps::cublas,
    int restart = 30, Orthogonalization orthogonalization = Orthogonalization::selective) {
  switch (method) {
    case Method::bicgstab:
      return KrylovMethod<Space>(std::in_place_type<BiCgStab<Space>>, space, matrix, preconditioner,
                                 vector_ops == VectorOps::fused);
    case Method::gmres:
    case Method::fgmres:  // vector_ops does not apply: the basis operations are one pass each
      return KrylovMethod<Space>(std::in_place_type<Gmres<Space>>, space, matrix, preconditioner,
                                 restart, method == Method::fgmres,
                                 orthogonalization == Orthogonalization::selective);
    case Method::pipecg:  // vector_ops does not apply: its update is always one pass
      return KrylovMethod<Space>(std::in_place_type<PipelinedCg<Space>>, space, matrix,
                                 preconditioner);
    case Method::cg: break;
  }
  return KrylovMethod<Space>(std::in_place_type<ConjugateGradient<Space>>, space, matrix,
                             preconditioner, vector_ops == VectorOps::fused);
}

// One linear system's iteration on one space: the method with its vectors, the
// preconditioner, and the driver's buffers, allocated once and reused by every solve (a
// solve allocates nothing). `space` and `matrix` (and `exact`) must outlive it.
//
// exact: null, or (precision mixed: `matrix` stores fp32 values) the fp64 operator of the
// same matrix, which then computes every true residual and the residual replacements
// (iterative refinement, see drive()).
template <class Space>
class KrylovIteration {
 public:
  using T = typename Space::value_type;
  KrylovIteration(Space& space, const LinearOperator<T>& matrix, const SolverOptions& options,
                  std::unique_ptr<KrylovPreconditioner<Space>> preconditioner,
                  const LinearOperator<T>* exact = nullptr)
      : space_(space),
        matrix_(matrix),
        exact_(exact != nullptr ? *exact : matrix),
        refinement_(exact != nullptr),
        options_(options),
        preconditioner_(std::move(preconditioner)),
        method_(make_krylov_method(options.method, space, matrix, preconditioner_.get(),
                                   options.vector_ops, options.restart, options.orthogonalization)),
        workspace_(space, static_cast<std::size_t>(matrix.rows()), options) {
    if (matrix.rows() != matrix.cols())
      throw BadInput("the matrix is not square (" + std::to_string(matrix.rows()) + " x " +
                     std::to_string(matrix.cols()) + "); Krylov solvers need a square matrix");
  }
  KrylovIteration(const KrylovIteration&) = delete;
  KrylovIteration& operator=(const KrylovIteration&) = delete;

  // Solves A x = b, x holding the initial guess; b and x in the space.
  SolveResult solve(const T* b, T* x, const ProgressCallback& progress) {
    check_preconditioner();
    // A captured CUDA graph holds the b and x pointers of the solve that recorded it.
    if (b != last_b_ || x != last_x_) space_.invalidate_graph();
    last_b_ = b;
    last_x_ = x;
    return std::visit(
        [&](auto& method) {
          return detail::drive(space_, method, workspace_, exact_, refinement_, b, x, options_,
                               progress);
        },
        method_);
  }

  // New matrix values (CSR order, in the space) for the preconditioner; the operator is
  // updated by its owner.
  void update_preconditioner(const T* csr_values) {
    if (preconditioner_) preconditioner_->update_values(csr_values);
  }
  // z = M^-1 r once, outside a solve: a distributed solver's warm-up, so that the exchanges
  // of every level of a distributed AMG connect during setup (NCCL connects a pair of
  // processes at its first message).
  void apply_preconditioner_once(const T* r, T* z) {
    if (preconditioner_) preconditioner_->apply(r, z);
  }
  void check_preconditioner() {
    if (preconditioner_) preconditioner_->check();
  }
  // info = what the preconditioner's last setup or update_values built (SetupInfo::
  // preconditioner); info.setup_s, the first setup's time, stays.
  void refresh_preconditioner_info(PreconditionerInfo& info) const {
    if (!preconditioner_) return;
    const double setup_s = info.setup_s;
    info = preconditioner_->info();
    info.setup_s = setup_s;
  }

 private:
  Space& space_;
  const LinearOperator<T>& matrix_;
  const LinearOperator<T>& exact_;
  bool refinement_;
  SolverOptions options_;
  std::unique_ptr<KrylovPreconditioner<Space>> preconditioner_;
  KrylovMethod<Space> method_;
  detail::DriverWorkspace<Space> workspace_;
  const T* last_b_ = nullptr;
  const T* last_x_ = nullptr;
};

}  // namespace spk
