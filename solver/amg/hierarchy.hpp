#pragma once
// The smoothed-aggregation hierarchy, built in double precision (Vanek, Mandel & Brezina,
// Computing 56, 1996; the defaults of PyAMG's smoothed_aggregation_solver). Per level l, from
// A_0 = A:
//   1. D_l^-1 (a missing, zero or non-finite a_ii is an error naming the row);
//   2. stop here when rows(A_l) <= max_coarse_rows or l + 1 == max_levels: the coarsest level;
//   3. S_l: the strength graph (solver/amg/strength.hpp);
//   4. aggregates of S_l by MIS(2) (solver/amg/aggregation.hpp); stop here when they keep
//      more than 90% of the rows (coarsening stalled);
//   5. lambda_l ~ lambda_max(D_l^-1 A_l) (solver/eigen_estimate.hpp, as the Chebyshev
//      preconditioner estimates it: AmgOptions::chebyshev), for P and the smoother;
//   6. T_l from the aggregates and the near-null-space vector B_l (B_0 = ones, B_{l+1} the
//      coarse vector T_l gives; solver/amg/tentative_prolongator.hpp),
//      P_l = (I - omega/lambda_l D_l^-1 A_l) T_l;
//   7. R_l = P_l^T, A_{l+1} = R_l A_l P_l (solver/amg/galerkin_product.hpp).
//
// AMG for systems (AmgOptions::block_size > 1, or a near-null space other than `constant`:
// elasticity's rigid-body modes; Vanek, Mandel & Brezina 1996, sec. 4; PyAMG's B and BSR
// strength): B_0 holds k vectors (near_nullspace.hpp, fine_near_nullspace), steps 3-6 work on
// nodes of block_size dofs:
//   3. the strength graph is the nodal matrix's (Frobenius norms of the blocks;
//      solver/amg/nodal_aggregation.hpp);
//   4. the nodes are aggregated (MIS(2) on the finest level; below it the distance-1 variant,
//      since a Galerkin level couples each aggregate with its neighbours' neighbours and MIS(2)
//      would swallow a small level in a few aggregates: on the clamped beam (beam3d n=8) the
//      coarse level went from 912 rows to 24 and CG needed 28 iterations, with MIS(1) 114 rows
//      and 21); a node with no strong neighbour is left out of every
//      aggregate (its rows of T are empty, as PyAMG does, and the smoother alone treats it);
//      every other aggregate has at least 2 nodes; the test for stalling counts k coarse dofs
//      per aggregate;
//   6. T_l is the per-aggregate thin QR of B_l (solver/amg/candidate_fit.hpp): k orthonormal
//      columns per aggregate, rank-deficient blocks completed (counted), B_{l+1} = the R
//      factors, and level l+1 has k dofs per aggregate (its block size is k).
// Scalar problems (block_size 1, constant) keep the path above exactly.
// The coarsest level is factored (solver/amg/dense_lu.hpp) and inverted.
//
// update_values() keeps the aggregates, T and every pattern and recomputes the numbers: D^-1,
// lambda, P, R, A_{l+1}, the coarsest factorization (AmgX's resetup with all structure
// reused; PETSc GAMG's reuse_interpolation keeps P too, here P follows the new values).
// With AmgResetup::rebuild nothing of that is kept: each level's product state (the
// Galerkin product's and the prolongator's plans and intermediates, the Lanczos operator) is
// released as soon as the level is built, release_level() frees a level's arrays once the
// cycle has its operators (A_0 stays), and rebuild() builds every level below A_0 again.
//
// Where it runs. This driver (the loop above, its stopping rules, the D^-1 checks, the eigen
// estimates and the phase times) is written once, over a Build (solver/amg/amg_build.hpp):
//   CPU path  HostAmgBuild: everything on the host (OpenMP), host arrays.
//   GPU path  DeviceAmgBuild: the levels live on the device and every step runs there:
//             D^-1 (DeviceSpace's kernels), strength and MIS(2) aggregation (kernels, one
//             read-back per aggregation round), T, P and R A P (cuSPARSE SpGEMM and
//             csr2csc, solver/amg/device_*.hpp), lambda (Lanczos on DeviceSpace<double> with
//             an SpMV backend of A_l). Only the coarsest level (at most
//             max(max_coarse_rows, 2000) rows) goes to the host, for its dense LU inverse,
//             which is uploaded back. update_values keeps the fine values on the device.
// Both builds call the same per-node and per-row rules (strength_rules.hpp,
// aggregation_rules.hpp, prolongator_rules.hpp): the aggregates, and so the hierarchy's
// shapes, are the same on both paths; the values differ by rounding (the SpGEMM's order).
//
// The driver's member definitions are in solver/amg/hierarchy_driver.hpp, instantiated for
// HostAmgBuild in hierarchy.cpp and for DeviceAmgBuild in device_hierarchy.cpp. The CPU
// path's types, AmgHierarchy and AmgLevel, are declared with HostAmgBuild
// (solver/amg/host_amg_build.hpp: host code only, it uses OpenMP).
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "solver/amg/amg_build.hpp"
#include "solver/eigen_estimate.hpp"
#include "spkrylov/options.hpp"
#include "spmv/host/csr_matrix.hpp"

namespace spk {

template <class Build>
struct AmgLevelOn {
  using Matrix = typename Build::Matrix;
  template <class U>
  using Array = typename Build::template Array<U>;

