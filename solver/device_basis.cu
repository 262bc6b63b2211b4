// DeviceSpace's basis operations for GMRES (vector_space.hpp, solver/gmres.hpp): the j+1 dot
// products of a Gram-Schmidt pass in one kernel, the combination y += alpha V c (with ||y||^2)
// in one, and the store of a scaled vector into a column. The number of columns and the column
// are ints in device memory that the kernels read, so a CUDA graph of a block of GMRES steps
// replays correctly wherever in a cycle it starts. Every sum has a fixed order (per-block sums,
// then the blocks in order by the last block to finish), so a solve gives the same bits run to
// run.
#include <string>

#include "core/device_kernels.cuh"
#include "core/grid_pair_sum.cuh"
#include "solver/device_reductions.cuh"
#include "solver/device_space.hpp"

namespace spk {

namespace {

constexpr int basis_block = 256;
constexpr int basis_warps = basis_block / 32;
constexpr int basis_max_blocks = 512;
constexpr int basis_group = 4;  // columns summed together per pass over a block's rows

// Blocks of basis_dots for n rows: one per 2048 rows (8 a thread), at most basis_max_blocks.
int basis_grid(std::size_t n) {
  const std::size_t blocks = (n + 2047) / 2048;
  return static_cast<int>(blocks < 1 ? 1 : (blocks < basis_max_blocks ? blocks : basis_max_blocks));
}

// result[k] = (V_k, w) for k < *count, 0 for *count <= k < max_count. Block b sums rows
// [b chunk, (b+1) chunk) of basis_group columns at a time (w read once per group, from L1
// after the first), writes partials[k gridDim.x + b]; the last block adds them in block order,
// a warp per column.
template <class T>
__global__ void __launch_bounds__(basis_block)
    basis_dots_kernel(std::size_t n, std::size_t chunk, const T* __restrict__ basis, std::size_t ld,
                      const int* __restrict__ count_in, int max_count, const T* __restrict__ w,
                      T* __restrict__ partials, unsigned int* ticket, T* __restrict__ result) {
  __shared__ T warp_sums[basis_group][basis_warps];
  __shared__ bool last_block;
  const int count = *count_in;
  const int warp = static_cast<int>(threadIdx.x) / 32, lane = static_cast<int>(threadIdx.x) % 32;
  const std::size_t begin = static_cast<std::size_t>(blockIdx.x) * chunk;
  const std::size_t end = begin + chunk < n ? begin + chunk : n;
  for (int k0 = 0; k0 < count; k0 += basis_group) {
    const int group = count - k0 < basis_group ? count - k0 : basis_group;
    T sums[basis_group] = {};
    for (std::size_t i = begin + threadIdx.x; i < end; i += basis_block) {
      const T w_i = w[i];
      SPK_UNROLL
      for (int u = 0; u < basis_group; ++u)
        if (u < group) sums[u] += basis[static_cast<std::size_t>(k0 + u) * ld + i] * w_i;
    }
    SPK_UNROLL
    for (int u = 0; u < basis_group; ++u) {
      const T warp_sum = sub_warp_sum<32>(sums[u]);
      if (lane == 0) warp_sums[u][warp] = warp_sum;
    }
    __syncthreads();
    if (threadIdx.x == 0)
      for (int u = 0; u < group; ++u) {
        T block_sum = T(0);
        for (int v = 0; v < basis_warps; ++v) block_sum += warp_sums[u][v];  // warp order
        partials[static_cast<std::size_t>(k0 + u) * gridDim.x + blockIdx.x] = block_sum;
      }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    __threadfence();  // this block's partials visible to the last block
    last_block = atomicAdd(ticket, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last_block) return;
  __threadfence();
  for (int k = warp; k < max_count; k += basis_warps) {
    T sum = T(0);
    if (k < count)
      for (unsigned int b = lane; b < gridDim.x; b += 32)  // lane order, then a fixed tree
        sum += __ldcg(partials + static_cast<std::size_t>(k) * gridDim.x + b);
    sum = sub_warp_sum<32>(sum);
    if (lane == 0) result[k] = sum;
  }
  if (threadIdx.x == 0) *ticket = 0u;  // for the next launch (one stream: never overlapping)
}

// y = (assign ? 0 : y) + alpha sum_{k < *count} c[k] V_k (y untouched when *count is 0), then
// *norm_square = (y, y) when given (sum_pair_over_grid: per-block sums in block order).
template <class T>
__global__ void __launch_bounds__(basis_block)
    basis_combine_kernel(std::size_t n, const T* __restrict__ basis, std::size_t ld,
                         const int* __restrict__ count_in, const T* __restrict__ coefficients,
                         T alpha, T* __restrict__ y, bool assign, T* norm_square, T* partials,
                         unsigned int* ticket) {
  const int count = *count_in;
  if (count == 0 && norm_square == nullptr) return;  // every block alike: no ticket taken
  T y_y = T(0);
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    T y_i;
    if (count > 0) {
      T sum = T(0);
#pragma unroll 4
      for (int k = 0; k < count; ++k)
        sum += __ldg(coefficients + k) * basis[static_cast<std::size_t>(k) * ld + i];
      y_i = (assign ? T(0) : y[i]) + alpha * sum;
      y[i] = y_i;
    } else {
      y_i = y[i];
    }
    y_y += y_i * y_i;
  }
  if (norm_square == nullptr) return;
  T unused = T(0);
  if (sum_pair_over_grid(y_y, unused, partials, ticket) && threadIdx.x == 0) {
    *norm_square = y_y;
    *ticket = 0u;
  }
}

// V_column = scale w, v = the same (v given), when *column >= 0. w and v may be one array.
template <class T>
__global__ void to_column_kernel(std::size_t n, const T* __restrict__ scale, const T* w, T* v,
                                 T* __restrict__ basis, std::size_t ld,
                                 const int* __restrict__ column_in) {
  const int column = *column_in;
  if (column < 0) return;
  const T a = *scale;
  T* target = basis + static_cast<std::size_t>(column) * ld;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    const T value = a * w[i];
    if (v != nullptr) v[i] = value;
    target[i] = value;
  }
}

}  // namespace

