// csr-merge: a load-balanced CSR SpMV on the merge path (Merrill & Garland, "Merge-based
// parallel sparse matrix-vector multiplication", SC'16). The algorithm and its CPU reference:
// merge_path.hpp; this file holds the kernels and the backend.
//
// Layout: plain CSR, copied unchanged on the device (DeviceCsrPattern; values in CSR order,
// held by HandWrittenBackend): no conversion. The partition is not stored: each thread finds
// its start on the path by a binary search over the row offsets at every launch.
// Thread mapping: thread t of the grid takes path items [t ipt, (t + 1) ipt) (rows + nnz
// items; ipt = 4, 8 or 16 items per thread, a compiled list chosen from the mean row length:
// 4 below 4 nonzeros a row, 16 above 24, else 8), so every thread does the same work however
// long the rows; one thread reads its nonzeros in order. Rows that span threads are combined
// in shared memory within the block, then across blocks by a fixup kernel of one thread per
// block, each in a fixed order: no atomics, the same bits every run (merge_path.hpp). The grid
// is the partition: always ceil(threads / block_size) blocks (spmv.grid does not apply).
// x is read through spmv.x_cache (none | ldg | texture).
// Byte model: the CSR model (device_csr.hpp) plus the blocks' heads and carries, written once
// and read once.
#include <cstdint>
#include <string>

#include "spmv/formats/device_csr.hpp"
#include "spmv/formats/hand_written_backend.cuh"
#include "spmv/formats/merge_path.hpp"

namespace spk {

namespace {

// Step 1 (each thread's walk) and step 2 (the block's combine) of merge_path.hpp.
template <int ItemsPerThread, class Value, class T, class Reader, class Output>
__global__ void __launch_bounds__(max_block_size)
    csr_merge_kernel(index_t rows, index_t nnz, std::int64_t threads,
                     const index_t* __restrict__ row_offsets, const index_t* __restrict__ columns,
                     const Value* __restrict__ values, Reader x, Output output, T* __restrict__ y,
                     MergeCarry<T>* __restrict__ block_heads,
                     MergeCarry<T>* __restrict__ block_carries) {
  __shared__ MergeCarry<T> heads[max_block_size];
  __shared__ MergeCarry<T> carries[max_block_size];
  const int local = static_cast<int>(threadIdx.x);
  const std::int64_t first = static_cast<std::int64_t>(blockIdx.x) * blockDim.x;
  const std::int64_t t = first + local;
  const auto complete = [&](index_t row, T sum) { output.store(y + row, sum); };
  // Each thread's start on the path; its end is the next thread's start (a shuffle; the
  // warp's last lane searches its own). Threads past the path take an empty range.
  const std::int64_t path = static_cast<std::int64_t>(rows) + nnz;
  const std::int64_t begin = t * ItemsPerThread < path ? t * ItemsPerThread : path;
  const std::int64_t next = begin + ItemsPerThread < path ? begin + ItemsPerThread : path;
  const MergeCoordinate start = merge_path_search(begin, rows, nnz, row_offsets + 1);
  MergeCoordinate end;
  end.row = __shfl_down_sync(0xffffffffu, start.row, 1);
  end.nonzero = __shfl_down_sync(0xffffffffu, start.nonzero, 1);
  if (local % 32 == 31) end = merge_path_search(next, rows, nnz, row_offsets + 1);
  MergeCarry<T> head{-1, T(0)}, carry{-1, T(0)};
  if (t < threads)
    merge_path_walk<ItemsPerThread, T>(
        start, end, rows, row_offsets,
        [&](index_t k) { return static_cast<T>(values[k]) * x.load(columns[k]); }, complete, head,
        carry);
  heads[local] = head;
  carries[local] = carry;
  if (local == 0) block_heads[blockIdx.x] = MergeCarry<T>{-1, T(0)};
  __syncthreads();
  merge_block_combine<T>(local, static_cast<int>(blockDim.x), first, ItemsPerThread, row_offsets,
                         heads, carries, complete, block_heads + blockIdx.x,
                         block_carries + blockIdx.x);
}

// Step 3: a thread per block.
template <class T, class Output>
__global__ void __launch_bounds__(256)
    csr_merge_fixup_kernel(std::int64_t blocks, int block_threads, int items_per_thread,
                           const index_t* __restrict__ row_offsets,
                           const MergeCarry<T>* __restrict__ block_heads,
                           const MergeCarry<T>* __restrict__ block_carries, Output output,
                           T* __restrict__ y) {
  const std::int64_t block = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (block >= blocks) return;
  merge_block_fixup<T>(block, block_threads, items_per_thread, row_offsets, block_heads,
                       block_carries, [&](index_t row, T sum) { output.store(y + row, sum); });
}

int merge_items_per_thread(index_t rows, index_t nnz) {
  const double mean = rows == 0 ? 0.0 : static_cast<double>(nnz) / rows;
  return mean < 4.0 ? 4 : (mean > 24.0 ? 16 : 8);
}

template <class T, class Value = T>
class CsrMerge final : public HandWrittenBackend<T, Value, CsrMerge<T, Value>> {
 public:
  CsrMerge(const DeviceCsr<Value>& matrix, const SpmvOptions& options, cudaStream_t stream)
      : HandWrittenBackend<T, Value, CsrMerge<T, Value>>(
            Format::csr_merge, matrix, options, stream,
            DeviceValues<Value>(matrix.values, matrix.nnz, "csr-merge values", stream)),
        pattern_(matrix, to_string(Format::csr_merge), stream),
        items_per_thread_(merge_items_per_thread(matrix.rows, matrix.nnz)),
        threads_(merge_path_threads(matrix.rows, matrix.nnz, items_per_thread_)),
        // Sized for the smallest block (32 threads): set_launch may change the block size.
        block_heads_(static_cast<std::size_t>((threads_ + 31) / 32), "csr-merge block heads"),
        block_carries_(static_cast<std::size_t>((threads_ + 31) / 32), "csr-merge block carries") {}