  Matrix matrix;                      // A_l
  Array<double> inverse_diagonal;     // D_l^-1
  Array<index_t> diagonal_positions;  // where a_ii sits in A_l's values (-1: nowhere)
  Array<double> candidates;           // B_l, the near-null space (rows x candidate_count)
  int block_size = 1;                 // dofs per node (level 0: AmgOptions::block_size; k below)
  int candidate_count = 1;            // k, the near-null-space vectors (columns of B_l)
  // How the rows are spread over the processes (one process: rows, rows, 1 of 1).
  ProcessRows process_rows;
  // A_l's sizes, kept when its arrays are released (release_level).
  index_t rows = 0, nnz = 0;
  std::int64_t global_rows = 0, global_nnz = 0;
  // Levels above the coarsest only:
  EigenBound bound;  // lambda_max(D_l^-1 A_l) before any safety factor
  typename Build::Aggregates aggregates;
  int aggregation_rounds = 0;
  std::unique_ptr<typename Build::Prolongator> prolongator;  // T_l and P_l
  std::unique_ptr<typename Build::Galerkin> galerkin;        // R_l (and A_{l+1}, in level l+1)
  std::string products;  // the Galerkin product's algorithms (galerkin->algorithms())

  const Matrix& prolongation() const { return prolongator->matrix(); }
  const Matrix& restriction() const { return galerkin->restriction(); }
};

using PhaseTimes = std::vector<std::pair<std::string, double>>;  // (phase, seconds)

template <class Build>
class AmgHierarchyOn {
 public:
  using Matrix = typename Build::Matrix;
  using Level = AmgLevelOn<Build>;

  // Builds the hierarchy of `fine` (square) with `build`, or with a Build of its own. Throws
  // BadDiagonal for a bad a_ii of A (naming the row), BadInput for other unusable input (a
  // singular coarsest matrix, a coarsest level too large for the dense solve).
  AmgHierarchyOn(Matrix fine, const AmgOptions& options);
  AmgHierarchyOn(std::unique_ptr<Build> build, Matrix fine, const AmgOptions& options);
  ~AmgHierarchyOn();

  // After new values of A were written into fine_matrix() (same pattern): the numbers of
  // every level again. Not with AmgResetup::rebuild (rebuild()).
  void update_values();
  // After new values of A were written into fine_matrix(): every level below it built again
  // (aggregates included), as the constructor did. Any AmgResetup.
  void rebuild();
  // Frees level `index`'s arrays (A_l below the finest, D^-1, B_l, the aggregates, P_l, R_l
  // and their products' state); its sizes, bound and texts stay for the report. For
  // AmgResetup::rebuild, once the cycle's operators are made of them.
  void release_level(std::size_t index);
  Matrix& fine_matrix() { return levels_[0].matrix; }
  Build& build() { return *build_; }

  std::size_t size() const { return levels_.size(); }
  const Level& level(std::size_t index) const { return levels_[index]; }
  const Level& coarsest() const { return levels_.back(); }
  index_t rows(std::size_t index) const { return levels_[index].rows; }
  index_t nnz(std::size_t index) const { return levels_[index].nnz; }
  // Over every process (a distributed build's; the same as rows and nnz on one process).
  std::int64_t global_rows(std::size_t index) const { return levels_[index].global_rows; }
  std::int64_t global_nnz(std::size_t index) const { return levels_[index].global_nnz; }
  // A_coarsest^-1, dense, stored as CSR.
  const Matrix& coarse_inverse() const { return coarse_inverse_; }
  double coarse_pivot_ratio() const { return coarse_pivot_ratio_; }
  // AMG for systems: whether it is on, the near-null space's vectors per aggregate (k), the
  // Q columns completed over all levels and the nodes left out (no strong neighbour).
  bool systems() const { return systems_; }
  int candidate_count() const { return levels_[0].candidate_count; }
  index_t completed_columns() const { return completed_columns_; }
  index_t left_out_nodes() const { return left_out_nodes_; }
  // Why the coarsening stopped: "max_coarse_rows", "max_levels" or "coarsening stalled".
  const std::string& stop_reason() const { return stop_reason_; }
  // sum nnz(A_l) / nnz(A_0) and sum rows(A_l) / rows(A_0).
  double operator_complexity() const;
  double grid_complexity() const;
  // Seconds per phase of the constructor and of the last update_values.
  const PhaseTimes& setup_phases() const { return setup_phases_; }
  const PhaseTimes& update_phases() const { return update_phases_; }

  // Largest coarsest level the dense solve accepts: max(max_coarse_rows, 2000).
  static index_t dense_row_limit(const AmgOptions& options);

 private:
  // The levels below the finest (levels_ holds A_0 alone), into `phases`.
  void coarsen(PhaseTimes& phases);
  void compute_inverse_diagonal(std::size_t l);
  void estimate_bound(std::size_t l);
  void compute_coarse_inverse(PhaseTimes& phases);
  template <class Body>
  auto timed(PhaseTimes& phases, const char* name, Body&& body);

  std::unique_ptr<Build> build_;
  AmgOptions options_;
  std::vector<Level> levels_;
  Matrix coarse_inverse_;
  double coarse_pivot_ratio_ = 0.0;
  bool coarse_inverse_made_ = false;
  bool systems_ = false;
  index_t completed_columns_ = 0;
  index_t left_out_nodes_ = 0;
  std::string stop_reason_;
  PhaseTimes setup_phases_, update_phases_;
};

}  // namespace spk