template <class T>
void DeviceSpace<T>::reserve_basis(int max_count) {
  if (max_count <= basis_max_count_) return;
  basis_partials_ = DeviceBuffer<T>(static_cast<std::size_t>(max_count) * basis_max_blocks,
                                    "GMRES basis dots' block sums");
  if (basis_ticket_.size() == 0) {
    basis_ticket_ = DeviceBuffer<unsigned int>(1, "GMRES basis dots' block ticket");
    SPK_CUDA_CHECK(
        cudaMemsetAsync(basis_ticket_.data(), 0, sizeof(unsigned int), context_.stream()));
  }
  basis_max_count_ = max_count;
}

template <class T>
void DeviceSpace<T>::require_free_memory(std::size_t bytes, const std::string& what) {
  std::size_t free_bytes = 0, total_bytes = 0;
  SPK_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  if (bytes > free_bytes)
    throw OutOfDeviceMemory("not enough device memory for " + what + ": needs " +
                                std::to_string(bytes) + " bytes, " + std::to_string(free_bytes) +
                                " of " + std::to_string(total_bytes) + " bytes free",
                            bytes, free_bytes);
}

template <class T>
void DeviceSpace<T>::basis_dots(std::size_t n, const T* basis, std::size_t ld, const int* count,
                                int max_count, const T* w, T* result) {
  if (max_count > basis_max_count_)
    throw Error("DeviceSpace::basis_dots: " + std::to_string(max_count) +
                " columns, reserve_basis made room for " + std::to_string(basis_max_count_));
  const int blocks = basis_grid(n);
  const std::size_t chunk = (n + blocks - 1) / blocks;
  basis_dots_kernel<<<blocks, basis_block, 0, context_.stream()>>>(
      n, chunk, basis, ld, count, max_count, w, basis_partials_.data(), basis_ticket_.data(),
      result);
  SPK_CHECK_LAUNCH("basis_dots_kernel");
}

template <class T>
void DeviceSpace<T>::basis_combine(std::size_t n, const T* basis, std::size_t ld, const int* count,
                                   const T* coefficients, T alpha, T* y, bool assign,
                                   T* norm_square) {
  basis_combine_kernel<<<fused_reduction::grid(n), basis_block, 0, context_.stream()>>>(
      n, basis, ld, count, coefficients, alpha, y, assign, norm_square, partial_sums_.data(),
      last_block_ticket_.data());
  SPK_CHECK_LAUNCH("basis_combine_kernel");
}

template <class T>
void DeviceSpace<T>::to_column(std::size_t n, const T* scale, const T* w, T* v, T* basis,
                               std::size_t ld, const int* column) {
  if (n == 0) return;
  to_column_kernel<<<fused_reduction::grid(n), basis_block, 0, context_.stream()>>>(
      n, scale, w, v, basis, ld, column);
  SPK_CHECK_LAUNCH("to_column_kernel");
}

#define SPK_INSTANTIATE_BASIS(T)                                                                \
  template void DeviceSpace<T>::reserve_basis(int);                                             \
  template void DeviceSpace<T>::require_free_memory(std::size_t, const std::string&);           \
  template void DeviceSpace<T>::basis_dots(std::size_t, const T*, std::size_t, const int*, int, \
                                           const T*, T*);                                       \
  template void DeviceSpace<T>::basis_combine(std::size_t, const T*, std::size_t, const int*,   \
                                              const T*, T, T*, bool, T*);                       \
  template void DeviceSpace<T>::to_column(std::size_t, const T*, const T*, T*, T*, std::size_t, \
                                          const int*);
SPK_INSTANTIATE_BASIS(float)
SPK_INSTANTIATE_BASIS(double)
#undef SPK_INSTANTIATE_BASIS

}  // namespace spk
