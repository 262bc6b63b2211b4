// `sell`: SELL-C-sigma (Kreutzer, Hager, Wellein, Fehske & Bishop, SIAM J. Sci. Comput.
// 36(5), 2014) with C = 32: ELLPACK-R's idea made robust to skewed rows, plus csr-vector's
// long-row path for the rows one thread would serialise. Layout, sorting rule and the long-row
// rule (max(256, 32 ceil(nnz / rows)) entries): sell_layout.hpp (to_sell is the CPU
// reference), built on the device by build_sell (sell_build.hpp); sigma from spmv.sell_sigma
// (default 1024).
//
// Thread mapping: one thread per position (a warp per chunk); thread p reads row_lengths[p],
// walks its first row_lengths[p] slots at stride 32 from sell_slot(chunk_offsets[p / 32], 0,
// p) (a warp's loads of one step are 32 consecutive values and columns: coalesced; the padding
// is never read), four slots in flight (ell_kernels::row_dot), and writes y[permutation[p]].
// A warp takes as long as its chunk's longest row, and sorting within windows makes the
// chunk's rows alike. Positions flagged -1 (the last chunk's tail, the long rows) write
// nothing. x is read through spmv.x_cache (none | ldg | texture).
// Long rows (only launched when there are some): the two passes of long_row_kernels.cuh, as in
// csr-vector: a warp per chunk of 1024 entries of the tail writes a partial sum, then a warp per
// long row adds its partial sums in a fixed order (no atomics) and writes its y, the only
// writer of it. A power-law row of 10^4 entries thus spreads over ~10 warps instead of holding
// one thread (and its chunk's warp) for the whole kernel. Reported in details() as long_rows.
// sell folds no dots (apply_dots returns false): a long row's y is known only after the row
// kernel.
//
// bytes_per_spmv = nnz (sizeof(Value) + 4)      values and columns actually read (the tail too)
//                + positions * 8                  row_lengths and permutation
//                + chunks * 8                     chunk offsets
//                + cols * sizeof(T) + rows * sizeof(T)   x read once, y written once
//                + the long-row split's arrays and starts (read once) and the partial sums
//                  (written once, read once).
// device_bytes   = slots (sizeof(Value) + 4) (the chunks' and the tail's) + positions * 8 +
//                  (chunks + 1) * 8 + nnz * 4 (the update_values slot map) + the long-row
//                  split, its starts and the partial sums.
#include <string>
#include <utility>

#include "core/device.hpp"
#include "spmv/formats/detail_text.hpp"
#include "spmv/formats/ell_kernels.cuh"
#include "spmv/formats/hand_written_backend.cuh"
#include "spmv/formats/long_row_kernels.cuh"
#include "spmv/formats/sell_build.hpp"

namespace spk {

namespace {

template <int MaxThreads, class Value, class T, class Reader, class Output>
__global__ void __launch_bounds__(MaxThreads, min_blocks_for_class(MaxThreads))
    sell_kernel(std::int64_t positions, const index_t* __restrict__ permutation,
                const index_t* __restrict__ row_lengths,
                const std::uint64_t* __restrict__ chunk_offsets, const Value* __restrict__ values,
                const index_t* __restrict__ columns, Reader x, Output output, T* __restrict__ y) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t p = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
       p < positions; p += stride) {
    const index_t row = permutation[p];
    if (row < 0) continue;  // the last chunk's tail, or a long row (long_row_kernels.cuh)
    const std::uint64_t first = sell_slot(chunk_offsets[p / sell_chunk_height], 0,
                                          static_cast<index_t>(p % sell_chunk_height));
    output.store(y + row, ell_kernels::row_dot<false>(__ldcs(row_lengths + p), sell_chunk_height,
                                                      values + first, columns + first, x));
  }
}

template <class T, class Value = T>
class Sell final : public HandWrittenBackend<T, Value, Sell<T, Value>> {
 public:
  static void check_options(const SpmvOptions& options) {
    checked_block_size(options.block_size);
    checked_sell_sigma(options.sell_sigma);
  }

  Sell(const DeviceCsr<Value>& matrix, const SpmvOptions& options, cudaStream_t stream)
      : Sell(matrix,
             build_sell(matrix, checked_sell_sigma(options.sell_sigma),
                        sell_long_row_length(matrix.rows, matrix.nnz),
                        current_device_info().global_memory_bytes, stream),
             options, stream) {}

