// DeviceSpace's basis operations for GMRES (vector_space.hpp, solver/gmres.hpp): the j+1 dot
// products of a Gram-Schmidt pass (and ||w||^2) in one kernel, the combination y + alpha V c
// in one (into y, or scaled into v and a column of V: the next Arnoldi vector; with its norm),
// each running GMRES's scalar step in its last block, and the store of a scaled vector into a
// column. The number of columns and the column are ints in device memory that the kernels read,
// so a CUDA graph of a block of GMRES steps replays correctly wherever in a cycle it starts; a
// count of 0 (selective re-orthogonalisation's skipped pass) makes a kernel return at once.
// Every sum has a fixed order (per-block sums, then the blocks in order by the last block to
// finish), so a solve gives the same bits run to run.
#include <string>
#include <type_traits>

#include "core/device_kernels.cuh"
#include "core/grid_pair_sum.cuh"
#include "solver/device_reductions.cuh"
#include "solver/device_space.hpp"
#include "solver/gmres_steps.hpp"

namespace spk {

namespace {

constexpr int basis_block = 256;
constexpr int basis_warps = basis_block / 32;
constexpr int basis_max_blocks = 512;
constexpr int basis_group = 4;  // columns summed together per pass over a block's rows
// Blocks of 256 an SM each kernel must fit with GMRES's step in its last block (the step
// inlined took 70 registers: 3 blocks an SM, and basis_combine's grid of up to 1024 blocks then
// ran in 2.6 waves). The steps are calls (SPK_NOINLINE) that spill to local memory once a
// launch; the passes keep their registers: basis_combine 32 (8 blocks), basis_dots 64 (4: its
// grid of at most 512 blocks in one wave on 132 SMs).
constexpr int basis_blocks_per_sm = 8;
constexpr int basis_dots_blocks_per_sm = 4;

// Blocks of basis_dots for n rows: one per 2048 rows (8 a thread), at most basis_max_blocks.
int basis_grid(std::size_t n) {
  const std::size_t blocks = (n + 2047) / 2048;
  return static_cast<int>(blocks < 1 ? 1 : (blocks < basis_max_blocks ? blocks : basis_max_blocks));
}

// result[k] = (V_k, w) for k < *count, 0 for *count <= k < max_count, and with_norm
// result[max_count] = (w, w) (w taken as one more column, `count`); then then(*scalars). Block b
// sums rows [b chunk, (b+1) chunk) of basis_group columns at a time (w read once per group, from L1
// after the first): each warp's sums go to shared memory (two buffers, so one barrier a group), the
// first `group` threads add the warps' in warp order and write partials[k gridDim.x + b]; the
// last block adds them in block order, a warp per column, eight loads in flight a lane. *count
// 0 (a skipped pass): block 0 writes the zeros and runs the step, nothing is read.
template <class T, class Step>
__global__ void __launch_bounds__(basis_block, basis_dots_blocks_per_sm)
    basis_dots_kernel(std::size_t n, std::size_t chunk, const T* __restrict__ basis, std::size_t ld,
                      const int* __restrict__ count_in, int max_count, bool with_norm,
                      const T* __restrict__ w, T* __restrict__ partials, unsigned int* ticket,
                      T* result, Step then, KrylovScalars<T>* scalars) {
  __shared__ T warp_sums[2][basis_group][basis_warps];
  __shared__ bool last_block;
  const int count = *count_in;
  const int results = max_count + (with_norm ? 1 : 0);
  if (count == 0) {
    if (blockIdx.x != 0) return;
    for (int k = static_cast<int>(threadIdx.x); k < results; k += basis_block) result[k] = T(0);
    __syncthreads();
    if (threadIdx.x == 0) then(*scalars);
    return;
  }
  const int columns = count + (with_norm ? 1 : 0);
  const int warp = static_cast<int>(threadIdx.x) / 32, lane = static_cast<int>(threadIdx.x) % 32;
  const std::size_t begin = static_cast<std::size_t>(blockIdx.x) * chunk;
  const std::size_t end = begin + chunk < n ? begin + chunk : n;
  int buffer = 0;
  for (int k0 = 0; k0 < columns; k0 += basis_group, buffer ^= 1) {
    const int group = columns - k0 < basis_group ? columns - k0 : basis_group;
    const T* column[basis_group];
    SPK_UNROLL
    for (int u = 0; u < basis_group; ++u)
      column[u] = k0 + u < count ? basis + static_cast<std::size_t>(k0 + u) * ld : w;
    T sums[basis_group] = {};
#pragma unroll 4
    for (std::size_t i = begin + threadIdx.x; i < end; i += basis_block) {
      const T w_i = w[i];
      SPK_UNROLL
      for (int u = 0; u < basis_group; ++u)
        if (u < group) sums[u] += column[u][i] * w_i;
    }
    SPK_UNROLL
    for (int u = 0; u < basis_group; ++u) {
      const T warp_sum = sub_warp_sum<32>(sums[u]);
      if (lane == 0) warp_sums[buffer][u][warp] = warp_sum;
    }
    __syncthreads();  // the next group writes the other buffer; this one's readers finish
    if (static_cast<int>(threadIdx.x) < group) {  // before the barrier of the group after
      T block_sum = T(0);
      for (int v = 0; v < basis_warps; ++v) block_sum += warp_sums[buffer][threadIdx.x][v];
      partials[static_cast<std::size_t>(k0 + threadIdx.x) * gridDim.x + blockIdx.x] = block_sum;
    }
  }
  if (static_cast<int>(threadIdx.x) < basis_group) __threadfence();  // the partials written
  __syncthreads();                                                   // before the ticket
  if (threadIdx.x == 0) {
    __threadfence();  // this block's partials visible to the last block
    last_block = atomicAdd(ticket, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last_block) return;
  __threadfence();
  constexpr int batch = 8;
  for (int k = warp; k < results; k += basis_warps) {
    const int source = k < max_count ? k : count;  // result max_count: the norm's partials
    T sum = T(0);
    if (k < count || k == max_count) {
      const T* block_sums = partials + static_cast<std::size_t>(source) * gridDim.x;
      for (unsigned int b0 = lane; b0 < gridDim.x; b0 += 32 * batch) {  // lane order, then
        T values[batch];                                                // a fixed tree
        SPK_UNROLL
        for (int u = 0; u < batch; ++u) {
          const unsigned int b = b0 + 32 * u;
          values[u] = b < gridDim.x ? __ldcg(block_sums + b) : T(0);
        }
        SPK_UNROLL
        for (int u = 0; u < batch; ++u) sum += values[u];
      }
    }
    sum = sub_warp_sum<32>(sum);
    if (lane == 0) result[k] = sum;
  }
  __syncthreads();  // every result written before the step reads them
  if (threadIdx.x == 0) {
    *ticket = 0u;  // for the next launch (one stream: never overlapping)
    then(*scalars);
  }
}

// u = (assign ? 0 : y) + alpha sum_{k < *count} c[k] V_k into y, or (*store.column >= 0)
// *store.scale u into store.v and store.basis's column *store.column, y untouched; then
// *norm_square = (u, u) when given (sum_pair_over_grid: per-block sums in block order), then
// then(*scalars) in the last block. *count 0 (a skipped pass): y untouched, *norm_square = 0
// and `then` in block 0.
template <class T, class Step>
__global__ void __launch_bounds__(basis_block, basis_blocks_per_sm)
    basis_combine_kernel(std::size_t n, const T* __restrict__ basis, std::size_t ld,
                         const int* __restrict__ count_in, const T* __restrict__ coefficients,
                         T alpha, T* __restrict__ y, bool assign, T* norm_square,
                         ColumnStore<T> store, T* partials, unsigned int* ticket, Step then,
                         KrylovScalars<T>* scalars) {
  const int count = *count_in;
  if (count == 0) {
    if (blockIdx.x == 0 && threadIdx.x == 0) {
      if (norm_square != nullptr) *norm_square = T(0);
      then(*scalars);
    }
    return;
  }
  const int column = store.column != nullptr ? *store.column : -1;
  T* __restrict__ target =
      column >= 0 ? store.basis + static_cast<std::size_t>(column) * ld : nullptr;
  T* __restrict__ v = store.v;
  const T scale = column >= 0 ? *store.scale : T(1);
  T u_u = T(0);
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    T sum = T(0);
#pragma unroll 4
    for (int k = 0; k < count; ++k)
      sum += __ldg(coefficients + k) * basis[static_cast<std::size_t>(k) * ld + i];
    const T u_i = (assign ? T(0) : y[i]) + alpha * sum;
    if (column >= 0) {
      v[i] = scale * u_i;
      target[i] = scale * u_i;
    } else {
      y[i] = u_i;
    }
    u_u += u_i * u_i;
  }
  if (norm_square == nullptr && std::is_same_v<Step, NoScalarStep>) return;  // every block alike
  T unused = T(0);
  if (sum_pair_over_grid(u_u, unused, partials, ticket) && threadIdx.x == 0) {
    if (norm_square != nullptr) *norm_square = u_u;
    *ticket = 0u;
    then(*scalars);
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
  basis_partials_ = DeviceBuffer<T>(static_cast<std::size_t>(max_count + 1) * basis_max_blocks,
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
template <class Step>
void DeviceSpace<T>::basis_dots(std::size_t n, const T* basis, std::size_t ld, const int* count,
                                int max_count, const T* w, T* result, bool with_norm,
                                const Step& then) {
  if (max_count > basis_max_count_)
    throw Error("DeviceSpace::basis_dots: " + std::to_string(max_count) +
                " columns, reserve_basis made room for " + std::to_string(basis_max_count_));
  const int blocks = basis_grid(n);
  const std::size_t chunk = (n + blocks - 1) / blocks;
  basis_dots_kernel<T, Step><<<blocks, basis_block, 0, context_.stream()>>>(
      n, chunk, basis, ld, count, max_count, with_norm, w, basis_partials_.data(),
      basis_ticket_.data(), result, then, scalars_.data());
  SPK_CHECK_LAUNCH("basis_dots_kernel");
}

template <class T>
template <class Step>
void DeviceSpace<T>::basis_combine(std::size_t n, const T* basis, std::size_t ld, const int* count,
                                   const T* coefficients, T alpha, T* y, bool assign,
                                   T* norm_square, const ColumnStore<T>& store, const Step& then) {
  basis_combine_kernel<T, Step><<<fused_reduction::grid(n), basis_block, 0, context_.stream()>>>(
      n, basis, ld, count, coefficients, alpha, y, assign, norm_square, store, partial_sums_.data(),
      last_block_ticket_.data(), then, scalars_.data());
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

#define SPK_INSTANTIATE_DOTS(T, Step)                                                           \
  template void DeviceSpace<T>::basis_dots(std::size_t, const T*, std::size_t, const int*, int, \
                                           const T*, T*, bool, const Step&);
#define SPK_INSTANTIATE_COMBINE(T, Step)                                                        \
  template void DeviceSpace<T>::basis_combine(std::size_t, const T*, std::size_t, const int*,   \
                                              const T*, T, T*, bool, T*, const ColumnStore<T>&, \
                                              const Step&);
#define SPK_INSTANTIATE_BASIS(T)                                                                \
  template void DeviceSpace<T>::reserve_basis(int);                                             \
  template void DeviceSpace<T>::require_free_memory(std::size_t, const std::string&);           \
  template void DeviceSpace<T>::to_column(std::size_t, const T*, const T*, T*, T*, std::size_t, \
                                          const int*);                                          \
  SPK_INSTANTIATE_DOTS(T, NoScalarStep)                                                         \
  SPK_INSTANTIATE_DOTS(T, gmres_steps::AfterFirstDots<T>)                                       \
  SPK_INSTANTIATE_DOTS(T, gmres_steps::AfterSecondDots<T>)                                      \
  SPK_INSTANTIATE_COMBINE(T, NoScalarStep)                                                      \
  SPK_INSTANTIATE_COMBINE(T, gmres_steps::AfterSecondCombine<T>)
SPK_INSTANTIATE_BASIS(float)
SPK_INSTANTIATE_BASIS(double)
#undef SPK_INSTANTIATE_BASIS
#undef SPK_INSTANTIATE_COMBINE
#undef SPK_INSTANTIATE_DOTS

}  // namespace spk
