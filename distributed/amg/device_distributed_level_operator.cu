#include <algorithm>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/cuda_check.hpp"
#include "core/step_trace.hpp"
#include "distributed/amg/device_column_split.hpp"
#include "distributed/amg/device_distributed_level_operator.hpp"
#include "distributed/compressed_rows_operator.hpp"
#include "distributed/device_halo_exchange.hpp"
#include "distributed/device_split_kernels.cuh"
#include "distributed/distributed_operator.hpp"
#include "distributed/halo_plan.hpp"
#include "distributed/local_halo_split.hpp"
#include "spkrylov/errors.hpp"
#include "spmv/registry.hpp"

namespace spk {

namespace {

// flags[r] = 1 for a row with entries, r < rows; flags[rows] = 0 (the scan's total).
__global__ void __launch_bounds__(kSetupBlockSize)
    non_empty_flags_kernel(index_t rows, const index_t* __restrict__ offsets,
                           index_t* __restrict__ flags) {
  for_each_index(rows + 1,
                 [&](index_t r) { flags[r] = r < rows && offsets[r + 1] > offsets[r] ? 1 : 0; });
}

struct NonEmptyHaloRows {
  index_t count = 0;
  DeviceBuffer<index_t> rows;     // their local ids, ascending
  DeviceBuffer<index_t> offsets;  // count + 1: their entries in the block's arrays
};

// The rows of `block` with entries, on the device (a flag, its scan, the compaction that the
// device split also uses). Synchronizes (the count is read back).
template <class T>
NonEmptyHaloRows non_empty_rows(const DeviceCsrMatrix<T>& block, cudaStream_t stream) {
  const index_t n = block.rows;
  DeviceBuffer<index_t> flags(static_cast<std::size_t>(n) + 1, "halo block row flags");
  DeviceBuffer<index_t> numbers(static_cast<std::size_t>(n) + 1, "halo block row numbers");
  non_empty_flags_kernel<<<setup_grid(n + 1), kSetupBlockSize, 0, stream>>>(
      n, block.row_offsets.data(), flags.data());
  SPK_CHECK_LAUNCH("non_empty_flags_kernel");
  exclusive_scan(flags.data(), numbers.data(), n, "halo block non-empty rows scan", stream);
  NonEmptyHaloRows kept;
  kept.count = download_array(numbers.data() + n, 1, stream)[0];
  kept.rows = DeviceBuffer<index_t>(static_cast<std::size_t>(kept.count), "halo block kept rows");
  kept.offsets =
      DeviceBuffer<index_t>(static_cast<std::size_t>(kept.count) + 1, "halo block kept offsets");
  compact_halo_rows_kernel<<<setup_grid(std::max<index_t>(n, 1)), kSetupBlockSize, 0, stream>>>(
      n, flags.data(), block.row_offsets.data(), numbers.data(), kept.count, block.nnz(),
      kept.rows.data(), kept.offsets.data());
  SPK_CHECK_LAUNCH("compact_halo_rows_kernel");
  SPK_CUDA_CHECK(cudaStreamSynchronize(stream));  // flags and numbers are freed on return
  return kept;
}

// The backend of device arrays in spmv's format, or csr where the format refuses them.
template <class T>
std::unique_ptr<SpmvBackend<T>> backend_or_csr(index_t rows, index_t cols, const index_t* offsets,
                                               const index_t* columns, const T* values,
                                               const SpmvOptions& spmv, cudaStream_t stream) {
  const DeviceCsr<T> matrix = describe_device_csr(rows, cols, offsets, columns, values, stream);
  try {
    return make_spmv_backend(matrix, spmv, stream);
  } catch (const BadInput&) {
    SpmvOptions fallback = spmv;
    fallback.format = Format::csr;
    return make_spmv_backend(matrix, fallback, stream);
  }
}

template <class T>
class DeviceDistributedLevelOperator final : public LevelOperator<T, DeviceDistributedLevel> {
 public:
  DeviceDistributedLevelOperator(MPI_Comm comm, const NcclCommunicator* nccl, cudaStream_t stream,
                                 FaultWatch* watch, const DeviceDistributedLevel& level,
                                 const SpmvOptions& spmv)
      : stream_(stream), cols_(level.cols) {
    // The exchange's plan first (collective), as DistributedMatrix does; then the blocks.
    StepTrace trace = StepTrace::when_enabled(
        [&] {
          return "amg level operator (" + std::to_string(level.rows) + " rows, " +
                 (std::is_same_v<T, float> ? "fp32" : "fp64") + ")";
        },
        [stream] { SPK_CUDA_CHECK(cudaStreamSynchronize(stream)); });
    HaloPlan plan = make_halo_plan(comm, halo_sources(level.halo_columns, level.column_partition),
                                   level.halo_columns, level.first_column, level.cols);
    split_ = split_columns<T>(level.whole(), level.cols, stream_);
    const DeviceCsrMatrix<T>& local = split_.local;
    const DeviceCsrMatrix<T>& halo = split_.halo;
    local_ = backend_or_csr(local.rows, local.cols, local.row_offsets.data(), local.columns.data(),
                            local.values.data(), spmv, stream_);
    trace.lap("halo plan, blocks split");
    if (halo.nnz() > 0) {
      // Mostly empty rows (a slab's boundary): the non-empty ones only, the same entries,
      // found on the device (P_0's halo block has a process's 16M fine rows).
      NonEmptyHaloRows kept = non_empty_rows(halo, stream_);
      if (2 * static_cast<std::size_t>(kept.count) < static_cast<std::size_t>(halo.rows)) {
        auto backend = backend_or_csr(kept.count, halo.cols, kept.offsets.data(),
                                      halo.columns.data(), halo.values.data(), spmv, stream_);
        halo_backend_ = backend.get();
        halo_ = std::make_unique<CompressedRowsOperator<T>>(std::move(backend),
                                                            std::move(kept.rows), halo.rows);
      } else {
        auto backend = backend_or_csr(halo.rows, halo.cols, halo.row_offsets.data(),
                                      halo.columns.data(), halo.values.data(), spmv, stream_);
        halo_backend_ = backend.get();
        halo_ = std::move(backend);
      }
    }
    trace.lap("blocks' backends");
    // The backends keep their own copies: only the blocks' offsets stay, for update_values
    // (split_values writes new values through them into arrays made for that call).
    local_entries_ = split_.local.values.size();
    halo_entries_ = split_.halo.values.size();
    SPK_CUDA_CHECK(cudaStreamSynchronize(stream_));  // the backends' builds have read them
    split_.local.columns = DeviceBuffer<index_t>();
    split_.halo.columns = DeviceBuffer<index_t>();
    split_.local.values = DeviceBuffer<T>();
    split_.halo.values = DeviceBuffer<T>();
    exchange_ = std::make_unique<DeviceHaloExchange<T>>(comm, nccl, std::move(plan), stream_,
                                                        stream_, watch);
    operator_ = std::make_unique<DistributedOperator<T>>(
        *local_, halo_ ? *halo_ : static_cast<const LinearOperator<T>&>(*local_), *exchange_,
        halo_ != nullptr);
    trace.lap("exchange");
  }

