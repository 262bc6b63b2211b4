#include <algorithm>
#include <cstdint>
#include <cub/device/device_scan.cuh>

#include "core/cub_call.cuh"
#include "core/device_kernels.cuh"
#include "solver/amg/device_row_hash_product.hpp"

namespace spk {

namespace {

constexpr int kTableSize = 512;  // slots per warp (a power of two; row_hash_limit is 3/4)
static_assert(row_hash_limit * 4 == kTableSize * 3, "the limit is 3/4 of the table");
constexpr int kWarpsPerBlock = 4;
constexpr int kBlockSize = 32 * kWarpsPerBlock;
constexpr index_t kEmpty = -1;

// Rows of `rows`, one warp each (grid-stride over warps).
template <class Body>
__device__ __forceinline__ void for_each_row_of_warp(index_t rows, Body&& body) {
  const auto warps = static_cast<std::int64_t>(gridDim.x) * kWarpsPerBlock;
  for (auto row = static_cast<std::int64_t>(blockIdx.x) * kWarpsPerBlock + threadIdx.x / 32;
       row < rows; row += warps)
    body(static_cast<index_t>(row));
}

__device__ __forceinline__ unsigned int lane_id() {
  return threadIdx.x % 32u;
}

// The slots a row's table uses: a power of two from 32 to kTableSize, at least 4/3 of the
// row's products (an upper bound of its distinct columns), so that a short row clears and scans
// a few slots only.
__device__ __forceinline__ int table_span(std::int64_t products) {
  int span = 32;
  while (span < kTableSize && span < products + products / 3 + 1) span *= 2;
  return span;
}

// `key` in the table's first `span` slots (linear probing); adds 1 to *distinct when it was not
// there. False when the span has no free slot on its probe path.
__device__ __forceinline__ bool insert(index_t* keys, int span, index_t key, int* distinct) {
  unsigned int slot = (static_cast<unsigned int>(key) * 2654435761u) & (span - 1);
  for (int probe = 0; probe < span; ++probe) {
    const index_t seen = *static_cast<volatile index_t*>(keys + slot);
    if (seen == key) return true;
    if (seen == kEmpty) {
      const index_t before = atomicCAS(keys + slot, kEmpty, key);
      if (before == kEmpty) {
        atomicAdd(distinct, 1);
        return true;
      }
      if (before == key) return true;
    }
    slot = (slot + 1) & (span - 1);
  }
  return false;
}

// The distinct columns of row `row` of A B hashed into the warp's table (its first *span
// slots, set here): the lanes take A's entries, each inserting its B row's columns. Returns
// their count, or -1 when they pass row_hash_limit (the same value in every lane).
__device__ __forceinline__ int hash_row(index_t row, const index_t* a_offsets,
                                        const index_t* a_columns, const index_t* b_offsets,
                                        const index_t* b_columns, index_t* keys, int* distinct,
                                        int* span) {
  const index_t a_start = a_offsets[row], a_end = a_offsets[row + 1];
  std::int64_t products = 0;
  for (index_t k = a_start + static_cast<index_t>(lane_id()); k < a_end; k += 32) {
    const index_t inner = a_columns[k];
    products += b_offsets[inner + 1] - b_offsets[inner];
  }
  *span = table_span(warp_sum(products));
  for (int slot = static_cast<int>(lane_id()); slot < *span; slot += 32) keys[slot] = kEmpty;
  if (lane_id() == 0) *distinct = 0;
  __syncwarp();
  bool fits = true;
  for (index_t first = a_start; first < a_end && fits; first += 32) {
    bool placed = true;
    const index_t k = first + static_cast<index_t>(lane_id());
    if (k < a_end) {
      const index_t inner = a_columns[k];
      for (index_t e = b_offsets[inner]; e < b_offsets[inner + 1] && placed; ++e)
        placed = insert(keys, *span, b_columns[e], distinct);
    }
    __syncwarp();
    const int count = *static_cast<volatile int*>(distinct);
    fits = __all_sync(0xffffffffu, placed) && count <= row_hash_limit;
  }
  __syncwarp();
  const int count = *static_cast<volatile int*>(distinct);
  __syncwarp();
  return fits ? count : -1;
}

// Pass 1: counts[row] = the distinct columns of row `row` of C; *too_many = 1 if a row passes
// the limit.
__global__ void __launch_bounds__(kBlockSize)
    count_kernel(index_t rows, const index_t* a_offsets, const index_t* a_columns,
                 const index_t* b_offsets, const index_t* b_columns, index_t* counts,
                 int* too_many) {
  __shared__ index_t tables[kWarpsPerBlock][kTableSize];
  __shared__ int distinct[kWarpsPerBlock];
  const unsigned int warp = threadIdx.x / 32;
  for_each_row_of_warp(rows, [&](index_t row) {
    int span = 0;
    const int count = hash_row(row, a_offsets, a_columns, b_offsets, b_columns, tables[warp],
                               &distinct[warp], &span);
    if (lane_id() == 0) {
      counts[row] = count < 0 ? 0 : count;
      if (count < 0) *too_many = 1;
    }
  });
}

// Pass 2: row `row`'s columns written in ascending order from c_offsets[row]: the table's keys
// compacted to the front of `packed` (warp ballots), then each placed by its rank.
__global__ void __launch_bounds__(kBlockSize)
    fill_kernel(index_t rows, const index_t* a_offsets, const index_t* a_columns,
                const index_t* b_offsets, const index_t* b_columns, const index_t* c_offsets,
                index_t* c_columns) {
  __shared__ index_t tables[kWarpsPerBlock][kTableSize];
  __shared__ index_t packed_keys[kWarpsPerBlock][row_hash_limit];
  __shared__ int distinct[kWarpsPerBlock];
  const unsigned int warp = threadIdx.x / 32;
  index_t* const packed = packed_keys[warp];
  for_each_row_of_warp(rows, [&](index_t row) {
    int span = 0;
    const int count = hash_row(row, a_offsets, a_columns, b_offsets, b_columns, tables[warp],
                               &distinct[warp], &span);
    if (count <= 0) return;  // (count < 0 cannot happen after pass 1; nothing to write)
    const unsigned int below = (1u << lane_id()) - 1u;
    int base = 0;
    for (int first = 0; first < span; first += 32) {
      const index_t key = tables[warp][first + static_cast<int>(lane_id())];
      const unsigned int occupied = __ballot_sync(0xffffffffu, key != kEmpty);
      if (key != kEmpty) packed[base + __popc(occupied & below)] = key;
      base += __popc(occupied);
    }
    __syncwarp();
    const index_t start = c_offsets[row];
    for (int i = static_cast<int>(lane_id()); i < count; i += 32) {
      const index_t key = packed[i];
      int rank = 0;
      for (int j = 0; j < count; ++j) rank += packed[j] < key ? 1 : 0;
      c_columns[start + rank] = key;
    }
    __syncwarp();
  });
}

// The position of `key` among the row's sorted columns (it is there).
__device__ __forceinline__ int position_of(const index_t* columns, int count, index_t key) {
  return lower_bound_in(columns, 0, count, key);
}

// c_ij = sum_k a_ik b_kj over the row's k in order: each step's lanes add to distinct entries.
__global__ void __launch_bounds__(kBlockSize)
    values_kernel(index_t rows, const index_t* a_offsets, const index_t* a_columns,
                  const double* a_values, const index_t* b_offsets, const index_t* b_columns,
                  const double* b_values, const index_t* c_offsets, const index_t* c_columns,
                  double* c_values) {
  __shared__ index_t row_columns[kWarpsPerBlock][row_hash_limit];
  __shared__ double row_values[kWarpsPerBlock][row_hash_limit];
  const unsigned int warp = threadIdx.x / 32;
  index_t* const columns = row_columns[warp];
  double* const sums = row_values[warp];
  for_each_row_of_warp(rows, [&](index_t row) {
    const index_t start = c_offsets[row];
    const int count = static_cast<int>(c_offsets[row + 1] - start);
    for (int i = static_cast<int>(lane_id()); i < count; i += 32) {
      columns[i] = c_columns[start + i];
      sums[i] = 0.0;
    }
    __syncwarp();
    for (index_t k = a_offsets[row]; k < a_offsets[row + 1]; ++k) {
      const index_t inner = a_columns[k];
      const double a_ik = a_values[k];
      for (index_t e = b_offsets[inner] + static_cast<index_t>(lane_id()); e < b_offsets[inner + 1];
           e += 32)
        sums[position_of(columns, count, b_columns[e])] += a_ik * b_values[e];
      __syncwarp();
    }
    for (int i = static_cast<int>(lane_id()); i < count; i += 32) c_values[start + i] = sums[i];
    __syncwarp();
  });
}

// wide[i] = counts[i]: the scan then adds in 64 bits (CUB's accumulator is the input's type).
__global__ void __launch_bounds__(kSetupBlockSize)
    widen_kernel(std::int64_t count, const index_t* counts, long long* wide) {
  for_each_index(count, [&](std::int64_t i) { wide[i] = counts[i]; });
}

// offsets[i] = wide[i] (the total was checked to fit 32 bits).
__global__ void __launch_bounds__(kSetupBlockSize)
    narrow_kernel(std::int64_t count, const long long* wide, index_t* offsets) {
  for_each_index(count, [&](std::int64_t i) { offsets[i] = static_cast<index_t>(wide[i]); });
}

unsigned int warp_grid(index_t rows) {
  const std::int64_t blocks =
      (static_cast<std::int64_t>(rows) + kWarpsPerBlock - 1) / kWarpsPerBlock;
  return static_cast<unsigned int>(
      std::min<std::int64_t>(std::max<std::int64_t>(blocks, 1), 65535 * 32));
}

}  // namespace

bool row_hash_pattern(const DeviceCsrMatrix<double>& a, const DeviceCsrMatrix<double>& b,
                      DeviceCsrMatrix<double>& c, cudaStream_t stream) {
  const index_t rows = a.rows;
  // The counts, then the offsets, in c's offsets (kept when they have the size already).
  if (c.row_offsets.size() != static_cast<std::size_t>(rows) + 1)
    c.row_offsets = DeviceBuffer<index_t>(static_cast<std::size_t>(rows) + 1, "product offsets");
  DeviceBuffer<index_t>& offsets = c.row_offsets;
  DeviceBuffer<int> too_many(1, "product row check");
  SPK_CUDA_CHECK(cudaMemsetAsync(too_many.data(), 0, sizeof(int), stream));
  SPK_CUDA_CHECK(cudaMemsetAsync(offsets.data() + rows, 0, sizeof(index_t), stream));
  if (rows > 0) {
    count_kernel<<<warp_grid(rows), kBlockSize, 0, stream>>>(
        rows, a.row_offsets.data(), a.columns.data(), b.row_offsets.data(), b.columns.data(),
        offsets.data(), too_many.data());
    SPK_CHECK_LAUNCH("count_kernel (sparse product)");
  }
  int refused = 0;
  SPK_CUDA_CHECK(
      cudaMemcpyAsync(&refused, too_many.data(), sizeof(int), cudaMemcpyDeviceToHost, stream));
  SPK_CUDA_CHECK(cudaStreamSynchronize(stream));
  if (refused != 0) return false;
  // Row counts -> offsets, in 64 bits first: the total is checked before it is narrowed.
  DeviceBuffer<long long> wide(static_cast<std::size_t>(rows) + 1, "product offsets (64-bit)");
  long long* const wide_offsets = wide.data();
  widen_kernel<<<setup_grid(rows + std::int64_t{1}), kSetupBlockSize, 0, stream>>>(
      rows + std::int64_t{1}, offsets.data(), wide_offsets);
  SPK_CHECK_LAUNCH("widen_kernel (sparse product counts)");
  run_cub("sparse product row offsets", stream, [&](void* scratch, std::size_t& bytes) {
    return cub::DeviceScan::ExclusiveSum(scratch, bytes, wide_offsets, wide_offsets, rows + 1,
                                         stream);
  });
  long long nnz = 0;
  SPK_CUDA_CHECK(cudaMemcpyAsync(&nnz, wide_offsets + rows, sizeof(long long),
                                 cudaMemcpyDeviceToHost, stream));
  SPK_CUDA_CHECK(cudaStreamSynchronize(stream));
  check_index_range(nnz, "nonzeros of a sparse product in the AMG setup");
  narrow_kernel<<<setup_grid(rows + std::int64_t{1}), kSetupBlockSize, 0, stream>>>(
      rows + std::int64_t{1}, wide_offsets, offsets.data());
  SPK_CHECK_LAUNCH("narrow_kernel (sparse product offsets)");
  SPK_CUDA_CHECK(cudaStreamSynchronize(stream));  // before `wide` is freed
  wide = DeviceBuffer<long long>();
  c.rows = a.rows;
  c.cols = b.cols;
  c.columns = DeviceBuffer<index_t>(static_cast<std::size_t>(nnz), "product columns");
  c.values = DeviceBuffer<double>(static_cast<std::size_t>(nnz), "product values");
  if (rows > 0 && nnz > 0) {
    fill_kernel<<<warp_grid(rows), kBlockSize, 0, stream>>>(
        rows, a.row_offsets.data(), a.columns.data(), b.row_offsets.data(), b.columns.data(),
        c.row_offsets.data(), c.columns.data());
    SPK_CHECK_LAUNCH("fill_kernel (sparse product)");
  }
  return true;
}

void row_hash_values(const DeviceCsrMatrix<double>& a, const DeviceCsrMatrix<double>& b,
                     DeviceCsrMatrix<double>& c, cudaStream_t stream) {
  if (a.rows == 0 || c.nnz() == 0) return;
  values_kernel<<<warp_grid(a.rows), kBlockSize, 0, stream>>>(
      a.rows, a.row_offsets.data(), a.columns.data(), a.values.data(), b.row_offsets.data(),
      b.columns.data(), b.values.data(), c.row_offsets.data(), c.columns.data(), c.values.data());
  SPK_CHECK_LAUNCH("values_kernel (sparse product)");
}

}  // namespace spk
