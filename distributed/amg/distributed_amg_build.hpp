#pragma once
// DistributedAmgBuild: the AMG hierarchy of a matrix distributed over processes by rows
// (solver/amg/amg_build.hpp says what a Build provides; solver/amg/hierarchy.hpp the steps).
// The driver is the one-process driver; each piece is its distributed form:
//   levels      DistributedLevel (distributed_level.hpp): this process's rows, split into the
//               local and halo blocks, with the global sizes every decision is taken from;
//   strength,   on the local block only: aggregates never cross processes (as Ginkgo's
//   aggregates  distributed PGM and PETSc GAMG's default), deterministic for a partition; the
//               coarse level's rows are this process's aggregates, numbered after the lower
//               ranks' (the coarse partition);
//   T           local (solver/amg/tentative_prolongator.hpp), its columns global;
//   P           through A's halo (distributed_prolongator.hpp);
//   R, A_{l+1}  the distributed transpose and Galerkin product (distributed_coarse_product.hpp);
//   lambda      Lanczos on DistributedSpace<HostSpace<double>> with the level's distributed
//               product (its dots summed over processes, its start vector the same global
//               vector whatever the partition);
//   agglomeration  (FineRows::agglomerate_rows) a coarse level with few rows per process goes
//               onto fewer processes (agglomerated_partition, row_partition.hpp): T's column
//               partition, hence P's, R's rows and A_{l+1}'s rows, follow it, and the coarser
//               levels are built on those processes only (the others hold no rows);
//   coarsest    gathered on every process (one MPI_Allgatherv), factored and inverted there
//               alike; each process keeps its rows of the inverse, applied as a distributed
//               product whose halo is every other process's coarse entries.
// A step that can fail on one process (a bad a_ii, a singular coarsest matrix) is agreed
// (agreed()): every process throws the same error, none is left in a collective.
//
// The setup runs on the host (OpenMP within a process): the CPU path's. The GPU path builds the
// same hierarchy on the device (DeviceDistributedAmgBuild, device_distributed_amg_build.hpp,
// whose AmgBuildOf specialization is the more specialized one). The solver's vectors (pattern,
// values, D^-1 for the smoothers) are read and written through SolverMemory (host or device
// memory).
#include <functional>
#include <memory>
#include <vector>

#include "core/device_buffer.hpp"
#include "distributed/amg/distributed_coarse_product.hpp"
#include "distributed/amg/distributed_level.hpp"
#include "distributed/amg/distributed_prolongator.hpp"
#include "distributed/amg/global_diagonal_fault.hpp"
#include "distributed/distributed_space.hpp"
#include "solver/amg/aggregation.hpp"
#include "solver/amg/amg_build.hpp"
#include "solver/amg/hierarchy.hpp"
#include "solver/amg/nodal_aggregation.hpp"
#include "solver/amg/strength.hpp"
#include "solver/space_pattern.hpp"

namespace spk {

class NcclCommunicator;  // distributed/nccl_communicator.hpp
template <class T>
class HostSpace;  // solver/host_space.hpp (OpenMP: not for CUDA translation units)

// The solver's memory, as the setup reads and writes it (host arrays or device buffers).
class SolverMemory {
 public:
  virtual ~SolverMemory() = default;
  virtual std::vector<index_t> indices(const index_t* data, std::size_t count) = 0;
  virtual std::vector<double> values(const double* data, std::size_t count) = 0;
  virtual std::vector<double> values(const float* data, std::size_t count) = 0;
  virtual void write(const std::vector<double>& host, double* destination) = 0;
  virtual void write(const std::vector<double>& host, float* destination) = 0;
};

// The fine level's distribution (the solver's matrix): its row partition and halo columns.
struct FineRows {
  RowPartition partition;
  std::vector<global_index_t> halo_columns;
  global_index_t agglomerate_rows = 0;  // AmgOptions::agglomerate_rows (0: never)
  // GPU path, double: the solver's whole rows' values on the device, which it reads no more
  // once the AMG setup has them: the device build takes the array for its A_0 instead of a
  // copy (the largest array of A_0 once less at the setup's peak). Null: copy.
  DeviceBuffer<double>* adoptable_values = nullptr;
  // GPU path: the solver's NCCL communicator (its calls on the solver's stream), over which the
  // device build moves boundary rows from GPU to GPU. Null: host-staged MPI.
  const NcclCommunicator* nccl = nullptr;
};

class DistributedAmgBuild {
 public:
  using Space = DistributedSpace<HostSpace<double>>;
  template <class U>
  using Array = std::vector<U>;
  using Matrix = DistributedLevel;
  using Graph = StrengthGraph;
  using Aggregates = ::spk::Aggregates;
  using Prolongator = DistributedProlongator;
  using Galerkin = DistributedCoarseProduct;
  static constexpr const char* where = "host, distributed";

  struct Fit {
    Matrix matrix;
    Array<double> coarse_candidates;
    index_t dependent_columns = 0;
  };

  DistributedAmgBuild(FaultWatch& watch, const FineRows& fine,
                      std::unique_ptr<SolverMemory> memory);
  ~DistributedAmgBuild();
  DistributedAmgBuild(const DistributedAmgBuild&) = delete;
  DistributedAmgBuild& operator=(const DistributedAmgBuild&) = delete;

  Space& space();
  void synchronize() {}
  template <class Step>
  void agreed(Step&& step) {  // a bad a_ii: its global row and rank (global_diagonal_fault.hpp)
    on_every_process(watch_, [&] {
      with_global_diagonal_rows(fine_.partition, watch_.rank(), watch_.processes(), step);
    });
  }

