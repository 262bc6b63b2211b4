#include "solver/amg/hierarchy.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>

#include "solver/amg/dense_lu.hpp"
#include "solver/amg/strength.hpp"
#include "solver/amg/tentative_prolongator.hpp"
#include "solver/chebyshev.hpp"
#include "solver/host_space.hpp"
#include "solver/jacobi.hpp"
#include "spkrylov/errors.hpp"
#include "spmv/host/reference_spmv.hpp"

namespace spk {

namespace {

// Runs `body` and adds its wall-clock time to phase `name`.
template <class Body>
auto timed(PhaseTimes& phases, const char* name, Body&& body) {
  const auto start = std::chrono::steady_clock::now();
  struct AddTime {
    PhaseTimes& phases;
    const char* name;
    std::chrono::steady_clock::time_point start;
    ~AddTime() {
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      for (auto& [phase, total] : phases)
        if (phase == name) {
          total += seconds;
          return;
        }
      phases.emplace_back(name, seconds);
    }
  } add_time{phases, name, start};
  return body();
}

// D^-1 of level `level`; a bad a_ii of A itself is a BadDiagonal naming the row (as for
// Jacobi), one of a coarse Galerkin matrix a BadInput naming the level.
std::vector<double> checked_inverse_diagonal(const CsrMatrix<double>& a, std::size_t level) {
  const std::vector<index_t> positions = diagonal_positions(a.rows, a.row_offsets, a.columns);
  std::vector<double> inverse(static_cast<std::size_t>(a.rows));
  std::uint64_t fault = diagonal_fault::no_fault;
  for (std::size_t i = 0; i < inverse.size(); ++i) {
    const std::uint64_t code = invert_entry(a.values.data(), positions[i], inverse[i]);  // 1/a_ii
    if (code != diagonal_fault::no_fault && fault == diagonal_fault::no_fault)
      fault = 4 * static_cast<std::uint64_t>(i) + code;
  }
  try {
    throw_diagonal_fault("amg", fault);
  } catch (const BadDiagonal& error) {
    if (level == 0) throw;
    throw BadInput("amg: level " + std::to_string(level) + " (the Galerkin matrix R A P): row " +
                   std::to_string(error.row()) + " (0-based): " + error.problem());
  }
  return inverse;
}

// lambda_max(D^-1 A) of a level, on the host, as AmgOptions::chebyshev asks.
EigenBound estimate_bound(const AmgLevel& level, const ChebyshevOptions& options) {
  HostSpace<double> space;
  const HostCsrOperator<double> matrix(level.matrix);
  return estimate_lambda_max(space, matrix, level.inverse_diagonal.data(), options,
                             [&] { return gershgorin_lambda_max(level.matrix); });
}

}  // namespace

index_t AmgHierarchy::dense_row_limit(const AmgOptions& options) {
  return std::max<index_t>(options.max_coarse_rows, 2000);
}

AmgHierarchy::AmgHierarchy(CsrMatrix<double> fine, const AmgOptions& options) : options_(options) {
  if (!fine.square())
    throw BadInput("amg: the matrix is not square (" + std::to_string(fine.rows) + " x " +
                   std::to_string(fine.cols) + ")");
  PhaseTimes& phases = setup_phases_;
  levels_.reserve(static_cast<std::size_t>(std::max(1, options.max_levels)));
  levels_.emplace_back();
  levels_[0].matrix = std::move(fine);
  levels_[0].candidates.assign(static_cast<std::size_t>(levels_[0].matrix.rows), 1.0);
  for (std::size_t l = 0;; ++l) {
    AmgLevel& level = levels_[l];  // levels_ never grows past its reserve: stays valid
    const CsrMatrix<double>& a = level.matrix;
    timed(phases, "eigen_estimate",
          [&] { level.inverse_diagonal = checked_inverse_diagonal(a, l); });
    if (a.rows <= options.max_coarse_rows) {
      stop_reason_ = "max_coarse_rows";
      break;
    }
    if (static_cast<int>(l) + 1 >= options.max_levels) {
      stop_reason_ = "max_levels";
      break;
    }
    const StrengthGraph graph =
        timed(phases, "strength", [&] { return strength_graph(a, options.strength_threshold); });
    Aggregates aggregates = timed(phases, "aggregation", [&] { return aggregate_mis2(graph); });
    if (static_cast<std::int64_t>(aggregates.count) * 10 > static_cast<std::int64_t>(a.rows) * 9) {
      stop_reason_ = "coarsening stalled";
      break;
    }
    level.aggregates = std::move(aggregates);
    timed(phases, "eigen_estimate",
          [&] { level.bound = estimate_bound(level, options.chebyshev); });
    levels_.emplace_back();
    timed(phases, "prolongator", [&] {
      TentativeProlongator tentative = tentative_prolongator(level.aggregates, level.candidates);
      levels_[l + 1].candidates = std::move(tentative.coarse_candidates);
      level.prolongator = std::make_unique<SmoothedProlongator>(a, std::move(tentative.matrix),
                                                                options.prolongator_weight);
      level.prolongator->compute(a, level.inverse_diagonal, level.bound.lambda_max);
    });
    timed(phases, "galerkin_product", [&] {
      level.galerkin =
          std::make_unique<GalerkinProduct>(a, level.prolongation(), levels_[l + 1].matrix);
    });
  }
  const index_t limit = dense_row_limit(options);
  if (coarsest().matrix.rows > limit)
    throw BadInput("amg: the coarsest level (level " + std::to_string(size() - 1) + ", " +
                   std::to_string(coarsest().matrix.rows) + " rows; coarsening stopped: " +
                   stop_reason_ + ") is too large for the dense coarse solve (at most " +
                   std::to_string(limit) + " rows): raise max_levels, or use another " +
                   "preconditioner when the matrix does not coarsen");
  compute_coarse_inverse(phases);
}

void AmgHierarchy::update_values(const std::vector<double>& fine_values) {
  if (fine_values.size() != levels_[0].matrix.values.size())
    throw BadInput("amg update_values: " + std::to_string(fine_values.size()) +
                   " values for a matrix with " + std::to_string(levels_[0].matrix.values.size()) +
                   " nonzeros");
  PhaseTimes phases;
  levels_[0].matrix.values = fine_values;
  for (std::size_t l = 0; l < size(); ++l) {
    AmgLevel& level = levels_[l];
    timed(phases, "eigen_estimate", [&] {
      level.inverse_diagonal = checked_inverse_diagonal(level.matrix, l);
      if (l + 1 < size()) level.bound = estimate_bound(level, options_.chebyshev);
    });
    if (l + 1 == size()) break;
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

void AmgHierarchy::compute_coarse_inverse(PhaseTimes& phases) {
  timed(phases, "coarse_factorization", [&] {
    const DenseLu lu(coarsest().matrix, "amg: the coarsest level (level " +
                                            std::to_string(size() - 1) + ", " +
                                            std::to_string(coarsest().matrix.rows) + " rows)");
    coarse_pivot_ratio_ = lu.smallest_pivot_ratio();
    coarse_inverse_ = lu.inverse();
  });
}

double AmgHierarchy::operator_complexity() const {
  double total = 0.0;
  for (const AmgLevel& level : levels_) total += static_cast<double>(level.matrix.nnz());
  return total / std::max(1.0, static_cast<double>(levels_[0].matrix.nnz()));
}

double AmgHierarchy::grid_complexity() const {
  double total = 0.0;
  for (const AmgLevel& level : levels_) total += static_cast<double>(level.matrix.rows);
  return total / std::max(1.0, static_cast<double>(levels_[0].matrix.rows));
}

}  // namespace spk
