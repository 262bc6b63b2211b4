#include "distributed/amg/distributed_amg_build.hpp"

#include <string>
#include <utility>

#include "distributed/amg/row_exchange.hpp"
#include "distributed/host_blocks.hpp"
#include "distributed/mpi_check.hpp"
#include "solver/amg/candidate_fit.hpp"
#include "solver/amg/tentative_prolongator.hpp"
#include "solver/host_space.hpp"
#include "spkrylov/errors.hpp"

namespace spk {

namespace {

// A distributed product that owns its matrix (DistributedMatrix is not movable).
class OwnedDistributedOperator final : public LinearOperator<double> {
 public:
  OwnedDistributedOperator(FaultWatch& watch, const SplitRows<double>& split, index_t cols)
      : matrix_(watch.comm(), split, host_blocks<double>(watch.comm(), &watch)), cols_(cols) {}
  void apply_scaled(double alpha, const double* x, double beta, double* y) const override {
    matrix_.op().apply_scaled(alpha, x, beta, y);
  }
  index_t rows() const override { return matrix_.op().rows(); }
  index_t cols() const override { return cols_; }
  std::string name() const override { return matrix_.op().name(); }

 private:
  DistributedMatrix<double> matrix_;
  index_t cols_;
};

}  // namespace

DistributedAmgBuild::DistributedAmgBuild(FaultWatch& watch, const FineRows& fine,
                                         std::unique_ptr<SolverMemory> memory)
    : watch_(watch),
      fine_(fine),
      memory_(std::move(memory)),
      space_(std::make_unique<Space>(watch, fine.partition.first_row(watch.rank()))) {}

DistributedAmgBuild::~DistributedAmgBuild() = default;

DistributedAmgBuild::Space& DistributedAmgBuild::space() {
  return *space_;
}

global_index_t DistributedAmgBuild::global_count(const Aggregates& aggregates) {
  const global_index_t mine = aggregates.count;
  global_index_t total = 0;
  watch_.allreduce(&mine, &total, 1, MPI_INT64_T, MPI_SUM);
  return total;
}

DistributedAmgBuild::Fit DistributedAmgBuild::distributed_fit(const CsrMatrix<double>& local,
                                                              std::vector<double> coarse_candidates,
                                                              index_t coarse_rows) {
  RowPartition fine = gather_partition(watch_, local.rows);
  RowPartition coarse = gather_partition(watch_, coarse_rows);
  const int rank = watch_.rank();
  RowBlock<double> block =
      to_global_rows(local, fine.first_row(rank), fine.global_rows(), coarse.first_row(rank));
  // Agglomeration: the coarse level on fewer processes. Its numbering is the same (the blocks
  // of consecutive ranks merge), so T's rows keep their global columns; only the owners of
  // those columns, and the near-null-space candidates of the coarse rows, move.
  RowPartition fewer = agglomerated_partition(coarse, fine_.agglomerate_rows);
  if (fewer.offsets != coarse.offsets) {
    coarse_candidates = moved_rows(watch_, coarse_candidates, coarse, fewer);
    coarse = std::move(fewer);
  }
  Fit fit;
  fit.matrix = make_level(watch_, std::move(block), std::move(fine), std::move(coarse));
  fit.coarse_candidates = std::move(coarse_candidates);
  return fit;
}

DistributedAmgBuild::Fit DistributedAmgBuild::tentative(const Aggregates& aggregates,
                                                        const Array<double>& candidates) {
  TentativeProlongator local = tentative_prolongator(aggregates, candidates);
  return distributed_fit(local.matrix, std::move(local.coarse_candidates), aggregates.count);
}

DistributedAmgBuild::Fit DistributedAmgBuild::fit(const Aggregates& aggregates, int block_size,
                                                  const Array<double>& candidates, int count) {
  CandidateFit local = fit_candidates(aggregates, block_size, candidates, count);
  Fit fit = distributed_fit(local.matrix, std::move(local.coarse_candidates), local.matrix.cols);
  // the report's count: every process's completed columns
  const global_index_t mine = local.dependent_columns;
  global_index_t total = 0;
  watch_.allreduce(&mine, &total, 1, MPI_INT64_T, MPI_SUM);
  fit.dependent_columns = static_cast<index_t>(total);
  return fit;
}

void DistributedAmgBuild::leave_out_isolated(Aggregates& aggregates, const Graph& graph) {
  leave_out_isolated_nodes(aggregates, graph);
  // the report's count (left_out_nodes): every process's isolated nodes; aggregates.isolated
  // is read by nothing else
  const global_index_t mine = aggregates.isolated;
  global_index_t total = 0;
  watch_.allreduce(&mine, &total, 1, MPI_INT64_T, MPI_SUM);
  aggregates.isolated = static_cast<index_t>(total);
}

std::unique_ptr<LinearOperator<double>> DistributedAmgBuild::spmv_operator(const Matrix& a) {
  space_->set_first_global_index(a.row_partition.first_row(watch_.rank()));
  return std::make_unique<OwnedDistributedOperator>(watch_, a.split, a.cols);
}

const CsrMatrix<double>& DistributedAmgBuild::to_host(const Matrix& matrix) {
  gathered_ =
      gather_rows_everywhere(watch_, matrix.block, matrix.global_rows(), matrix.global_cols());
  coarsest_partition_ = matrix.row_partition;
  return gathered_;
}

DistributedAmgBuild::Matrix DistributedAmgBuild::from_host(CsrMatrix<double> matrix) {
  // This process's rows of the whole matrix, by the partition of the level to_host gathered.
  const int rank = watch_.rank();
  RowBlock<double> block =
      rows_of(matrix, coarsest_partition_.first_row(rank), coarsest_partition_.end_row(rank));
  return make_level(watch_, std::move(block), coarsest_partition_, coarsest_partition_);
}

void DistributedAmgBuild::set_values(Matrix& matrix, const CsrMatrix<double>& source) {
  const int rank = watch_.rank();
  set_level_values(matrix, rows_of(source, matrix.row_partition.first_row(rank),
                                   matrix.row_partition.end_row(rank))
                               .values);
}

std::size_t DistributedAmgBuild::fine_nnz(const SpacePattern& pattern) {
  return static_cast<std::size_t>(memory_->indices(pattern.row_offsets + pattern.rows, 1).front());
}

// The solver's whole rows (own columns first, then halo slots: SplitRows::pattern) with
// global column ids again.
DistributedAmgBuild::Matrix DistributedAmgBuild::fine_level(std::vector<index_t> row_offsets,
                                                            const SpacePattern& pattern,
                                                            std::vector<double> values) {
  const int rank = watch_.rank();
  RowBlock<double> block;
  block.global_rows = fine_.partition.global_rows();
  block.first_row = fine_.partition.first_row(rank);
  block.rows = pattern.rows;
  const std::vector<index_t> columns =
      memory_->indices(pattern.columns, static_cast<std::size_t>(row_offsets.back()));
  block.columns.resize(columns.size());
  for (std::size_t k = 0; k < columns.size(); ++k) {
    const index_t column = columns[k];
    block.columns[k] = column < pattern.rows
                           ? block.first_row + column
                           : fine_.halo_columns[static_cast<std::size_t>(column - pattern.rows)];
  }
  block.row_offsets = std::move(row_offsets);
  block.values = std::move(values);
  return make_level(watch_, std::move(block), fine_.partition, fine_.partition);
}

}  // namespace spk