  static index_t rows(const Matrix& matrix) { return matrix.rows; }
  static index_t nnz(const Matrix& matrix) { return matrix.split.pattern.nnz(); }
  static global_index_t global_rows(const Matrix& matrix) { return matrix.global_rows(); }
  static global_index_t global_nnz(const Matrix& matrix) { return matrix.global_nnz; }
  static SpacePattern pattern(const Matrix& matrix) {
    const CsrMatrix<double>& whole = matrix.split.pattern;
    return {whole.rows, whole.cols, whole.row_offsets.data(), whole.columns.data()};
  }
  static const double* values(const Matrix& matrix) { return matrix.split.pattern.values.data(); }
  Array<double> ones(index_t n) { return Array<double>(static_cast<std::size_t>(n), 1.0); }
  // The aggregates of every process.
  global_index_t global_count(const Aggregates& aggregates);
  // The fewest and most rows of a process (collective).
  ProcessRows process_rows(const Matrix& matrix) {
    return spread_over_processes(watch_, matrix.rows);
  }

  Graph strength(const Matrix& a, double theta) { return strength_graph(a.split.local, theta); }
  Aggregates aggregate(const Graph& graph, int distance = 2) {
    return aggregate_mis2(graph, distance);
  }
  Fit tentative(const Aggregates& aggregates, const Array<double>& candidates);
  // AMG for systems: the nodal strength of the local block, isolated nodes left out, the
  // per-aggregate QR of B (each process's rows are whole nodes and its B rows are its rows':
  // distributed_setup.cpp checks). The counts the report gives (isolated nodes, completed
  // columns) are summed over processes (collective).
  Array<double> upload(const std::vector<double>& values) { return values; }
  Graph nodal_strength(const Matrix& a, int block_size, double theta) {
    return nodal_strength_graph(a.split.local, block_size, theta);
  }
  void leave_out_isolated(Aggregates& aggregates, const Graph& graph);
  Fit fit(const Aggregates& aggregates, int block_size, const Array<double>& candidates, int count);
  std::unique_ptr<Prolongator> prolongator(const Matrix& a, Matrix tentative, double weight) {
    return std::make_unique<Prolongator>(watch_, a, std::move(tentative), weight);
  }
  std::unique_ptr<Galerkin> galerkin(const Matrix& a, const Matrix& p, Matrix& coarse) {
    return std::make_unique<Galerkin>(watch_, a, p, coarse);
  }
  // A_l as the distributed product of the Lanczos estimate (collective); the build's space
  // then starts its vectors at A_l's first global row.
  std::unique_ptr<LinearOperator<double>> spmv_operator(const Matrix& a);

  const CsrMatrix<double>& to_host(const Matrix& matrix);
  Matrix from_host(CsrMatrix<double> matrix);
  void set_values(Matrix& matrix, const CsrMatrix<double>& source);

  template <class T>
  Matrix fine_matrix(const SpacePattern& pattern, const T* values) {
    return fine_level(
        memory_->indices(pattern.row_offsets, static_cast<std::size_t>(pattern.rows) + 1), pattern,
        memory_->values(values, fine_nnz(pattern)));
  }
  template <class T>
  void set_fine_values(Matrix& fine, const T* values) {
    set_level_values(fine, memory_->values(values, fine.block.values.size()));
  }
  // to[i] = T(factor * from[i]), `to` in the solver's memory
  template <class T>
  void convert(std::size_t n, double factor, const double* from, T* to) {
    std::vector<double> scaled(from, from + n);
    for (double& value : scaled) value *= factor;
    memory_->write(scaled, to);
  }

 private:
  // T with global columns: this process's aggregates numbered after the lower ranks'.
  Fit distributed_fit(const CsrMatrix<double>& local, std::vector<double> coarse_candidates,
                      index_t coarse_rows);
  std::size_t fine_nnz(const SpacePattern& pattern);
  Matrix fine_level(std::vector<index_t> row_offsets, const SpacePattern& pattern,
                    std::vector<double> values);

  FaultWatch& watch_;
  const FineRows& fine_;
  std::unique_ptr<SolverMemory> memory_;
  std::unique_ptr<Space> space_;     // the setup's (host, double, sums over processes)
  CsrMatrix<double> gathered_;       // the coarsest level, whole (to_host)
  RowPartition coarsest_partition_;  // its rows' partition
};

// The distributed space's hierarchy build, where the solver gave its space the fine rows
// (DistributedSpace::set_fine_rows).
template <class Inner>
class SpaceMemory final : public SolverMemory {
 public:
  explicit SpaceMemory(Inner& space) : space_(space) {}
  std::vector<index_t> indices(const index_t* data, std::size_t count) override {
    return space_.template download<index_t>(data, count);
  }
  std::vector<double> values(const double* data, std::size_t count) override {
    return space_.template download<double>(data, count);
  }
  std::vector<double> values(const float* data, std::size_t count) override {
    const std::vector<float> single = space_.template download<float>(data, count);
    return std::vector<double>(single.begin(), single.end());
  }
  void write(const std::vector<double>& host, double* destination) override {
    space_.upload(host, destination);
  }
  void write(const std::vector<double>& host, float* destination) override {
    space_.upload(std::vector<float>(host.begin(), host.end()), destination);
  }

 private:
  Inner& space_;
};

template <class Inner>
struct AmgBuildOf<DistributedSpace<Inner>> {
  using type = DistributedAmgBuild;
  static std::unique_ptr<DistributedAmgBuild> make(DistributedSpace<Inner>& space) {
    return std::make_unique<DistributedAmgBuild>(
        space.watch(), space.fine_rows(),
        std::make_unique<SpaceMemory<Inner>>(static_cast<Inner&>(space)));
  }
};

using DistributedAmgHierarchy = AmgHierarchyOn<DistributedAmgBuild>;

}  // namespace spk