  void apply_scaled(T alpha, const T* x, T beta, T* y) const override {
    operator_->apply_scaled(alpha, x, beta, y);  // y = alpha (A_local x + A_halo x_halo) + beta y
  }
  void update_values(const DeviceDistributedLevel& level) override {
    split_.local.values = DeviceBuffer<T>(local_entries_, "level operator's new local values");
    split_.halo.values = DeviceBuffer<T>(halo_entries_, "level operator's new halo values");
    split_values(level.whole(), level.cols, split_, stream_);  // on the stream, then scattered
    if (local_entries_ > 0) local_->update_values(split_.local.values.data(), nullptr);
    if (halo_backend_ != nullptr) halo_backend_->update_values(split_.halo.values.data(), nullptr);
    for (const SpmvBackend<T>* backend : {local_.get(), halo_backend_})
      if (backend != nullptr) SPK_CUDA_CHECK(cudaStreamSynchronize(backend->stream()));
    split_.local.values = DeviceBuffer<T>();  // scattered into the backends: freed
    split_.halo.values = DeviceBuffer<T>();
  }
  index_t rows() const override { return local_->rows(); }
  index_t cols() const override { return cols_; }
  std::string name() const override { return operator_->name(); }

 private:
  cudaStream_t stream_;
  index_t cols_;
  DeviceColumnSplit<T> split_;  // the blocks' offsets, kept for update_values
  std::size_t local_entries_ = 0, halo_entries_ = 0;
  std::unique_ptr<SpmvBackend<T>> local_;
  std::unique_ptr<LinearOperator<T>> halo_;
  SpmvBackend<T>* halo_backend_ = nullptr;
  std::unique_ptr<DeviceHaloExchange<T>> exchange_;
  std::unique_ptr<DistributedOperator<T>> operator_;
};

}  // namespace

template <class T>
std::unique_ptr<LevelOperator<T, DeviceDistributedLevel>> make_device_distributed_level_operator(
    MPI_Comm comm, const NcclCommunicator* nccl, cudaStream_t stream, FaultWatch* watch,
    const DeviceDistributedLevel& level, const SpmvOptions& spmv) {
  return std::make_unique<DeviceDistributedLevelOperator<T>>(comm, nccl, stream, watch, level,
                                                             spmv);
}

LevelOperatorFactories<DeviceDistributedLevel> device_distributed_level_operator_factories(
    MPI_Comm comm, const NcclCommunicator* nccl, cudaStream_t stream, FaultWatch* watch,
    const SpmvOptions& spmv) {
  LevelOperatorFactories<DeviceDistributedLevel> factories;
  const auto with_format = [spmv](Format format) {
    SpmvOptions options = spmv;
    options.format = format;
    return options;
  };
  factories.fp64.make = [=](const DeviceDistributedLevel& level, Format format) {
    return make_device_distributed_level_operator<double>(comm, nccl, stream, watch, level,
                                                          with_format(format));
  };
  factories.fp32.make = [=](const DeviceDistributedLevel& level, Format format) {
    return make_device_distributed_level_operator<float>(comm, nccl, stream, watch, level,
                                                         with_format(format));
  };
  factories.fp64.default_format = factories.fp32.default_format = spmv.format;
  factories.fp64.formats_apply = factories.fp32.formats_apply = true;
  return factories;
}

template std::unique_ptr<LevelOperator<float, DeviceDistributedLevel>>
make_device_distributed_level_operator<float>(MPI_Comm, const NcclCommunicator*, cudaStream_t,
                                              FaultWatch*, const DeviceDistributedLevel&,
                                              const SpmvOptions&);
template std::unique_ptr<LevelOperator<double, DeviceDistributedLevel>>
make_device_distributed_level_operator<double>(MPI_Comm, const NcclCommunicator*, cudaStream_t,
                                               FaultWatch*, const DeviceDistributedLevel&,
                                               const SpmvOptions&);

}  // namespace spk
