#include "distributed/amg/device_distributed_amg_build.hpp"

#include <string>
#include <type_traits>
#include <utility>

#include "distributed/amg/device_column_split.hpp"
#include "distributed/amg/device_distributed_level_operator.hpp"
#include "distributed/amg/device_level_rows.hpp"
#include "distributed/amg/whole_rows.hpp"
#include "distributed/fault_watch.hpp"
#include "solver/amg/device_candidate_fit.hpp"
#include "solver/amg/device_nodal_aggregation.hpp"
#include "solver/amg/device_strength.hpp"
#include "solver/amg/device_tentative_prolongator.hpp"
#include "spkrylov/errors.hpp"

namespace spk {

namespace {

// A process without rows: the graph, aggregates and T of no nodes (the device pieces are not
// called with empty matrices).
DeviceStrengthGraph no_graph() {
  DeviceStrengthGraph graph;
  graph.row_offsets = DeviceBuffer<index_t>(std::vector<index_t>{0}, "strength graph offsets");
  return graph;
}

DeviceCsrMatrix<double> no_rows(index_t cols) {
  DeviceCsrMatrix<double> m;
  m.cols = cols;
  m.row_offsets = DeviceBuffer<index_t>(std::vector<index_t>{0}, "empty offsets");
  return m;
}

}  // namespace

DeviceDistributedAmgBuild::DeviceDistributedAmgBuild(FaultWatch& watch, const FineRows& fine,
                                                     cudaStream_t stream)
    : watch_(watch),
      fine_(fine),
      context_(stream),
      setup_(context_.stream()),
      space_(std::make_unique<Space>(watch, fine.partition.first_row(watch.rank()), context_)) {}

DeviceDistributedAmgBuild::~DeviceDistributedAmgBuild() = default;

DeviceBuffer<double> DeviceDistributedAmgBuild::ones(index_t n) {
  DeviceBuffer<double> x(static_cast<std::size_t>(n), "AMG candidates B_0 = ones");
  fill_on_device(x.size(), 1.0, x.data(), stream());
  return x;
}

global_index_t DeviceDistributedAmgBuild::summed(global_index_t mine) {
  global_index_t total = 0;
  watch_.allreduce(&mine, &total, 1, MPI_INT64_T, MPI_SUM);
  return total;
}

global_index_t DeviceDistributedAmgBuild::global_count(const Aggregates& aggregates) {
  return summed(aggregates.count);
}

DeviceCsrMatrix<double> DeviceDistributedAmgBuild::local_block(const Matrix& a) {
  return split_columns<double>(a.whole(), a.cols, stream()).local;
}

DeviceStrengthGraph DeviceDistributedAmgBuild::strength(const Matrix& a, double theta) {
  Graph graph;
  agreed([&] {
    if (a.rows == 0) {
      graph = no_graph();
    } else if (auto symmetric = device_symmetric_strength_graph(a.whole(), a.cols, theta, setup_)) {
      graph = std::move(*symmetric);      // from the whole rows: no copy of the block, no A^T
    } else if (a.halo_columns.empty()) {  // the whole rows are the local block (np 1): no copy
      graph = device_transposed_strength_graph(a.whole(), theta, setup_);
    } else {
      graph = device_transposed_strength_graph(local_block(a), theta, setup_);
    }
  });
  return graph;
}

DeviceStrengthGraph DeviceDistributedAmgBuild::nodal_strength(const Matrix& a, int block_size,
                                                              double theta) {
  Graph graph;
  agreed([&] {
    if (a.rows == 0)
      graph = no_graph();
    else if (a.halo_columns.empty())  // the whole rows are the local block: no copy
      graph = device_nodal_strength_graph(a.whole(), block_size, theta, setup_);
    else
      graph = device_nodal_strength_graph(local_block(a), block_size, theta, setup_);
  });
  return graph;
}

DeviceAggregates DeviceDistributedAmgBuild::aggregate(const Graph& graph, int distance) {
  Aggregates aggregates;
  agreed([&] {
    if (graph.nodes > 0) aggregates = device_aggregate_mis2(graph, setup_, distance);
  });
  return aggregates;
}

void DeviceDistributedAmgBuild::leave_out_isolated(Aggregates& aggregates, const Graph& graph) {
  agreed([&] {
    if (graph.nodes > 0) device_leave_out_isolated_nodes(aggregates, graph, setup_);
  });
  // the report's count (left_out_nodes): every process's isolated nodes
  aggregates.isolated = static_cast<index_t>(summed(aggregates.isolated));
}

DeviceDistributedLevel DeviceDistributedAmgBuild::tentative_level(
    DeviceCsrMatrix<double> local, Array<double>& coarse_candidates) {
  RowPartition fine = gather_partition(watch_, local.rows);
  RowPartition coarse = gather_partition(watch_, local.cols);
  std::vector<global_index_t> halo;
  RowPartition fewer = agglomerated_partition(coarse, fine_.agglomerate_rows);
  if (fewer.offsets != coarse.offsets) {
    const int rank = watch_.rank();
    if (fewer.rows(rank) == 0)  // given away: every column is a halo slot, in order
      for (index_t c = 0; c < local.cols; ++c) halo.push_back(coarse.first_row(rank) + c);
    else  // kept (the group's block starts at this process's first coarse row)
      local.cols = static_cast<index_t>(fewer.rows(rank));
    const std::vector<double> moved = moved_rows(
        watch_, download_array(coarse_candidates.data(), coarse_candidates.size(), stream()),
        coarse, fewer);
    coarse_candidates = Array<double>(moved, "AMG coarse candidates (agglomerated)");
    coarse = std::move(fewer);
  }
  return make_device_level(watch_, std::move(fine), std::move(coarse), std::move(halo),
                           std::move(local));
}

DeviceDistributedAmgBuild::Fit DeviceDistributedAmgBuild::tentative(
    const Aggregates& aggregates, const Array<double>& candidates) {
  DeviceTentativeProlongator local;
  agreed([&] {
    if (aggregates.aggregate_of.size() > 0)
      local = device_tentative_prolongator(aggregates, candidates, setup_);
    else
      local.matrix = no_rows(0);
  });
  Fit fit;
  fit.matrix = tentative_level(std::move(local.matrix), local.coarse_candidates);
  fit.coarse_candidates = std::move(local.coarse_candidates);
  return fit;
}

DeviceDistributedAmgBuild::Fit DeviceDistributedAmgBuild::fit(const Aggregates& aggregates,
                                                              int block_size,
                                                              const Array<double>& candidates,
                                                              int count) {
  DeviceCandidateFit local;
  agreed([&] {
    if (aggregates.aggregate_of.size() > 0)
      local = device_fit_candidates(aggregates, block_size, candidates, count, setup_);
    else
      local.matrix = no_rows(0);
  });
  Fit fit;
  fit.matrix = tentative_level(std::move(local.matrix), local.coarse_candidates);
  fit.coarse_candidates = std::move(local.coarse_candidates);
  // the report's count: every process's completed columns
  fit.dependent_columns = static_cast<index_t>(summed(local.dependent_columns));
  return fit;
}

std::unique_ptr<DeviceDistributedProlongator> DeviceDistributedAmgBuild::prolongator(
    const Matrix& a, Matrix tentative, double weight) {
  return std::make_unique<Prolongator>(watch_, a, std::move(tentative), weight, setup_, fine_.nccl);
}

std::unique_ptr<DeviceDistributedCoarseProduct> DeviceDistributedAmgBuild::galerkin(
    const Matrix& a, const Matrix& p, Matrix& coarse) {
  return std::make_unique<Galerkin>(watch_, a, p, coarse, setup_, keep_resetup_state_, fine_.nccl);
}

namespace {

// A kept product, lent to one Lanczos estimate.
class LentOperator final : public LinearOperator<double> {
 public:
  explicit LentOperator(const LinearOperator<double>& kept) : kept_(kept) {}
  void apply_scaled(double alpha, const double* x, double beta, double* y) const override {
    kept_.apply_scaled(alpha, x, beta, y);
  }
  index_t rows() const override { return kept_.rows(); }
  index_t cols() const override { return kept_.cols(); }
  std::string name() const override { return kept_.name(); }