  template <class Reader, class Output>
  void multiply(Reader x, Output output, T* y) const {
    const KernelLaunch& launch = this->launch();
    const auto positions = static_cast<std::int64_t>(positions_);
    const unsigned int blocks = launch.blocks(positions);
    with_block_class(launch.block_size(), [&](auto block_class) {
      constexpr int max_threads = decltype(block_class)::value;
      sell_kernel<max_threads><<<blocks, launch.block_size(), 0, this->stream()>>>(
          positions, permutation_.data(), row_lengths_.data(), chunk_offsets_.data(),
          this->values(), columns_.data(), x, output, y);
      SPK_CHECK_LAUNCH("sell_kernel");
    });
    launch_long_row_passes(long_rows_, PackedStoredRange{long_row_starts_.data()}, columns_.data(),
                           this->values(), x, partials_.data(), output, y, launch.block_size(),
                           this->stream());
  }
  std::size_t device_bytes() const override {
    return this->values_device_bytes() + columns_.bytes() + permutation_.bytes() +
           row_lengths_.bytes() + chunk_offsets_.bytes() + long_row_split_bytes() +
           partials_.bytes();
  }
  std::size_t bytes_per_spmv() const override {
    return static_cast<std::size_t>(this->nnz()) * (sizeof(Value) + sizeof(index_t)) +
           positions_ * 2 * sizeof(index_t) +
           (positions_ / sell_chunk_height) * sizeof(std::uint64_t) +
           (static_cast<std::size_t>(this->cols()) + this->rows()) * sizeof(T) +
           long_row_split_bytes() + 2 * partials_.bytes();
  }

 private:
  Sell(const DeviceCsr<Value>& matrix, DeviceSell<Value>&& sell, const SpmvOptions& options,
       cudaStream_t stream)
      : HandWrittenBackend<T, Value, Sell<T, Value>>(
            Format::sell, matrix, options, stream,
            DeviceValues<Value>(std::move(sell.values), std::move(sell.slot_of_entry))),
        sigma_(sell.sigma),
        long_row_length_(sell.long_row_length),
        positions_(sell.positions),
        slots_(sell.slots),
        permutation_(std::move(sell.permutation)),
        row_lengths_(std::move(sell.row_lengths)),
        chunk_offsets_(std::move(sell.chunk_offsets)),
        long_rows_(std::move(sell.long_rows)),
        long_row_starts_(std::move(sell.long_row_starts)),
        columns_(std::move(sell.columns)),
        partials_(static_cast<std::size_t>(long_rows_.chunks), "sell long-row partial sums") {}

  // The long-row split's index arrays and the long rows' starts.
  std::size_t long_row_split_bytes() const {
    return long_rows_.device_bytes() + long_row_starts_.bytes();
  }

  typename HandWrittenBackend<T, Value, Sell<T, Value>>::Details format_details() const override {
    const double nnz = static_cast<double>(this->nnz());
    const double slots = static_cast<double>(slots_);
    return {{"chunk_height", std::to_string(sell_chunk_height)},
            {"sigma", std::to_string(sigma_)},
            {"chunks", std::to_string(positions_ / sell_chunk_height)},
            {"padded_slots", std::to_string(slots_)},
            {"fill_ratio", this->nnz() == 0 ? "-" : ratio_text(slots / nnz)},
            {"long_rows", std::to_string(long_rows_.long_row_count) + " (over " +
                              std::to_string(long_row_length_) + " entries, " +
                              std::to_string(long_rows_.chunks) + " chunks of " +
                              std::to_string(kCsrLongRowChunk) + ")"},
            {"padding", "per chunk, stored, never read (loop to the row's length)"}};
  }

  index_t sigma_;
  index_t long_row_length_;
  std::size_t positions_;
  std::uint64_t slots_;  // the chunks' and the long rows'
  DeviceBuffer<index_t> permutation_;
  DeviceBuffer<index_t> row_lengths_;
  DeviceBuffer<std::uint64_t> chunk_offsets_;
  DeviceLongRows long_rows_;
  DeviceBuffer<std::uint64_t> long_row_starts_;  // long rows + 1: where each one's entries start
  DeviceBuffer<index_t> columns_;
  mutable DeviceBuffer<T> partials_;  // one partial sum per long-row chunk, scratch of apply()
};

}  // namespace

SPK_FORMAT_BACKEND(Format::sell, Sell);

}  // namespace spk
