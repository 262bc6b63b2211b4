#pragma once
// DeviceDistributedAmgBuild: the GPU path's distributed AMG hierarchy, built on the device
// (solver/amg/amg_build.hpp says what a Build provides; solver/amg/hierarchy.hpp the steps). The
// driver is the one-process driver; DistributedAmgBuild (distributed_amg_build.hpp) builds
// the same hierarchy on the host for the CPU path. Here each process's rows stay on its GPU
// (DeviceDistributedLevel: the whole form of whole_rows.hpp), each step is the one-GPU device
// piece (solver/amg/device_*.hpp, DeviceAmgBuild's) on the local part, and only the boundary
// rows cross to the host and over MPI:
//   strength,   the local block's (device_column_split.hpp: the own columns of the whole rows),
//   aggregates  device_strength.hpp and the MIS(2) of device_aggregation.hpp: aggregates never
//               cross processes; the coarse level's rows are this process's aggregates,
//               numbered after the lower ranks' (the coarse partition);
//   T           local (device_tentative_prolongator.hpp, or device_candidate_fit.hpp for systems);
//   agglomeration  (FineRows::agglomerate_rows) as the CPU path's: a small coarse level onto
//               fewer processes (agglomerated_partition), T's entries keeping their columns,
//               the coarse candidates moved through the host (moved_rows);
//   P           through A's halo (device_distributed_prolongator.hpp);
//   R, A_{l+1}  the distributed transpose and Galerkin product
//   (device_distributed_coarse_product.hpp); lambda      Lanczos on
//   DistributedSpace<DeviceSpace<double>> with the level's distributed
//               product on the device (device_distributed_level_operator.hpp, host-staged MPI);
//   coarsest    its rows downloaded and gathered on every process (one MPI_Allgatherv),
//               factored and inverted there alike; each process keeps its rows of the inverse
//               on the device.
// A step that can fail on one process (a bad a_ii, a device allocation, a singular coarsest
// matrix) is agreed (agreed()): every process throws the same error, none is left in a
// collective. The solver's values (float or double, device memory) are converted on the
// device; the fine level's pattern is the solver's whole rows (own columns, then halo slots),
// sorted within each row on the device once (device_column_order.hpp) if they are not.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "distributed/agreed_errors.hpp"
#include "distributed/amg/device_distributed_coarse_product.hpp"
#include "distributed/amg/device_distributed_level.hpp"
#include "distributed/amg/device_distributed_prolongator.hpp"
#include "distributed/amg/distributed_amg_build.hpp"
#include "distributed/amg/distributed_level.hpp"
#include "distributed/amg/global_diagonal_fault.hpp"
#include "distributed/distributed_space.hpp"
#include "solver/amg/amg_build.hpp"
#include "solver/amg/device_aggregation.hpp"
#include "solver/amg/device_column_order.hpp"
#include "solver/amg/device_csr_matrix.hpp"
#include "solver/amg/hierarchy.hpp"
#include "solver/amg/level_operator.hpp"
#include "solver/device_context.hpp"
#include "solver/device_space.hpp"
#include "solver/space_pattern.hpp"
#include "spmv/linear_operator.hpp"

namespace spk {

class DeviceDistributedAmgBuild {
 public:
  using Space = DistributedSpace<DeviceSpace<double>>;
  template <class U>
  using Array = DeviceBuffer<U>;
  using Matrix = DeviceDistributedLevel;
  using Graph = DeviceStrengthGraph;
  using Aggregates = DeviceAggregates;
  using Prolongator = DeviceDistributedProlongator;
  using Galerkin = DeviceDistributedCoarseProduct;
  static constexpr const char* where = "gpu, distributed";

  struct Fit {
    Matrix matrix;
    Array<double> coarse_candidates;
    index_t dependent_columns = 0;
  };

  // watch, fine: the solver's (outlive the build); stream: the solver's.
  DeviceDistributedAmgBuild(FaultWatch& watch, const FineRows& fine, cudaStream_t stream);
  ~DeviceDistributedAmgBuild();
  DeviceDistributedAmgBuild(const DeviceDistributedAmgBuild&) = delete;
  DeviceDistributedAmgBuild& operator=(const DeviceDistributedAmgBuild&) = delete;

  Space& space() { return *space_; }
  cudaStream_t stream() const { return setup_.stream(); }
  void synchronize() { setup_.synchronize(); }
  template <class Step>
  void agreed(Step&& step) {  // a bad a_ii: its global row and rank (global_diagonal_fault.hpp)
    on_every_process(watch_, [&] {
      with_global_diagonal_rows(fine_.partition, watch_.rank(), watch_.processes(), step);
    });
  }

  static index_t rows(const Matrix& matrix) { return matrix.rows; }
  static index_t nnz(const Matrix& matrix) { return matrix.whole().nnz(); }
  static global_index_t global_rows(const Matrix& matrix) { return matrix.global_rows(); }
  static global_index_t global_nnz(const Matrix& matrix) { return matrix.global_nnz; }
  static SpacePattern pattern(const Matrix& matrix) {
    const DeviceCsrMatrix<double>& whole = matrix.whole();
    return {whole.rows, whole.cols, whole.row_offsets.data(), whole.columns.data()};
  }
  static const double* values(const Matrix& matrix) { return matrix.whole().values.data(); }
  Array<double> ones(index_t n);
  // The aggregates of every process.
  global_index_t global_count(const Aggregates& aggregates);
  // The fewest and most rows of a process (collective).
  ProcessRows process_rows(const Matrix& matrix) {
    return spread_over_processes(watch_, matrix.rows);
  }

