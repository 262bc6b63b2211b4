// `csr-merge`: CSR SpMV by merge path (D. Merrill, M. Garland, "Merge-based parallel sparse
// matrix-vector multiplication", SC'16; ../shared/notes/anchors-performance-kernels.md,
// section 2). Every thread gets the same number of path items (rows + nonzeros), whatever the
// row lengths: no warp waits on one long row, and a row of 100k entries is spread over many
// blocks.
//
// Layout: plain CSR, used as it is (copy_pattern: row offsets and columns; values in CSR
// order, of the solver's type or fp32 (spmv.matrix_values), held by HandWrittenBackend;
// update_values copies them, no slot map). Kept besides:
// the partition of the path, one start coordinate (row, nonzero) per tile (merge_path.hpp),
// computed on the device by a small search kernel when the first SpMV runs with a given block
// size (and again only when spmv.block_size changes), and one carry slot (row, partial) per
// tile. Both are allocated at setup for the smallest block (32 threads), so no SpMV allocates
// and every SpMV can be captured in a CUDA graph.
//
// Thread mapping (csr_merge_kernels.cuh): a tile = a block of spmv.block_size threads x
// merge_items_per_thread<T>() path items (5 for double, 7 for float: 1280 or 1792 items at
// 256 threads). The block stages the tile's products value * x[col] and its row ends in shared
// memory with coalesced loads, each thread finds its start by a binary search of its diagonal
// in shared memory and walks its items; a warp-shuffle reduce-by-row scan across the block
// hands partial row sums from thread to thread. A row still open at the tile's end leaves a
// carry (row, partial) in the tile's own slot; a second small kernel adds each run of carries,
// in tile order, to its row (times alpha). No atomics: y is bitwise the same run to run
// (for a given block size). spmv.grid capped: fewer blocks, each looping over tiles.
// Path positions are 64-bit (rows + nnz may pass 2^31); indices stay 32-bit.
//
// bytes_per_spmv = CSR minimal (csr_bytes_per_spmv: nnz x (sizeof(T) + 4) + (rows + 1) x 4 +
//                  cols x sizeof(T) + rows x sizeof(T))
//                + (tiles + 1) x 8            the tile start coordinates
//                + tiles x 2 (4 + sizeof(T))  the carries, written and read back
// device_bytes   = CSR pattern + values + partition and carries (at their 32-thread size).
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>

#include "core/device_buffer.hpp"
#include "spmv/formats/csr_bytes.hpp"
#include "spmv/formats/csr_merge_kernels.cuh"
#include "spmv/formats/csr_merge_partition.hpp"
#include "spmv/formats/hand_written_backend.cuh"
#include "spmv/formats/merge_path.hpp"

namespace spk {

void fill_merge_tile_starts(const index_t* row_offsets, index_t rows, index_t nnz,
                            std::int64_t tile_items, MergeCoordinate* starts, cudaStream_t stream) {
  const std::int64_t path_items = std::int64_t{rows} + nnz;
  if (path_items == 0) return;
  const std::int64_t tiles = merge_tiles(path_items, tile_items);
  csr_merge_kernels::
      merge_tile_starts_kernel<<<setup_grid(tiles + 1), kSetupBlockSize, 0, stream>>>(
          tiles, tile_items, rows, nnz, row_offsets, starts);
  SPK_CHECK_LAUNCH("merge_tile_starts_kernel");
}

namespace {

constexpr int smallest_block = 32;

template <class T, class Value = T>
class CsrMerge final : public HandWrittenBackend<T, Value, CsrMerge<T, Value>> {
 public:
  static constexpr int items_per_thread = merge_items_per_thread<T>();

  CsrMerge(const DeviceCsr<Value>& matrix, const SpmvOptions& options, cudaStream_t stream)
      : HandWrittenBackend<T, Value, CsrMerge<T, Value>>(
            Format::csr_merge, matrix, options, stream,
            DeviceValues<Value>(matrix.values, matrix.nnz, "csr-merge values", stream)),
        pattern_(copy_pattern(matrix, to_string(Format::csr_merge), stream)),
        path_items_(std::int64_t{matrix.rows} + matrix.nnz),
        tile_starts_(static_cast<std::size_t>(tiles_for(smallest_block)) + 1,
                     "csr-merge tile starts"),
        carry_rows_(static_cast<std::size_t>(tiles_for(smallest_block)), "csr-merge carry rows"),
        carry_sums_(static_cast<std::size_t>(tiles_for(smallest_block)), "csr-merge carry sums") {
    partition(this->launch().block_size());
  }

