// csr-vector (also registered as "csr"): CSR with a sub-warp of 2, 4, 8, 16 or 32 threads per
// row, reduced with warp shuffles.
//
// Layout: plain CSR, copied unchanged on the device: row_offsets and columns (copy_pattern),
// values in CSR order (held by HandWrittenBackend; update_values copies them in place, no slot
// map).
// Thread mapping: lanes [g*w, g*w + w) of a warp (w = threads per row) compute one row: lane
// j reads entries j, j+w, j+2w, ... of the row, so a sub-warp reads a contiguous run of
// values and column indices (coalesced), several runs in flight per lane (unrolled by 4,
// sub_warp_row_dot in csr_kernel_support.cuh);
// the w partial sums are reduced with __shfl_down_sync over the sub-warp and its first lane
// writes y. With w = 32 and a row longer than 32 entries the walk starts at the row's first
// entry rounded down to a multiple of 32 (lanes before the row start sit out the first step),
// so every later warp load is 128-byte aligned (CUSP's aligned start).
// Grid: exact, ceil(rows * w / block_size) blocks, one sub-warp per row and no grid-stride
// loop: each block does a fixed amount of work and the hardware block scheduler balances rows
// of unequal length, which Baskaran & Bordawekar found better than a fixed grid with a loop.
// w comes from spmv.threads_per_row or from the mean row length (csr_launch_policy.hpp) and is
// reported in details(). x is read through spmv.x_cache (none | ldg | texture | shared).
// x_cache: shared (Mazzucchi, "Advanced CUDA Strategies to Parallelize SpMV", Algorithm 4:
// warp-per-row SpMV with shared-memory tiling; shared_x_tile.cuh): a separate row kernel,
// csr_vector_shared_x_kernel, where each warp takes its 32 / w rows together, finds the span from
// their smallest first column to their largest last column (warp shuffles), copies x over that span
// into its own tile of shared memory with coalesced __ldg loads when the span holds at most 1024
// values (the paper's 8 KB tile of doubles; fewer when the block's warps would not fit the device's
// shared memory, reported as x_tile in details()), and reads x from the tile; rows whose span is
// wider read x through __ldg, as does any entry outside the tile (CSR columns of device
// arrays need not be sorted). The long-row passes read x through __ldg.
// Long rows: a row of more than 32 w entries is left out by the row kernel and computed by
// two more kernels (only launched when such rows exist, long_row_kernels.cuh, shared with
// sell): whole warps compute chunks of 1024 entries of it into partial sums, then one warp per
// long row adds its partials in a fixed order and writes y (csr_long_rows.hpp). A power-law row of
// 10^5 entries thus spreads over ~100 warps instead of holding one sub-warp for the whole kernel.
// The number of long rows and chunks is reported in details(). The split is found on the device
// (csr_long_rows_build.hpp; the host's find_long_rows is its CPU reference).
// Byte model: the CSR model (device_csr.hpp) plus, with long rows, the split's index arrays
// (read once) and the partial sums (written once, read once).
//
// Sources: Bell & Garland, "Efficient sparse matrix-vector multiplication on CUDA" (NVIDIA
// NVR-2008-004), CSR-vector kernel; the sub-warp width choice follows seeds/
// autotuning-spmv-cuda-parameters.txt (16 or 32 threads per row) extended to 2..32.
#include <cstdint>
#include <iomanip>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "spmv/formats/csr_bytes.hpp"
#include "spmv/formats/csr_kernel_support.cuh"
#include "spmv/formats/csr_launch_policy.hpp"
#include "spmv/formats/csr_long_rows_build.hpp"
#include "spmv/formats/hand_written_backend.cuh"
#include "spmv/formats/long_row_kernels.cuh"
#include "spmv/formats/shared_x_tile.cuh"

