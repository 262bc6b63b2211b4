#include "distributed/device_level_blocks.hpp"

#include <memory>
#include <utility>
#include <vector>

#include "core/device_buffer.hpp"
#include "distributed/compressed_rows_operator.hpp"
#include "distributed/device_halo_exchange.hpp"
#include "spkrylov/errors.hpp"
#include "spmv/registry.hpp"

namespace spk {

namespace {

// The backend of `block` in spmv's format, or csr where the format refuses it.
template <class T>
std::unique_ptr<SpmvBackend<T>> backend_or_csr(const CsrMatrix<T>& block, const SpmvOptions& spmv,
                                               cudaStream_t stream) {
  try {
    return make_spmv_backend(block, spmv, stream);
  } catch (const BadInput&) {
    SpmvOptions fallback = spmv;
    fallback.format = Format::csr;
    return make_spmv_backend(block, fallback, stream);
  }
}

// Writes new values into a backend, through a device buffer kept for the next time.
template <class T>
struct ValueRefresh {
  SpmvBackend<T>* backend = nullptr;
  std::shared_ptr<DeviceBuffer<T>> staged = std::make_shared<DeviceBuffer<T>>();

  void operator()(const std::vector<T>& values) const {
    if (backend == nullptr || values.empty()) return;
    if (staged->size() != values.size())
      *staged = DeviceBuffer<T>(values.size(), "AMG level values (update_values)");
    SPK_CUDA_CHECK(cudaStreamSynchronize(backend->stream()));  // the last update has read it
    staged->copy_from_host(values);
    backend->update_values(staged->data(), nullptr);
  }
};

}  // namespace

template <class T>
BlockBuilder<T> device_level_blocks(MPI_Comm comm, const NcclCommunicator* nccl,
                                    cudaStream_t stream, FaultWatch* watch,
                                    const SpmvOptions& spmv) {
  return [comm, nccl, stream, watch, spmv](const SplitRows<T>& split, HaloPlan plan) {
    DistributedBlocks<T> blocks;
    auto local = backend_or_csr(split.local, spmv, stream);
    ValueRefresh<T> local_refresh{local.get()};
    ValueRefresh<T> halo_refresh;
    blocks.local = std::move(local);
    if (split.halo.nnz() > 0) {
      NonEmptyRows<T> kept = drop_empty_rows(split.halo);
      if (2 * static_cast<std::size_t>(kept.matrix.rows) <
          static_cast<std::size_t>(split.halo.rows)) {
        auto compressed = std::make_unique<CompressedRowsOperator<T>>(
            backend_or_csr(kept.matrix, spmv, stream), kept.rows, split.halo.rows);
        halo_refresh.backend = &compressed->backend();
        blocks.halo = std::move(compressed);
      } else {
        auto whole = backend_or_csr(split.halo, spmv, stream);
        halo_refresh.backend = whole.get();
        blocks.halo = std::move(whole);
      }
    }
    blocks.exchange =
        std::make_unique<DeviceHaloExchange<T>>(comm, nccl, std::move(plan), stream, stream, watch);
    blocks.refresh_values = [local_refresh, halo_refresh](const SplitRows<T>& rows) {
      local_refresh(rows.local.values);
      halo_refresh(rows.halo.values);
    };
    return blocks;
  };
}

template BlockBuilder<float> device_level_blocks<float>(MPI_Comm, const NcclCommunicator*,
                                                        cudaStream_t, FaultWatch*,
                                                        const SpmvOptions&);
template BlockBuilder<double> device_level_blocks<double>(MPI_Comm, const NcclCommunicator*,
                                                          cudaStream_t, FaultWatch*,
                                                          const SpmvOptions&);

}  // namespace spk