  Graph strength(const Matrix& a, double theta);
  Aggregates aggregate(const Graph& graph, int distance = 2);
  Fit tentative(const Aggregates& aggregates, const Array<double>& candidates);
  // AMG for systems: the nodal strength of the local block, isolated nodes left out, the
  // batched per-aggregate QR of B (each process's rows are whole nodes and its B rows are its
  // rows': distributed_setup.cpp checks). The counts the report gives (isolated nodes,
  // completed columns) are summed over processes (collective).
  Array<double> upload(const std::vector<double>& values) {
    return Array<double>(values, "amg near-null space");
  }
  Graph nodal_strength(const Matrix& a, int block_size, double theta);
  void leave_out_isolated(Aggregates& aggregates, const Graph& graph);
  Fit fit(const Aggregates& aggregates, int block_size, const Array<double>& candidates, int count);
  std::unique_ptr<Prolongator> prolongator(const Matrix& a, Matrix tentative, double weight);
  std::unique_ptr<Galerkin> galerkin(const Matrix& a, const Matrix& p, Matrix& coarse);
  // A_l as the distributed product of the Lanczos estimate; the build's space then starts its
  // vectors at A_l's first global row. The first call for a level builds the product (its halo
  // plan, blocks and exchange: collective) and keeps it; a later call for the same level (a
  // re-setup: same pattern, new values) refreshes its values only. The result refers to the
  // kept product.
  std::unique_ptr<LinearOperator<double>> spmv_operator(const Matrix& a);
  // Frees the product spmv_operator keeps for `a` (AmgResetup::rebuild: no re-setup will ask
  // for it; and before a level's arrays are replaced, since products are found by address).
  void forget_spmv_operator(const Matrix& a) { estimate_operators_.erase(&a); }
  // Whether the hierarchy will re-set up (AmgResetup full or galerkin; rebuild: no): the
  // Galerkin products then free their intermediates as soon as they are used.
  void keep_resetup_state(bool keep) { keep_resetup_state_ = keep; }
  // The solver's own fp64 operator of the finest level (its blocks, exchange and format), which
  // spmv_operator then lends for that level instead of building a second one: at 16M rows a
  // process the second product cost its split, the halo rows' offsets read back, cuSPARSE's
  // copies of the blocks (1.3 GB) and ~100 ms. Null: none (an fp32 solver), build it.
  void lend_fine_operator(const LinearOperator<double>* fine) { fine_operator_ = fine; }

  const CsrMatrix<double>& to_host(const Matrix& matrix);
  Matrix from_host(CsrMatrix<double> matrix);
  void set_values(Matrix& matrix, const CsrMatrix<double>& source);

  // The finest level from the solver's whole rows (device memory, T = float or double).
  template <class T>
  Matrix fine_matrix(const SpacePattern& pattern, const T* values);
  template <class T>
  void set_fine_values(Matrix& fine, const T* values);
  // to[i] = T(factor * from[i]) on the device.
  template <class T>
  void convert(std::size_t n, double factor, const double* from, T* to) {
    scale_on_device(n, factor, from, to, stream());
  }

 private:
  // The local block (own columns) of a level, double, on the device.
  DeviceCsrMatrix<double> local_block(const Matrix& a);
  // T's level: its rows the fine partition's, its columns this process's aggregates (k each for
  // systems) numbered after the lower ranks' (collective). With agglomeration
  // (FineRows::agglomerate_rows) the coarse rows go onto fewer processes (agglomerated_partition):
  // the global numbering stays, so T's entries keep their columns. A process that keeps its coarse
  // rows (its group's first) owns more columns; one that gives them away sees the same columns as
  // halo slots (slot c: global column first + c); the coarse candidates move with their rows.
  Matrix tentative_level(DeviceCsrMatrix<double> local, Array<double>& coarse_candidates);
  global_index_t summed(global_index_t mine);

  FaultWatch& watch_;
  const FineRows& fine_;
  DeviceContext context_;
  DeviceSetupContext setup_;
  std::unique_ptr<Space> space_;  // the setup's (device, double, sums over processes)
  DeviceColumnOrder fine_order_;  // the solver's rows sorted, when they are not
  CsrMatrix<double> gathered_;    // the coarsest level, whole (to_host)
  RowPartition coarsest_partition_;
  std::vector<index_t> inverse_order_;  // whole-form entry -> entry of the inverse's rows
  // spmv_operator's products, by level (the hierarchy's levels never move)
  std::map<const Matrix*, std::unique_ptr<LevelOperator<double, Matrix>>> estimate_operators_;
  const LinearOperator<double>* fine_operator_ = nullptr;  // lend_fine_operator's
  bool keep_resetup_state_ = true;
};

// The device solver's AMG over processes: built on the device (more specialized than the host
// build's AmgBuildOf<DistributedSpace<Inner>>, distributed_amg_build.hpp).
template <class T>
struct AmgBuildOf<DistributedSpace<DeviceSpace<T>>> {
  using type = DeviceDistributedAmgBuild;
  static std::unique_ptr<DeviceDistributedAmgBuild> make(DistributedSpace<DeviceSpace<T>>& space) {
    return std::make_unique<DeviceDistributedAmgBuild>(space.watch(), space.fine_rows(),
                                                       space.stream());
  }
};

using DeviceDistributedAmgHierarchy = AmgHierarchyOn<DeviceDistributedAmgBuild>;

}  // namespace spk
