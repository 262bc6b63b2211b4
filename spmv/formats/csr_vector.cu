#include <cstdint>
#include <iomanip>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "spmv/base/cuda_check.hpp"
#include "spmv/formats/block_size.hpp"
#include "spmv/formats/csr_kernel_support.cuh"
#include "spmv/formats/csr_launch_policy.hpp"
#include "spmv/formats/csr_long_rows.hpp"
#include "spmv/formats/csr_vector.hpp"
#include "spmv/formats/device_csr.hpp"
#include "spmv/formats/empty_product.hpp"
#include "spmv/formats/kernel_launch.cuh"
#include "spmv/formats/output_scale.cuh"
#include "spmv/formats/x_access.cuh"

namespace spk {

namespace {

const std::string kFormat = "csr-vector";

// Entries each lane loads before it uses any of them: keeps 4 independent value/column loads
// (and then 4 x loads) in flight per lane on long rows.
constexpr unsigned int kUnroll = 4;

template <class T, int ThreadsPerRow, class Reader>
__global__ void __launch_bounds__(max_block_size)
    csr_vector_kernel(index_t rows, const index_t* __restrict__ row_offsets,
                      const index_t* __restrict__ columns, const T* __restrict__ values, Reader x,
                      OutputScale<T> scale, T* __restrict__ y) {
  constexpr unsigned int stride = ThreadsPerRow;
  constexpr unsigned int long_row_length = csr_vector_long_row_length(ThreadsPerRow);
  const std::int64_t thread = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const unsigned int lane = threadIdx.x % stride;
  // A sub-warp never spans two rows (block_size is a multiple of 32): its lanes walk the same
  // rows of the grid-stride loop together, so the shuffle reduction sees all of them.
  for (std::int64_t row = thread / ThreadsPerRow; row < rows;
       row += grid_row_stride(ThreadsPerRow)) {
    index_t first = row_offsets[row];
    unsigned int length = static_cast<unsigned int>(row_offsets[row + 1] - first);
    if (length > long_row_length) continue;  // the long-row kernels compute this row
    unsigned int k = lane;                   // offset of this lane's next entry from `first`
    T sum = T(0);
    if constexpr (ThreadsPerRow == 32) {
      if (length > 32) {  // start the walk at a warp-aligned entry (128-byte aligned for float)
        const unsigned int shift = static_cast<unsigned int>(first) % 32u;
        first -= static_cast<index_t>(shift);
        length += shift;
        if (lane >= shift)
          sum += load_streaming(values + first + lane) *
                 x.load(load_streaming(columns + first + lane));
        k = lane + 32;
      }
    }
    const T* row_values = values + first;
    const index_t* row_columns = columns + first;
    // Unrolled by hand (kUnroll loads in flight); no further unrolling by the compiler, which
    // would only add register pressure.
#pragma unroll 1
    for (; k + (kUnroll - 1) * stride < length; k += kUnroll * stride) {
      index_t column[kUnroll];
      T value[kUnroll];
#pragma unroll
      for (unsigned int u = 0; u < kUnroll; ++u) {
        column[u] = load_streaming(row_columns + k + u * stride);
        value[u] = load_streaming(row_values + k + u * stride);
      }
#pragma unroll
      for (unsigned int u = 0; u < kUnroll; ++u) sum += value[u] * x.load(column[u]);
    }
    for (; k < length; k += stride)
      sum += load_streaming(row_values + k) * x.load(load_streaming(row_columns + k));

    sum = sub_warp_sum<ThreadsPerRow>(sum);
    if (lane == 0) scale.store(y + row, sum);
  }
}

// Long rows, pass 1: warp c computes the partial sum of chunk c (see csr_long_rows.hpp).
template <class T, class Reader>
__global__ void __launch_bounds__(max_block_size)
    csr_long_row_chunks_kernel(index_t chunks, const index_t* __restrict__ chunk_rows,
                               const index_t* __restrict__ chunk_offsets,
                               const index_t* __restrict__ long_rows,
                               const index_t* __restrict__ row_offsets,
                               const index_t* __restrict__ columns, const T* __restrict__ values,
                               Reader x, T* __restrict__ partials) {
  constexpr unsigned int stride = 32;
  const std::int64_t chunk =
      (static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  if (chunk >= chunks) return;  // the whole warp leaves together
  const unsigned int lane = threadIdx.x % 32u;
  const index_t slot = chunk_rows[chunk];
  const index_t row = long_rows[slot];
  const EntryRange range = long_row_chunk_range(row_offsets[row], row_offsets[row + 1],
                                                static_cast<index_t>(chunk) - chunk_offsets[slot]);
  const T* chunk_values = values + range.begin;
  const index_t* chunk_columns = columns + range.begin;
  const auto length = static_cast<unsigned int>(range.end - range.begin);
  T sum = T(0);
  unsigned int k = lane;
#pragma unroll 1
  for (; k + (kUnroll - 1) * stride < length; k += kUnroll * stride) {
    index_t column[kUnroll];
    T value[kUnroll];
#pragma unroll
    for (unsigned int u = 0; u < kUnroll; ++u) {
      column[u] = load_streaming(chunk_columns + k + u * stride);
      value[u] = load_streaming(chunk_values + k + u * stride);
    }
#pragma unroll
    for (unsigned int u = 0; u < kUnroll; ++u) sum += value[u] * x.load(column[u]);
  }
  for (; k < length; k += stride)
    sum += load_streaming(chunk_values + k) * x.load(load_streaming(chunk_columns + k));
  sum = sub_warp_sum<32>(sum);
  if (lane == 0) partials[chunk] = sum;
}

// Long rows, pass 2: warp i adds the partial sums of long row i in a fixed order and writes y.
template <class T>
__global__ void __launch_bounds__(max_block_size)
    csr_long_row_sums_kernel(index_t long_row_count, const index_t* __restrict__ long_rows,
                             const index_t* __restrict__ chunk_offsets,
                             const T* __restrict__ partials, OutputScale<T> scale,
                             T* __restrict__ y) {
  const std::int64_t slot = (static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  if (slot >= long_row_count) return;
  const unsigned int lane = threadIdx.x % 32u;
  T sum = T(0);
  for (index_t chunk = chunk_offsets[slot] + static_cast<index_t>(lane);
       chunk < chunk_offsets[slot + 1]; chunk += 32)
    sum += partials[chunk];
  sum = sub_warp_sum<32>(sum);
  if (lane == 0) scale.store(y + long_rows[slot], sum);
}

// The long-row split of one matrix, on the device.
struct DeviceLongRows {
  // Nothing is allocated when there are no long rows.
  explicit DeviceLongRows(const CsrLongRows& host)
      : long_row_count(static_cast<index_t>(host.rows.size())),
        chunks(host.chunks()),
        rows(host.rows, kFormat + " long rows"),
        chunk_offsets(host.rows.empty() ? std::vector<index_t>{} : host.chunk_offsets,
                      kFormat + " long-row chunk offsets"),
        chunk_rows(host.chunk_rows, kFormat + " long-row chunk rows") {}
  std::size_t device_bytes() const {
    return rows.bytes() + chunk_offsets.bytes() + chunk_rows.bytes();
  }
  index_t long_row_count;
  index_t chunks;
  DeviceBuffer<index_t> rows;
  DeviceBuffer<index_t> chunk_offsets;
  DeviceBuffer<index_t> chunk_rows;
};

template <class T, class Reader>
void launch_long_rows(const DeviceCsr<T>& matrix, const DeviceLongRows& long_rows, T* partials,
                      Reader x, OutputScale<T> scale, T* y, int block_size,
                      cudaStream_t stream) {
  if (long_rows.long_row_count == 0) return;
  csr_long_row_chunks_kernel<T>
      <<<csr_grid_blocks(long_rows.chunks, 32, block_size), block_size, 0, stream>>>(
          long_rows.chunks, long_rows.chunk_rows.data(), long_rows.chunk_offsets.data(),
          long_rows.rows.data(), matrix.row_offsets(), matrix.columns(), matrix.values(), x,
          partials);
  SPK_CHECK_LAUNCH("csr_long_row_chunks_kernel");
  csr_long_row_sums_kernel<T>
      <<<csr_grid_blocks(long_rows.long_row_count, 32, block_size), block_size, 0, stream>>>(
          long_rows.long_row_count, long_rows.rows.data(), long_rows.chunk_offsets.data(), partials,
          scale, y);
  SPK_CHECK_LAUNCH("csr_long_row_sums_kernel");
}

template <class T, int ThreadsPerRow, class Reader>
void launch_csr_vector(const DeviceCsr<T>& matrix, Reader x, OutputScale<T> scale, T* y,
                       const KernelLaunch& launch, cudaStream_t stream) {
  const unsigned int blocks =
      launch.blocks(static_cast<std::int64_t>(matrix.rows()) * ThreadsPerRow);
  csr_vector_kernel<T, ThreadsPerRow><<<blocks, launch.block_size(), 0, stream>>>(
      matrix.rows(), matrix.row_offsets(), matrix.columns(), matrix.values(), x, scale, y);
  SPK_CHECK_LAUNCH("csr_vector_kernel");
}

std::string threads_per_row_source(const SpmvOptions& options, index_t rows, index_t nnz) {
  if (options.threads_per_row != 0) return "spmv.threads_per_row";
  std::ostringstream text;
  text << "mean row length " << std::fixed << std::setprecision(2)
       << (rows == 0 ? 0.0 : static_cast<double>(nnz) / rows);
  return text.str();
}

template <class T>
class CsrVectorBackend final : public SpmvBackend<T> {
 public:
  CsrVectorBackend(const CsrMatrix<T>& matrix, const SpmvOptions& options, cudaStream_t stream)
      : SpmvBackend<T>(stream),
        launch_(options, static_cast<std::size_t>(matrix.cols), kFormat),
        threads_per_row_(csr_vector_threads_per_row(matrix.rows, matrix.nnz(),
                                                    options.threads_per_row, sizeof(T))),
        threads_per_row_source_(threads_per_row_source(options, matrix.rows, matrix.nnz())),
        matrix_(matrix, kFormat),
        long_rows_(
            find_long_rows(matrix.row_offsets, csr_vector_long_row_length(threads_per_row_))),
        partials_(static_cast<std::size_t>(long_rows_.chunks), kFormat + " long-row partial sums") {
  }

  void apply_scaled(T alpha, const T* x, T beta, T* y) const override {
    const index_t rows = matrix_.rows();
    if (rows == 0) return;
    if (matrix_.nnz() == 0) {  // y = beta y; x (possibly empty) is never read
      write_empty_product(y, rows, beta, this->stream());
      return;
    }
    const OutputScale<T> scale{alpha, beta};
    with_x_reader(launch_.x_cache(), x, static_cast<std::size_t>(matrix_.cols()), textures_,
                  launch_.texture_limits(), [&](auto reader) {
                    const cudaStream_t stream = this->stream();
                    switch (threads_per_row_) {
                      case 2: launch_csr_vector<T, 2>(matrix_, reader, scale, y, launch_, stream); break;
                      case 4: launch_csr_vector<T, 4>(matrix_, reader, scale, y, launch_, stream); break;
                      case 8: launch_csr_vector<T, 8>(matrix_, reader, scale, y, launch_, stream); break;
                      case 16: launch_csr_vector<T, 16>(matrix_, reader, scale, y, launch_, stream); break;
                      default: launch_csr_vector<T, 32>(matrix_, reader, scale, y, launch_, stream); break;
                    }
                    launch_long_rows(matrix_, long_rows_, partials_.data(), reader, scale, y,
                                     launch_.block_size(), stream);
                  });
  }

  index_t rows() const override { return matrix_.rows(); }
  index_t cols() const override { return matrix_.cols(); }
  std::string name() const override { return kFormat + "/" + to_string(launch_.x_cache()); }
  std::size_t device_bytes() const override {
    return matrix_.device_bytes() + long_rows_.device_bytes() + partials_.bytes();
  }
  // The CSR model plus the long-row split: its index arrays read once, each partial sum
  // written once and read once.
  std::size_t bytes_per_spmv() const override {
    return matrix_.bytes_per_spmv() + long_rows_.device_bytes() + 2 * partials_.bytes();
  }
  std::vector<std::pair<std::string, std::string>> details() const override {
    std::vector<std::pair<std::string, std::string>> details{
        {"threads_per_row", std::to_string(threads_per_row_)},
        {"threads_per_row_from", threads_per_row_source_},
        {"long_rows", std::to_string(long_rows_.long_row_count) + " (over " +
                          std::to_string(csr_vector_long_row_length(threads_per_row_)) +
                          " entries, " + std::to_string(long_rows_.chunks) + " chunks of " +
                          std::to_string(kCsrLongRowChunk) + ")"}};
    for (auto& detail : launch_.details()) details.push_back(detail);
    return details;
  }
  void set_launch(const SpmvOptions& options) override { launch_.set(options); }
  void update_values(const CsrMatrix<T>& matrix) override {
    matrix_.update_values(matrix, this->stream(), kFormat);
  }

 private:
  KernelLaunch launch_;
  int threads_per_row_;  // 2, 4, 8, 16 or 32
  std::string threads_per_row_source_;
  DeviceCsr<T> matrix_;
  DeviceLongRows long_rows_;
  mutable DeviceBuffer<T> partials_;  // one partial sum per long-row chunk, scratch of apply()
  mutable XTextureCache<T> textures_;
};

}  // namespace

template <class T>
std::unique_ptr<SpmvBackend<T>> make_csr_vector(const CsrMatrix<T>& matrix,
                                                const SpmvOptions& options, cudaStream_t stream) {
  return std::make_unique<CsrVectorBackend<T>>(matrix, options, stream);
}

template std::unique_ptr<SpmvBackend<float>> make_csr_vector(const CsrMatrix<float>&,
                                                             const SpmvOptions&, cudaStream_t);
template std::unique_ptr<SpmvBackend<double>> make_csr_vector(const CsrMatrix<double>&,
                                                              const SpmvOptions&, cudaStream_t);

}  // namespace spk
