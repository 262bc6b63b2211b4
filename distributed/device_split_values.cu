#include "core/cuda_check.hpp"
#include "core/device_kernels.cuh"
#include "distributed/device_split_values.hpp"

namespace spk {

namespace {

template <class T>
__global__ void __launch_bounds__(kSetupBlockSize)
    split_values_kernel(index_t rows, index_t own_columns,
                        const index_t* __restrict__ pattern_offsets,
                        const index_t* __restrict__ pattern_columns, const T* __restrict__ values,
                        const index_t* __restrict__ local_offsets,
                        const index_t* __restrict__ halo_offsets, T* __restrict__ local_values,
                        T* __restrict__ halo_values) {
  for_each_index(rows, [&](index_t row) {
    index_t local = local_offsets[row], halo = halo_offsets[row];
    for (index_t k = pattern_offsets[row]; k < pattern_offsets[row + 1]; ++k) {
      if (pattern_columns[k] < own_columns)
        local_values[local++] = values[k];
      else
        halo_values[halo++] = values[k];
    }
  });
}

template <class T>
__global__ void __launch_bounds__(kSetupBlockSize)
    first_non_finite_kernel(index_t count, const T* __restrict__ values, index_t* first) {
  for_each_index(count, [&](index_t k) {
    if (!isfinite(values[k])) atomicMin(first, k);
  });
}

}  // namespace

template <class T>
void find_first_non_finite(index_t count, const T* values, index_t* first, cudaStream_t stream) {
  SPK_CUDA_CHECK(cudaMemsetAsync(first, 0x7f, sizeof(index_t), stream));  // above any count
  if (count == 0) return;
  first_non_finite_kernel<T>
      <<<setup_grid(count), kSetupBlockSize, 0, stream>>>(count, values, first);
  SPK_CHECK_LAUNCH("first_non_finite_kernel");
}

template <class T>
void split_values_on_device(index_t rows, index_t own_columns, const index_t* pattern_offsets,
                            const index_t* pattern_columns, const T* values,
                            const index_t* local_offsets, const index_t* halo_offsets,
                            T* local_values, T* halo_values, cudaStream_t stream) {
  if (rows == 0) return;
  split_values_kernel<T><<<setup_grid(rows), kSetupBlockSize, 0, stream>>>(
      rows, own_columns, pattern_offsets, pattern_columns, values, local_offsets, halo_offsets,
      local_values, halo_values);
  SPK_CHECK_LAUNCH("split_values_kernel");
}

template void find_first_non_finite<float>(index_t, const float*, index_t*, cudaStream_t);
template void find_first_non_finite<double>(index_t, const double*, index_t*, cudaStream_t);
template void split_values_on_device<float>(index_t, index_t, const index_t*, const index_t*,
                                            const float*, const index_t*, const index_t*, float*,
                                            float*, cudaStream_t);
template void split_values_on_device<double>(index_t, index_t, const index_t*, const index_t*,
                                             const double*, const index_t*, const index_t*, double*,
                                             double*, cudaStream_t);

}  // namespace spk