  template <class Reader, class Output>
  void multiply(Reader x, Output output, T* y) const {
    const KernelLaunch& launch = this->launch();
    const int block_size = launch.block_size();
    if (block_size != partition_block_size_) partition(block_size);
    const std::int64_t tiles = tiles_for(block_size);
    const unsigned int blocks = launch.blocks(tiles * block_size);
    const std::size_t shared_bytes =
        static_cast<std::size_t>(block_size) * items_per_thread * sizeof(T) + sizeof(T);
    with_block_class(block_size, [&](auto block_class) {
      constexpr int max_threads = decltype(block_class)::value;
      csr_merge_kernels::csr_merge_kernel<max_threads, items_per_thread>
          <<<blocks, block_size, shared_bytes, this->stream()>>>(
              tiles, tile_starts_.data(), pattern_.row_offsets.data(), pattern_.columns.data(),
              this->values(), x, output, y, carry_rows_.data(), carry_sums_.data());
      SPK_CHECK_LAUNCH("csr_merge_kernel");
    });
    if (tiles < 2) return;  // the last tile's carry is past the last row
    csr_merge_kernels::
        csr_merge_fixup_kernel<<<setup_grid(tiles), kSetupBlockSize, 0, this->stream()>>>(
            tiles, this->rows(), carry_rows_.data(), carry_sums_.data(), output, y);
    SPK_CHECK_LAUNCH("csr_merge_fixup_kernel");
  }

  std::size_t device_bytes() const override {
    return pattern_.device_bytes() + this->values_device_bytes() + tile_starts_.bytes() +
           carry_rows_.bytes() + carry_sums_.bytes();
  }
  std::size_t bytes_per_spmv() const override {
    const auto tiles = static_cast<std::size_t>(tiles_for(this->launch().block_size()));
    return csr_bytes_per_spmv(pattern_.rows, pattern_.cols,
                              static_cast<std::size_t>(pattern_.nnz()), sizeof(Value), sizeof(T)) +
           (tiles + 1) * sizeof(MergeCoordinate) + tiles * 2 * (sizeof(index_t) + sizeof(T));
  }

 private:
  std::int64_t tiles_for(int block_size) const {
    return merge_tiles(path_items_, std::int64_t{block_size} * items_per_thread);
  }

  // The tile start coordinates for `block_size` threads a tile, on the backend's stream.
  void partition(int block_size) const {
    fill_merge_tile_starts(pattern_.row_offsets.data(), this->rows(), this->nnz(),
                           std::int64_t{block_size} * items_per_thread, tile_starts_.data(),
                           this->stream());
    partition_block_size_ = block_size;
  }

  typename HandWrittenBackend<T, Value, CsrMerge<T, Value>>::Details format_details()
      const override {
    const int block_size = this->launch().block_size();
    return {{"items_per_thread", std::to_string(items_per_thread)},
            {"tile_items", std::to_string(block_size * items_per_thread)},
            {"path_items", std::to_string(path_items_)},
            {"tiles", std::to_string(tiles_for(block_size))},
            {"carry_fixup", "per-tile carry slots, summed in tile order (deterministic)"}};
  }

  DeviceCsrMatrix<Value> pattern_;  // row offsets and columns (values: the base's slots)
  std::int64_t path_items_;
  // The partition for partition_block_size_ threads a tile; redone when the launch changes
  // (mutable: multiply is const, the partition a cache of the launch).
  mutable DeviceBuffer<MergeCoordinate> tile_starts_;
  mutable int partition_block_size_ = 0;
  mutable DeviceBuffer<index_t> carry_rows_;
  mutable DeviceBuffer<T> carry_sums_;
};

}  // namespace

SPK_FORMAT_BACKEND(Format::csr_merge, CsrMerge);

}  // namespace spk