namespace spk {

namespace {

// This lane's share of the dot product of the row of `length` entries from `first` with x
// (the caller reduces over the sub-warp). With w = 32 and a row longer than 32 entries the walk
// starts at the row's first entry rounded down to a multiple of 32 (128-byte aligned for
// float): lanes before the row start sit out the first step.
template <int ThreadsPerRow, class Value, class Reader, class T = typename Reader::value_type>
__device__ __forceinline__ T csr_vector_lane_sum(const Value* __restrict__ values,
                                                 const index_t* __restrict__ columns, index_t first,
                                                 unsigned int length, unsigned int lane,
                                                 const Reader& x) {
  unsigned int start = lane;  // offset of this lane's first entry from `first`
  T sum = T(0);
  if constexpr (ThreadsPerRow == 32) {
    if (length > 32) {
      const unsigned int shift = static_cast<unsigned int>(first) % 32u;
      first -= static_cast<index_t>(shift);
      length += shift;
      if (lane >= shift)
        sum += static_cast<T>(load_streaming(values + first + lane)) *
               x.load(load_streaming(columns + first + lane));
      start = lane + 32;
    }
  }
  return sub_warp_row_dot<ThreadsPerRow>(values, columns, first, length, start, x, sum);
}

// Matrix values of type Value, products and sums in the vector type T (as every kernel here).
template <int ThreadsPerRow, class Value, class T, class Reader, class Output>
__global__ void __launch_bounds__(max_block_size)
    csr_vector_kernel(index_t rows, const index_t* __restrict__ row_offsets,
                      const index_t* __restrict__ columns, const Value* __restrict__ values,
                      Reader x, Output output, T* __restrict__ y) {
  constexpr unsigned int long_row_length = csr_vector_long_row_length(ThreadsPerRow);
  const std::int64_t thread = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const unsigned int lane = threadIdx.x % static_cast<unsigned int>(ThreadsPerRow);
  // A sub-warp never spans two rows (block_size is a multiple of 32): its lanes walk the same
  // rows of the grid-stride loop together, so the shuffle reduction sees all of them.
  for (std::int64_t row = thread / ThreadsPerRow; row < rows;
       row += grid_row_stride(ThreadsPerRow)) {
    const index_t first = row_offsets[row];
    const auto length = static_cast<unsigned int>(row_offsets[row + 1] - first);
    if (length > long_row_length) continue;  // the long-row kernels compute this row
    T sum = csr_vector_lane_sum<ThreadsPerRow>(values, columns, first, length, lane, x);
    sum = sub_warp_sum<ThreadsPerRow>(sum);
    if (lane == 0) output.store(y + row, sum);
  }
}

// x_cache: shared (shared_x_tile.cuh). The warp is the unit: its 32 / w sub-warps take 32 / w
// consecutive rows together (the grid-stride loop moves whole warps, so every lane reaches the
// warp-wide shuffles and __syncwarp), the warp stages the span of x from the smallest first
// column to the largest last column of those rows in its tile of `tile_capacity` values when
// it fits (else reads x through __ldg), then each sub-warp computes its row as
// csr_vector_kernel does. Long rows (> 32 w entries) are skipped and left out of the span, as
// the long-row kernels compute them. Dynamic shared memory: tile_capacity values per warp.
template <int ThreadsPerRow, class Value, class T, class Output>
__global__ void __launch_bounds__(max_block_size)
    csr_vector_shared_x_kernel(index_t rows, const index_t* __restrict__ row_offsets,
                               const index_t* __restrict__ columns,
                               const Value* __restrict__ values, const T* __restrict__ x,
                               unsigned int tile_capacity, Output output, T* __restrict__ y) {
  extern __shared__ __align__(16) unsigned char shared_x_bytes[];
  constexpr unsigned int long_row_length = csr_vector_long_row_length(ThreadsPerRow);
  constexpr std::int64_t rows_per_warp = 32 / ThreadsPerRow;
  T* const tile = reinterpret_cast<T*>(shared_x_bytes) + (threadIdx.x / 32u) * tile_capacity;
  const std::int64_t warp = (static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const std::int64_t warps = static_cast<std::int64_t>(gridDim.x) * blockDim.x / 32;
  const unsigned int lane = threadIdx.x % static_cast<unsigned int>(ThreadsPerRow);
  const unsigned int sub_warp = (threadIdx.x % 32u) / static_cast<unsigned int>(ThreadsPerRow);
  for (std::int64_t warp_row = warp * rows_per_warp; warp_row < rows;
       warp_row += warps * rows_per_warp) {
    const std::int64_t row = warp_row + sub_warp;
    index_t first = 0;
    unsigned int length = 0;
    bool computed = false;  // this sub-warp has a row, and not a long one
    ColumnSpan span = no_columns();
    if (row < rows) {
      first = row_offsets[row];
      length = static_cast<unsigned int>(row_offsets[row + 1] - first);
      computed = length <= long_row_length;
      if (!computed) length = 0;
      if (length > 0)
        span = ColumnSpan{__ldg(columns + first), __ldg(columns + first + length - 1)};
    }
    span = warp_column_span(span.first, span.last);
    const SharedTileXReader<T> tiled_x = stage_x_tile(tile, tile_capacity, x, span);
    T sum = csr_vector_lane_sum<ThreadsPerRow>(values, columns, first, length, lane, tiled_x);
    sum = sub_warp_sum<ThreadsPerRow>(sum);
    if (computed && lane == 0) output.store(y + row, sum);
  }
}

// The current device's shared memory per block with the opt-in attribute (227 KB on an H100).
std::size_t device_shared_bytes_per_block() {
  int device = 0, bytes = 0;
  SPK_CUDA_CHECK(cudaGetDevice(&device));
  SPK_CUDA_CHECK(cudaDeviceGetAttribute(&bytes, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  return static_cast<std::size_t>(bytes);
}

std::string threads_per_row_source(const SpmvOptions& options, index_t rows, index_t nnz) {
  if (options.threads_per_row != 0) return "spmv.threads_per_row";
  std::ostringstream text;
  text << "mean row length " << std::fixed << std::setprecision(2)
       << (rows == 0 ? 0.0 : static_cast<double>(nnz) / rows);
  return text.str();
}

template <class T, class Value = T>
class CsrVector final : public HandWrittenBackend<T, Value, CsrVector<T, Value>> {
 public:
  CsrVector(const DeviceCsr<Value>& matrix, const SpmvOptions& options, cudaStream_t stream)
      : HandWrittenBackend<T, Value, CsrVector<T, Value>>(
            Format::csr_vector, matrix, options, stream,
            DeviceValues<Value>(matrix.values, matrix.nnz, "csr-vector values", stream)),
        threads_per_row_(csr_vector_threads_per_row(matrix.rows, matrix.nnz,
                                                    options.threads_per_row, sizeof(Value))),
        threads_per_row_source_(threads_per_row_source(options, matrix.rows, matrix.nnz)),
        shared_bytes_per_block_(device_shared_bytes_per_block()),
        pattern_(copy_pattern(matrix, to_string(Format::csr_vector), stream)),
        long_rows_(matrix, csr_vector_long_row_length(threads_per_row_), stream),
        partials_(static_cast<std::size_t>(long_rows_.chunks), "csr-vector long-row partial sums") {
    // At setup, not in the first apply (which a solver may be capturing into a CUDA graph);
    // a later set_launch to shared does it at its first apply.
    if (options.x_cache == XCache::shared)
      with_threads_per_row(threads_per_row_,
                           [&](auto width) { allow_shared_x_tiles<decltype(width)::value>(); });
  }

  // The row kernel at the compiled width, then (when there are long rows) their two passes.
  template <class Reader, class Output>
  void multiply(Reader x, Output output, T* y) const {
    const KernelLaunch& launch = this->launch();
    const cudaStream_t stream = this->stream();
    const index_t rows = this->rows();
    with_threads_per_row(threads_per_row_, [&](auto width) {
      constexpr int threads_per_row = decltype(width)::value;
      const unsigned int blocks = launch.blocks(static_cast<std::int64_t>(rows) * threads_per_row);
      if constexpr (std::is_same_v<Reader, XReader<T, XCache::shared>>) {
        allow_shared_x_tiles<threads_per_row>();
        const unsigned int capacity = tile_capacity();
        const std::size_t shared_bytes =
            static_cast<std::size_t>(launch.block_size() / 32) * capacity * sizeof(T);
        csr_vector_shared_x_kernel<threads_per_row>
            <<<blocks, launch.block_size(), shared_bytes, stream>>>(
                rows, pattern_.row_offsets.data(), pattern_.columns.data(), this->values(), x.x,
                capacity, output, y);
        SPK_CHECK_LAUNCH("csr_vector_shared_x_kernel");
      } else {
        csr_vector_kernel<threads_per_row><<<blocks, launch.block_size(), 0, stream>>>(
            rows, pattern_.row_offsets.data(), pattern_.columns.data(), this->values(), x, output,
            y);
        SPK_CHECK_LAUNCH("csr_vector_kernel");
      }
    });
    launch_long_row_passes(long_rows_,
                           CsrStoredRange{long_rows_.rows.data(), pattern_.row_offsets.data()},
                           pattern_.columns.data(), this->values(), x, partials_.data(), output, y,
                           launch.block_size(), stream);
  }

  std::size_t device_bytes() const override {
    return pattern_.device_bytes() + this->values_device_bytes() + long_rows_.device_bytes() +
           partials_.bytes();
  }
  // The CSR model plus the long-row split: its index arrays read once, each partial sum
  // written once and read once.
  std::size_t bytes_per_spmv() const override {
    return csr_bytes_per_spmv(pattern_.rows, pattern_.cols,
                              static_cast<std::size_t>(pattern_.nnz()), sizeof(Value), sizeof(T)) +
           long_rows_.device_bytes() + 2 * partials_.bytes();
  }

 private:
  typename HandWrittenBackend<T, Value, CsrVector<T, Value>>::Details format_details()
      const override {
    typename HandWrittenBackend<T, Value, CsrVector<T, Value>>::Details details = {
        {"threads_per_row", std::to_string(threads_per_row_)},
        {"threads_per_row_from", threads_per_row_source_},
        {"long_rows", std::to_string(long_rows_.long_row_count) + " (over " +
                          std::to_string(csr_vector_long_row_length(threads_per_row_)) +
                          " entries, " + std::to_string(long_rows_.chunks) + " chunks of " +
                          std::to_string(kCsrLongRowChunk) + ")"}};
    if (this->launch().x_cache() == XCache::shared)
      details.push_back({"x_tile", std::to_string(tile_capacity()) + " values per warp"});
    return details;
  }

  // x_cache: shared. Values of x each warp's tile holds at the current block size.
  unsigned int tile_capacity() const {
    return shared_x_tile_capacity(this->launch().block_size() / 32, sizeof(T),
                                  shared_bytes_per_block_);
  }

  // Lets both instantiations of the shared-x kernel at this width take up to the device's
  // opt-in shared memory per block (more than the default 48 KB: 8 warps of 1024 doubles need
  // 64 KB). Set to the device's limit, not to one launch's need, so that backends with other
  // block sizes never lower it under each other; done once per backend (at construction with
  // x_cache: shared, else at the first shared apply).
  template <int ThreadsPerRow>
  void allow_shared_x_tiles() const {
    if (shared_x_kernels_ready_) return;
    const int bytes = static_cast<int>(shared_bytes_per_block_);
    SPK_CUDA_CHECK(
        cudaFuncSetAttribute(csr_vector_shared_x_kernel<ThreadsPerRow, Value, T, PlainOutput>,
                             cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
    SPK_CUDA_CHECK(
        cudaFuncSetAttribute(csr_vector_shared_x_kernel<ThreadsPerRow, Value, T, OutputScale<T>>,
                             cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
    shared_x_kernels_ready_ = true;
  }

  int threads_per_row_;  // 2, 4, 8, 16 or 32
  std::string threads_per_row_source_;
  std::size_t shared_bytes_per_block_;           // the device's opt-in limit (x_cache: shared)
  mutable bool shared_x_kernels_ready_ = false;  // allow_shared_x_tiles has run
  DeviceCsrMatrix<Value> pattern_;  // row offsets and columns (values: the base's slots)
  DeviceLongRows long_rows_;
  mutable DeviceBuffer<T> partials_;  // one partial sum per long-row chunk, scratch of apply()
};

}  // namespace

SPK_FORMAT_BACKEND(Format::csr_vector, CsrVector);

}  // namespace spk
