#include <string>
#include <utility>
#include <vector>

#include "core/cuda_check.hpp"
#include "distributed/amg/device_column_split.hpp"
#include "distributed/amg/device_distributed_level_operator.hpp"
#include "distributed/compressed_rows_operator.hpp"
#include "distributed/device_halo_exchange.hpp"
#include "distributed/distributed_operator.hpp"
#include "distributed/halo_plan.hpp"
#include "distributed/local_halo_split.hpp"
#include "spkrylov/errors.hpp"
#include "spmv/registry.hpp"

namespace spk {

namespace {

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
    HaloPlan plan = make_halo_plan(comm, halo_sources(level.halo_columns, level.column_partition),
                                   level.halo_columns, level.first_column, level.cols);
    split_ = split_columns<T>(level.whole(), level.cols, stream_);
    const DeviceCsrMatrix<T>& local = split_.local;
    const DeviceCsrMatrix<T>& halo = split_.halo;
    local_ = backend_or_csr(local.rows, local.cols, local.row_offsets.data(), local.columns.data(),
                            local.values.data(), spmv, stream_);
    if (halo.nnz() > 0) {
      // Mostly empty rows (a slab's boundary): the non-empty ones only, the same entries.
      const std::vector<index_t> offsets =
          download_array(halo.row_offsets.data(), halo.row_offsets.size(), stream_);
      std::vector<index_t> kept_rows, kept_offsets{0};
      for (index_t row = 0; row < halo.rows; ++row)
        if (offsets[row + 1] > offsets[row]) {
          kept_rows.push_back(row);
          kept_offsets.push_back(offsets[row + 1]);
        }
      if (2 * kept_rows.size() < static_cast<std::size_t>(halo.rows)) {
        const DeviceBuffer<index_t> compressed(kept_offsets, "halo block non-empty row offsets");
        auto backend =
            backend_or_csr(static_cast<index_t>(kept_rows.size()), halo.cols, compressed.data(),
                           halo.columns.data(), halo.values.data(), spmv, stream_);
        halo_backend_ = backend.get();
        halo_ =
            std::make_unique<CompressedRowsOperator<T>>(std::move(backend), kept_rows, halo.rows);
      } else {
        auto backend = backend_or_csr(halo.rows, halo.cols, halo.row_offsets.data(),
                                      halo.columns.data(), halo.values.data(), spmv, stream_);
        halo_backend_ = backend.get();
        halo_ = std::move(backend);
      }
    }
    // The backends keep their own copies: only the blocks' offsets and values stay, for
    // update_values (split_values writes the values through the offsets).
    split_.local.columns = DeviceBuffer<index_t>();
    split_.halo.columns = DeviceBuffer<index_t>();
    exchange_ = std::make_unique<DeviceHaloExchange<T>>(comm, nccl, std::move(plan), stream_,
                                                        stream_, watch);
    operator_ = std::make_unique<DistributedOperator<T>>(
        *local_, halo_ ? *halo_ : static_cast<const LinearOperator<T>&>(*local_), *exchange_,
        halo_ != nullptr);
  }

  void apply_scaled(T alpha, const T* x, T beta, T* y) const override {
    operator_->apply_scaled(alpha, x, beta, y);  // y = alpha (A_local x + A_halo x_halo) + beta y
  }
  void update_values(const DeviceDistributedLevel& level) override {
    split_values(level.whole(), level.cols, split_, stream_);  // on the stream, then scattered
    if (split_.local.values.size() > 0) local_->update_values(split_.local.values.data(), nullptr);
    if (halo_backend_ != nullptr) halo_backend_->update_values(split_.halo.values.data(), nullptr);
  }
  index_t rows() const override { return local_->rows(); }
  index_t cols() const override { return cols_; }
  std::string name() const override { return operator_->name(); }

 private:
  cudaStream_t stream_;
  index_t cols_;
  DeviceColumnSplit<T> split_;  // the blocks' values, kept for update_values
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