  template <class Reader, class Output>
  void multiply(Reader x, Output output, T* y) const {
    const int block_size = this->launch().block_size();
    const std::int64_t blocks = (threads_ + block_size - 1) / block_size;
    const cudaStream_t stream = this->stream();
    switch (items_per_thread_) {  // the compiled list
      case 4: walk<4>(x, output, y, blocks); break;
      case 16: walk<16>(x, output, y, blocks); break;
      default: walk<8>(x, output, y, blocks); break;
    }
    if (blocks < 2) return;  // one block: every row was written inside it
    constexpr int fixup_block = 256;
    csr_merge_fixup_kernel<<<static_cast<unsigned int>((blocks + fixup_block - 1) / fixup_block),
                             fixup_block, 0, stream>>>(blocks, block_size, items_per_thread_,
                                                       pattern_.row_offsets(), block_heads_.data(),
                                                       block_carries_.data(), output, y);
    SPK_CHECK_LAUNCH("csr_merge_fixup_kernel");
  }

  std::size_t device_bytes() const override {
    return pattern_.device_bytes() + this->values_device_bytes() + block_heads_.bytes() +
           block_carries_.bytes();
  }
  // The CSR model plus each launched block's head and carry, written once and read once.
  std::size_t bytes_per_spmv() const override {
    const std::int64_t blocks =
        (threads_ + this->launch().block_size() - 1) / this->launch().block_size();
    return pattern_.bytes_per_spmv(sizeof(Value), sizeof(T)) +
           4 * static_cast<std::size_t>(blocks) * sizeof(MergeCarry<T>);
  }

 private:
  template <int ItemsPerThread, class Reader, class Output>
  void walk(Reader x, Output output, T* y, std::int64_t blocks) const {
    csr_merge_kernel<ItemsPerThread>
        <<<static_cast<unsigned int>(blocks), this->launch().block_size(), 0, this->stream()>>>(
            this->rows(), this->nnz(), threads_, pattern_.row_offsets(), pattern_.columns(),
            this->values(), x, output, y, block_heads_.data(), block_carries_.data());
    SPK_CHECK_LAUNCH("csr_merge_kernel");
  }

  typename HandWrittenBackend<T, Value, CsrMerge<T, Value>>::Details format_details()
      const override {
    return {{"items_per_thread", std::to_string(items_per_thread_)},
            {"path_threads", std::to_string(threads_)},
            {"partition", "merge path, searched per launch; spmv.grid does not apply"}};
  }

  DeviceCsrPattern pattern_;
  int items_per_thread_;
  std::int64_t threads_;
  mutable DeviceBuffer<MergeCarry<T>> block_heads_;
  mutable DeviceBuffer<MergeCarry<T>> block_carries_;
};

}  // namespace

SPK_FORMAT_BACKEND(Format::csr_merge, CsrMerge);

}  // namespace spk
