#include "distributed/amg/distributed_amg_build.hpp"

#include <string>
#include <utility>

#include "distributed/host_blocks.hpp"
#include "distributed/mpi_check.hpp"
#include "solver/host_space.hpp"
#include "solver/amg/candidate_fit.hpp"
#include "solver/amg/tentative_prolongator.hpp"
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

DistributedAmgBuild::Space& DistributedAmgBuild::space() { return *space_; }

global_index_t DistributedAmgBuild::global_count(const Aggregates& aggregates) {
  const global_index_t mine = aggregates.count;
  global_index_t total = 0;
  watch_.allreduce(&mine, &total, 1, MPI_INT64_T, MPI_SUM);
  return total;
}

std::pair<std::int64_t, std::int64_t> DistributedAmgBuild::process_rows(const Matrix& matrix) {
  const std::int64_t mine[2] = {-static_cast<std::int64_t>(matrix.rows), matrix.rows};
  std::int64_t most[2] = {0, 0};
  watch_.allreduce(mine, most, 2, MPI_INT64_T, MPI_MAX);
  return {-most[0], most[1]};
}

DistributedAmgBuild::Fit DistributedAmgBuild::distributed_fit(const CsrMatrix<double>& local,
                                                              std::vector<double> coarse_candidates,
                                                              index_t coarse_rows) {
  RowPartition fine = gather_partition(watch_, local.rows);
  RowPartition coarse = gather_partition(watch_, coarse_rows);
  const int rank = watch_.rank();
  RowBlock<double> block = to_global_rows(local, fine.first_row(rank), fine.global_rows(),
                                          coarse.first_row(rank));
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
  Fit fit = distributed_fit(local.matrix, std::move(local.coarse_candidates),
                            local.matrix.cols);
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
  // Every process's rows, in rank order: counts, then the row lengths, columns and values.
  const int processes = watch_.processes();
  const MPI_Comm comm = watch_.comm();
  const RowBlock<double>& block = matrix.block;
  const global_index_t rows = matrix.global_rows();
  if (rows > 1 << 20)
    throw BadInput("amg: the coarsest level has " + std::to_string(rows) +
                   " rows, too many to gather on every process");
  std::vector<int> row_counts(static_cast<std::size_t>(processes));
  std::vector<int> entry_counts(static_cast<std::size_t>(processes));
  const int my_rows = block.rows;
  const int my_entries = block.nnz();
  watch_.allgather(&my_rows, 1, MPI_INT, row_counts.data());
  watch_.allgather(&my_entries, 1, MPI_INT, entry_counts.data());
  std::vector<int> row_starts(static_cast<std::size_t>(processes), 0);
  std::vector<int> entry_starts(static_cast<std::size_t>(processes), 0);
  long long total_entries = 0;
  for (int p = 0; p < processes; ++p) {
    const auto q = static_cast<std::size_t>(p);
    if (p > 0) {
      row_starts[q] = row_starts[q - 1] + row_counts[q - 1];
      entry_starts[q] = entry_starts[q - 1] + entry_counts[q - 1];
    }
    total_entries += entry_counts[q];
  }
  if (total_entries > (1LL << 31) - 1)
    throw BadInput("amg: the coarsest level has " + std::to_string(total_entries) +
                   " entries, too many to gather");
  std::vector<int> lengths(static_cast<std::size_t>(block.rows));
  for (index_t i = 0; i < block.rows; ++i)
    lengths[static_cast<std::size_t>(i)] = block.row_offsets[i + 1] - block.row_offsets[i];
  std::vector<int> all_lengths(static_cast<std::size_t>(rows));
  std::vector<global_index_t> columns(static_cast<std::size_t>(total_entries));
  std::vector<double> values(static_cast<std::size_t>(total_entries));
  SPK_MPI_CHECK(MPI_Allgatherv(lengths.data(), my_rows, MPI_INT, all_lengths.data(),
                               row_counts.data(), row_starts.data(), MPI_INT, comm));
  SPK_MPI_CHECK(MPI_Allgatherv(block.columns.data(), my_entries, MPI_INT64_T, columns.data(),
                               entry_counts.data(), entry_starts.data(), MPI_INT64_T, comm));
  SPK_MPI_CHECK(MPI_Allgatherv(block.values.data(), my_entries, MPI_DOUBLE, values.data(),
                               entry_counts.data(), entry_starts.data(), MPI_DOUBLE, comm));
  gathered_ = CsrMatrix<double>{};
  gathered_.rows = static_cast<index_t>(rows);
  gathered_.cols = static_cast<index_t>(matrix.global_cols());
  gathered_.row_offsets.assign(static_cast<std::size_t>(rows) + 1, 0);
  for (global_index_t i = 0; i < rows; ++i)
    gathered_.row_offsets[i + 1] = gathered_.row_offsets[i] + all_lengths[static_cast<std::size_t>(i)];
  gathered_.columns.assign(columns.begin(), columns.end());
  gathered_.values = std::move(values);
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
  return static_cast<std::size_t>(
      memory_->indices(pattern.row_offsets + pattern.rows, 1).front());
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
