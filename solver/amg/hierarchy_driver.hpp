#pragma once
// The member definitions of AmgHierarchyOn<Build> (solver/amg/hierarchy.hpp, which says what
// each step is): included only where the hierarchy is instantiated, hierarchy.cpp
// (HostAmgBuild) and device_hierarchy.cpp (DeviceAmgBuild).
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <type_traits>
#include <utility>

#include "core/nvtx_range.hpp"
#include "core/step_trace.hpp"
#include "solver/amg/dense_lu.hpp"
#include "solver/amg/hierarchy.hpp"
#include "solver/amg/near_nullspace.hpp"
#include "solver/chebyshev.hpp"
#include "solver/jacobi.hpp"
#include "solver/jacobi_entry.hpp"
#include "spkrylov/errors.hpp"

namespace spk {

// Runs `body`, waits for the build's work (the device's is asynchronous), and adds the
// wall-clock time to phase `name`.
template <class Build>
template <class Body>
auto AmgHierarchyOn<Build>::timed(PhaseTimes& phases, const char* name, Body&& body) {
  const NvtxRange profiler_range(name);
  const auto start = std::chrono::steady_clock::now();
  struct AddTime {
    Build& build;
    PhaseTimes& phases;
    const char* name;
    std::chrono::steady_clock::time_point start;
    ~AddTime() {
      try {
        build.synchronize();
      } catch (...) {  // the error surfaces at the next synchronizing call
      }
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (step_trace_enabled())  // SPK_TRACE=1: each call (core/step_trace.hpp)
        std::fprintf(stderr, "spk trace: amg phase: %s %.3f ms\n", name, 1e3 * seconds);
      for (auto& [phase, total] : phases)
        if (phase == name) {
          total += seconds;
          return;
        }
      phases.emplace_back(name, seconds);
    }
  } add_time{*build_, phases, name, start};
  return body();
}

template <class Build>
index_t AmgHierarchyOn<Build>::dense_row_limit(const AmgOptions& options) {
  return std::max<index_t>(options.max_coarse_rows, 2000);
}

// A Build of the hierarchy's own, where one can be made without the solver's (not the
// distributed build, which needs the matrix's distribution).
template <class Build>
std::unique_ptr<Build> default_build() {
  if constexpr (std::is_default_constructible_v<Build>)
    return std::make_unique<Build>();
  else
    throw NotSupported(std::string("amg: a ") + Build::where + " hierarchy needs its build");
}

template <class Build>
AmgHierarchyOn<Build>::AmgHierarchyOn(Matrix fine, const AmgOptions& options)
    : AmgHierarchyOn(default_build<Build>(), std::move(fine), options) {}

template <class Build>
AmgHierarchyOn<Build>::~AmgHierarchyOn() = default;

// D^-1 of level l in the build's space (find_diagonal_positions once, invert_entries at every
// setup): a bad a_ii of A itself is a BadDiagonal naming the row (as for Jacobi), one of a
// coarse Galerkin matrix a BadInput naming the level.
template <class Build>
void AmgHierarchyOn<Build>::compute_inverse_diagonal(std::size_t l) {
  auto& space = build_->space();
  Level& level = levels_[l];
  const std::size_t n = static_cast<std::size_t>(Build::rows(level.matrix));
  if (level.diagonal_positions.size() != n) {
    const SpacePattern pattern = Build::pattern(level.matrix);
    level.diagonal_positions = space.template allocate<index_t>(n, "AMG diagonal positions");
    level.inverse_diagonal = space.template allocate<double>(n, "AMG level D^-1");
    space.find_diagonal_positions(pattern.rows, pattern.row_offsets, pattern.columns,
                                  level.diagonal_positions.data());
  }
  auto fault = space.template allocate<std::uint64_t>(1, "AMG diagonal fault");
  space.invert_entries(n, Build::values(level.matrix), level.diagonal_positions.data(),
                       level.inverse_diagonal.data(), fault.data());  // D^-1 = 1 / a_ii
  try {
    throw_diagonal_fault("amg", space.download(fault.data(), 1)[0]);
  } catch (const BadDiagonal& error) {
    if (l == 0) throw;
    throw BadInput("amg: level " + std::to_string(l) + " (the Galerkin matrix R A P): row " +
                   std::to_string(error.row()) + " (0-based): " + error.problem());
  }
}

// lambda_max(D^-1 A) of level l, in the build's space, as AmgOptions::chebyshev asks.
template <class Build>
void AmgHierarchyOn<Build>::estimate_bound(std::size_t l) {
  auto& space = build_->space();
  Level& level = levels_[l];
  const std::unique_ptr<LinearOperator<double>> matrix = build_->spmv_operator(level.matrix);
  const SpacePattern pattern = Build::pattern(level.matrix);
  level.bound =
      estimate_lambda_max(space, *matrix, level.inverse_diagonal.data(), options_.chebyshev, [&] {
        return space.gershgorin_bound(static_cast<std::size_t>(pattern.rows), pattern.row_offsets,
                                      Build::values(level.matrix), level.diagonal_positions.data());
      });
}

// A piece's release_resetup_state() (a Galerkin product, a prolongator) where it has one:
// the plans and intermediates a re-setup would reuse. Pieces without it keep theirs.
template <class Piece>
auto release_resetup_state(Piece& piece, int) -> decltype(piece.release_resetup_state(), void()) {
  piece.release_resetup_state();
}
template <class Piece>
void release_resetup_state(Piece&, long) {}

// The build's forget_spmv_operator(a) where it has one (a Lanczos operator it keeps for a
// re-setup's estimate).
template <class Build, class Matrix>
auto forget_spmv_operator(Build& build, const Matrix& a, int)
    -> decltype(build.forget_spmv_operator(a), void()) {
  build.forget_spmv_operator(a);
}
template <class Build, class Matrix>
void forget_spmv_operator(Build&, const Matrix&, long) {}

// Tells the build whether a re-setup will follow, where it takes the hint
// (keep_resetup_state(bool): its pieces may then free what only a re-setup reads).
template <class Build>
auto tell_resetup(Build& build, bool keep, int)
    -> decltype(build.keep_resetup_state(keep), void()) {
  build.keep_resetup_state(keep);
}
template <class Build>
void tell_resetup(Build&, bool, long) {}

template <class Build>
AmgHierarchyOn<Build>::AmgHierarchyOn(std::unique_ptr<Build> build, Matrix fine,
                                      const AmgOptions& options)
    : build_(std::move(build)), options_(options) {
  tell_resetup(*build_, options.resetup != AmgResetup::rebuild, 0);
  if (fine.rows != fine.cols)
    throw BadInput("amg: the matrix is not square (" + std::to_string(fine.rows) + " x " +
                   std::to_string(fine.cols) + ")");
  levels_.reserve(static_cast<std::size_t>(std::max(1, options.max_levels)));
  levels_.emplace_back();
  levels_[0].matrix = std::move(fine);
  systems_ = is_systems_amg(options);
  coarsen(setup_phases_);
}

template <class Build>
void AmgHierarchyOn<Build>::rebuild() {
  // What the build keeps by level (found by address: the new levels take the old places)
  for (const Level& level : levels_) forget_spmv_operator(*build_, level.matrix, 0);
  levels_.resize(1);  // A_0 stays; everything derived from it goes
  Matrix fine = std::move(levels_[0].matrix);
  levels_[0] = Level();
  levels_[0].matrix = std::move(fine);
  coarse_inverse_ = Matrix();
  coarse_inverse_made_ = false;
  completed_columns_ = 0;
  left_out_nodes_ = 0;
  PhaseTimes phases;
  coarsen(phases);
  update_phases_ = std::move(phases);
}

template <class Build>
void AmgHierarchyOn<Build>::release_level(std::size_t index) {
  Level& level = levels_[index];
  if (index > 0) level.matrix = Matrix();
  level.inverse_diagonal = {};
  level.diagonal_positions = {};
  level.candidates = {};
  level.aggregates = {};
  level.prolongator.reset();
  level.galerkin.reset();
}

template <class Build>
void AmgHierarchyOn<Build>::coarsen(PhaseTimes& phases) {
  const AmgOptions& options = options_;
  const bool keep_resetup_state = options.resetup != AmgResetup::rebuild;
  if (systems_) {  // B_0: the near-null space's k vectors
    NearNullspaceVectors fine_space = fine_near_nullspace(options, Build::rows(levels_[0].matrix));
    levels_[0].candidates = build_->upload(fine_space.vectors);
    levels_[0].block_size = options.block_size;
    levels_[0].candidate_count = fine_space.count;
  } else {
    levels_[0].candidates = build_->ones(Build::rows(levels_[0].matrix));
  }
  const int k = levels_[0].candidate_count;
  for (std::size_t l = 0;; ++l) {
    Level& level = levels_[l];  // levels_ never grows past its reserve: stays valid
    const Matrix& a = level.matrix;
    // Decisions read the global sizes (a distributed build's are summed over processes), so
    // every process takes the same.
    const std::int64_t rows = Build::global_rows(a);
    timed(phases, "eigen_estimate", [&] { build_->agreed([&] { compute_inverse_diagonal(l); }); });
    if (rows <= options.max_coarse_rows) {
      stop_reason_ = "max_coarse_rows";
      break;
    }
    if (static_cast<int>(l) + 1 >= options.max_levels) {
      stop_reason_ = "max_levels";
      break;
    }
    auto graph = timed(phases, "strength", [&] {
      return systems_ ? build_->nodal_strength(a, level.block_size, options.strength_threshold)
                      : build_->strength(a, options.strength_threshold);
    });
    auto aggregates = timed(phases, "aggregation", [&] {
      // systems: MIS(1) below the finest level (aggregation.hpp says why)
      auto found = build_->aggregate(graph, systems_ && l > 0 ? 1 : 2);
      if (systems_) build_->leave_out_isolated(found, graph);  // no strong neighbour: left out
      return found;
    });
    graph = {};  // the aggregates are all the rest needs of it
    const std::int64_t aggregate_count = build_->global_count(aggregates);
    const std::int64_t coarse_rows = aggregate_count * k;
    if (aggregate_count == 0 || coarse_rows * 10 > rows * 9) {
      stop_reason_ = "coarsening stalled";
      break;
    }
    if (systems_) left_out_nodes_ += aggregates.isolated;
    level.aggregates = std::move(aggregates);
    level.aggregation_rounds = level.aggregates.rounds;
    timed(phases, "eigen_estimate", [&] {
      estimate_bound(l);
      if (!keep_resetup_state) forget_spmv_operator(*build_, a, 0);
    });
    levels_.emplace_back();
    timed(phases, "prolongator", [&] {
      Matrix tentative;
      if (systems_) {  // T: the thin QR of B_l on each aggregate, k columns each
        auto fit = build_->fit(level.aggregates, level.block_size, level.candidates, k);
        completed_columns_ += fit.dependent_columns;
        tentative = std::move(fit.matrix);
        levels_[l + 1].candidates = std::move(fit.coarse_candidates);
        levels_[l + 1].block_size = k;
        levels_[l + 1].candidate_count = k;
      } else {
        auto fit = build_->tentative(level.aggregates, level.candidates);
        tentative = std::move(fit.matrix);
        levels_[l + 1].candidates = std::move(fit.coarse_candidates);
      }
      level.prolongator = build_->prolongator(a, std::move(tentative), options.prolongator_weight);
      level.prolongator->compute(a, level.inverse_diagonal, level.bound.lambda_max);
    });
    timed(phases, "galerkin_product", [&] {
      level.galerkin = build_->galerkin(a, level.prolongation(), levels_[l + 1].matrix);
      level.products = level.galerkin->algorithms();
      if (!keep_resetup_state) {  // R_l, P_l and A_{l+1} are all the rest needs
        release_resetup_state(*level.galerkin, 0);
        release_resetup_state(*level.prolongator, 0);
        level.aggregates = {};
        level.candidates = {};
      }
    });
  }
  const index_t limit = dense_row_limit(options);
  if (Build::global_rows(coarsest().matrix) > limit)
    throw BadInput("amg: the coarsest level (level " + std::to_string(size() - 1) + ", " +
                   std::to_string(Build::global_rows(coarsest().matrix)) +
                   " rows; coarsening stopped: " + stop_reason_ +
                   ") is too large for the dense coarse solve (at most " + std::to_string(limit) +
                   " rows): raise max_levels, or use another preconditioner when the matrix does "
                   "not coarsen");
  compute_coarse_inverse(phases);
  for (Level& level : levels_) {
    level.process_rows = build_->process_rows(level.matrix);
    level.rows = Build::rows(level.matrix);
    level.nnz = Build::nnz(level.matrix);
    level.global_rows = Build::global_rows(level.matrix);
    level.global_nnz = Build::global_nnz(level.matrix);
  }
}

template <class Build>
void AmgHierarchyOn<Build>::update_values() {
  if (options_.resetup == AmgResetup::rebuild)
    throw Error("amg: update_values without the re-setup state (resetup: rebuild; internal error)");
  PhaseTimes phases;
  for (std::size_t l = 0; l < size(); ++l) {
    Level& level = levels_[l];
    timed(phases, "eigen_estimate", [&] {
      build_->agreed([&] { compute_inverse_diagonal(l); });
      if (l + 1 < size()) estimate_bound(l);
    });
    if (l + 1 == size()) break;
    if (options_.resetup == AmgResetup::full)  // galerkin: P (and R) as the setup left them
      timed(phases, "prolongator", [&] {
        level.prolongator->compute(level.matrix, level.inverse_diagonal, level.bound.lambda_max);
      });
    timed(phases, "galerkin_product", [&] {
      level.galerkin->compute(level.matrix, level.prolongation(), levels_[l + 1].matrix);
    });
  }
  compute_coarse_inverse(phases);
  update_phases_ = std::move(phases);
}

// The coarsest level's LU inverse, on the host (the level is small); on the GPU path the
// level is downloaded and its inverse uploaded (into the same arrays after the first time).
template <class Build>
void AmgHierarchyOn<Build>::compute_coarse_inverse(PhaseTimes& phases) {
  timed(phases, "coarse_factorization", [&] {
    const auto& coarse = build_->to_host(coarsest().matrix);
    CsrMatrix<double> inverse;
    build_->agreed([&] {  // every process factors the same matrix (a distributed build's)
      const DenseLu lu(coarse, "amg: the coarsest level (level " + std::to_string(size() - 1) +
                                   ", " + std::to_string(coarse.rows) + " rows)");
      coarse_pivot_ratio_ = lu.smallest_pivot_ratio();
      inverse = lu.inverse();
    });
    if (!coarse_inverse_made_)
      coarse_inverse_ = build_->from_host(std::move(inverse));
    else
      build_->set_values(coarse_inverse_, inverse);
    coarse_inverse_made_ = true;
  });
}

template <class Build>
double AmgHierarchyOn<Build>::operator_complexity() const {
  double total = 0.0;
  for (std::size_t l = 0; l < size(); ++l) total += static_cast<double>(global_nnz(l));
  return total / std::max(1.0, static_cast<double>(global_nnz(0)));
}

template <class Build>
double AmgHierarchyOn<Build>::grid_complexity() const {
  double total = 0.0;
  for (std::size_t l = 0; l < size(); ++l) total += static_cast<double>(global_rows(l));
  return total / std::max(1.0, static_cast<double>(global_rows(0)));
}

}  // namespace spk