 private:
  const LinearOperator<double>& kept_;
};

}  // namespace

std::unique_ptr<LinearOperator<double>> DeviceDistributedAmgBuild::spmv_operator(const Matrix& a) {
  space_->set_first_global_index(a.first_row);
  // The finest level (no coarse level has its global rows: coarsening stops unless it cuts
  // the rows by a tenth) is the solver's lent operator, which holds its values already (the
  // solver updates its blocks before the preconditioner's re-setup).
  if (fine_operator_ != nullptr && a.global_rows() == fine_.partition.global_rows()) {
    agreed([&] {
      if (fine_operator_->rows() != a.rows)
        throw Error("amg setup: the solver's operator has " +
                    std::to_string(fine_operator_->rows()) + " rows, the finest level " +
                    std::to_string(a.rows) + " (internal error)");
    });
    return std::make_unique<LentOperator>(*fine_operator_);
  }
  auto kept = estimate_operators_.find(&a);  // the same on every process: the same levels
  if (kept == estimate_operators_.end()) {
    SpmvOptions csr;
    csr.format = Format::csr;
    kept = estimate_operators_
               .emplace(&a, make_device_distributed_level_operator<double>(
                                watch_.comm(), nullptr, stream(), &watch_, a, csr))
               .first;
  } else {
    agreed([&] {
      if (kept->second->rows() != a.rows)
        throw Error("amg re-setup: level of " + std::to_string(a.rows) + " rows, its product " +
                    std::to_string(kept->second->rows()) + " (internal error)");
      kept->second->update_values(a);  // same pattern (a re-setup), new values
    });
  }
  return std::make_unique<LentOperator>(*kept->second);
}

const CsrMatrix<double>& DeviceDistributedAmgBuild::to_host(const Matrix& matrix) {
  RowBlock<double> mine;
  agreed([&] {
    const CsrMatrix<double> rows = download_row_range(matrix.whole(), 0, matrix.rows, stream());
    mine = global_rows_of(rows, matrix.first_row, matrix.global_rows(), matrix.first_column,
                          matrix.cols, matrix.halo_columns);
  });
  gathered_ = gather_rows_everywhere(watch_, mine, matrix.global_rows(), matrix.global_cols());
  coarsest_partition_ = matrix.row_partition;
  return gathered_;
}

DeviceDistributedLevel DeviceDistributedAmgBuild::from_host(CsrMatrix<double> matrix) {
  // This process's rows of the whole matrix, by the partition of the level to_host gathered.
  const int rank = watch_.rank();
  const RowPartition& rows = coarsest_partition_;
  DeviceCsrMatrix<double> mine;
  std::vector<global_index_t> halo;
  agreed([&] {
    WholeRows whole = whole_rows(rows_of(matrix, rows.first_row(rank), rows.end_row(rank)),
                                 rows.first_row(rank), static_cast<index_t>(rows.rows(rank)));
    inverse_order_ = std::move(whole.order);
    halo = std::move(whole.halo_columns);
    synchronize();
    mine = to_device(whole.matrix, "AMG coarsest inverse (this process's rows)");
  });
  return make_device_level(watch_, rows, rows, std::move(halo), std::move(mine));
}

void DeviceDistributedAmgBuild::set_values(Matrix& matrix, const CsrMatrix<double>& source) {
  const int rank = watch_.rank();
  agreed([&] {
    const RowBlock<double> block =
        rows_of(source, matrix.row_partition.first_row(rank), matrix.row_partition.end_row(rank));
    if (block.values.size() != inverse_order_.size() ||
        matrix.owned.values.size() != inverse_order_.size())
      throw Error("amg: new values of the coarsest inverse do not fit its rows (internal error)");
    std::vector<double> values(inverse_order_.size());  // in the whole form's order
    for (std::size_t k = 0; k < values.size(); ++k)
      values[k] = block.values[static_cast<std::size_t>(inverse_order_[k])];
    synchronize();  // the arrays may still be read by work queued on the stream
    if (!values.empty())
      SPK_CUDA_CHECK(cudaMemcpyAsync(matrix.owned.values.data(), values.data(),
                                     values.size() * sizeof(double), cudaMemcpyHostToDevice,
                                     stream()));
    synchronize();
  });
}

template <class T>
DeviceDistributedLevel DeviceDistributedAmgBuild::fine_matrix(const SpacePattern& pattern,
                                                              const T* values) {
  DeviceCsrMatrix<double> whole;
  agreed([&] {
    whole.rows = pattern.rows;
    whole.cols = pattern.cols;
    const std::size_t offsets = static_cast<std::size_t>(pattern.rows) + 1;
    whole.row_offsets =
        copy_device_array(pattern.row_offsets, offsets, "AMG A_0 offsets", stream());
    const index_t nnz = download_array(pattern.row_offsets + pattern.rows, 1, stream())[0];
    whole.columns = copy_device_array(pattern.columns, static_cast<std::size_t>(nnz),
                                      "AMG A_0 columns", stream());
    DeviceBuffer<double>* const adoptable = fine_.adoptable_values;
    if (std::is_same_v<T, double> && adoptable != nullptr &&
        static_cast<const void*>(adoptable->data()) == static_cast<const void*>(values) &&
        adoptable->size() == static_cast<std::size_t>(nnz)) {
      whole.values = std::move(*adoptable);  // the solver's array, taken rather than copied
    } else {
      whole.values = DeviceBuffer<double>(static_cast<std::size_t>(nnz), "AMG A_0 values");
      scale_on_device(whole.values.size(), 1.0, values, whole.values.data(), stream());
    }
    // own columns first, then the halo slots; new values come from the solver's arrays
    // (set_fine_values), so the raw arrays are not kept
    fine_order_.arrange(whole, stream(), false);
    name_device_arrays(whole, "AMG A_0");  // the solver's values taken, or the sorted copies
  });
  return make_device_level(watch_, fine_.partition, fine_.partition, fine_.halo_columns,
                           std::move(whole));
}

template <class T>
void DeviceDistributedAmgBuild::set_fine_values(Matrix& fine, const T* values) {
  // a_ij in double, from the solver's order (into the sorted order where rows were sorted here)
  if (fine_order_.active())
    fine_order_.gather_from(values, fine.owned, stream());
  else
    scale_on_device(fine.owned.values.size(), 1.0, values, fine.owned.values.data(), stream());
}

template DeviceDistributedLevel DeviceDistributedAmgBuild::fine_matrix(const SpacePattern&,
                                                                       const float*);
template DeviceDistributedLevel DeviceDistributedAmgBuild::fine_matrix(const SpacePattern&,
                                                                       const double*);
template void DeviceDistributedAmgBuild::set_fine_values(Matrix&, const float*);
template void DeviceDistributedAmgBuild::set_fine_values(Matrix&, const double*);

}  // namespace spk
