#include <cstring>
#include <limits>

#include "core/device_kernels.cuh"
#include "solver/device_space.cuh"
#include "solver/jacobi_entry.hpp"
#include "solver/lanczos_start.hpp"

namespace spk {

namespace {

int blas_length(std::size_t n) {
  if (n > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    throw BadInput("vector length " + std::to_string(n) + " exceeds cuBLAS's 32-bit limit");
  return static_cast<int>(n);
}

cublasStatus_t blas_dot(cublasHandle_t h, int n, const float* x, const float* y, float* r) {
  return cublasSdot(h, n, x, 1, y, 1, r);
}
cublasStatus_t blas_dot(cublasHandle_t h, int n, const double* x, const double* y, double* r) {
  return cublasDdot(h, n, x, 1, y, 1, r);
}
cublasStatus_t blas_axpy(cublasHandle_t h, int n, const float* a, const float* x, float* y) {
  return cublasSaxpy(h, n, a, x, 1, y, 1);
}
cublasStatus_t blas_axpy(cublasHandle_t h, int n, const double* a, const double* x, double* y) {
  return cublasDaxpy(h, n, a, x, 1, y, 1);
}
cublasStatus_t blas_scal(cublasHandle_t h, int n, const float* a, float* x) {
  return cublasSscal(h, n, a, x, 1);
}
cublasStatus_t blas_scal(cublasHandle_t h, int n, const double* a, double* x) {
  return cublasDscal(h, n, a, x, 1);
}
cublasStatus_t blas_copy(cublasHandle_t h, int n, const float* x, float* y) {
  return cublasScopy(h, n, x, 1, y, 1);
}
cublasStatus_t blas_copy(cublasHandle_t h, int n, const double* x, double* y) {
  return cublasDcopy(h, n, x, 1, y, 1);
}

template <class T>
__global__ void multiply_elementwise_kernel(std::size_t n, const T* __restrict__ d,
                                            const T* __restrict__ x, T* __restrict__ y) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride)
    y[i] = d[i] * x[i];
}

template <class T>
__global__ void gather_kernel(std::size_t n, const T* __restrict__ values,
                              const index_t* __restrict__ positions, T* __restrict__ result) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride)
    result[i] = values[positions[i]];
}

template <class T>
__global__ void lanczos_start_kernel(std::size_t n, std::size_t first_index, T* __restrict__ v) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride)
    v[i] = static_cast<T>(lanczos_start_entry(first_index + i));
}

template <class U, class T>
__global__ void convert_kernel(std::size_t n, const U* __restrict__ from, T* __restrict__ to) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride)
    to[i] = static_cast<T>(from[i]);
}

// One Chebyshev step (DeviceSpace::polynomial_step).
template <class T>
__global__ void polynomial_step_kernel(std::size_t n, const T* __restrict__ inverse_diagonal,
                                       const T* __restrict__ r, const T* __restrict__ c,
                                       T* __restrict__ d, T* __restrict__ x, bool first,
                                       bool assign) {
  const T c_d = c[0], c_z = c[1];
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    const T z = c_z * inverse_diagonal[i] * r[i];
    const T step = first ? z : c_d * d[i] + z;
    d[i] = step;
    x[i] = assign ? step : x[i] + step;
  }
}

template <class T>
__global__ void __launch_bounds__(1) square_root_kernel(T* value) {
  *value = norm_from_square(*value);
}

template <class T>
__global__ void invert_entries_kernel(std::size_t n, const T* __restrict__ values,
                                      const index_t* __restrict__ positions, T* __restrict__ result,
                                      std::uint64_t* fault) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    const std::uint64_t code = invert_entry(values, positions[i], result[i]);
    if (code != diagonal_fault::no_fault)
      atomicMin(reinterpret_cast<unsigned long long*>(fault),
                static_cast<unsigned long long>(4 * i + code));
  }
}

// *bound = max over rows of gershgorin_row_ratio, as the bits of a non-negative double (whose
// order is the order of the values): atomicMax gives the same result in any order.
template <class T>
__global__ void gershgorin_kernel(std::size_t n, const index_t* __restrict__ row_offsets,
                                  const T* __restrict__ values,
                                  const index_t* __restrict__ positions,
                                  unsigned long long* bound) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  double largest = 0.0;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride)
    largest = fmax(largest, gershgorin_row_ratio(i, row_offsets, values, positions));
  if (largest > 0.0)
    atomicMax(bound, static_cast<unsigned long long>(__double_as_longlong(largest)));
}

__global__ void __launch_bounds__(kSetupBlockSize)
    diagonal_positions_kernel(index_t rows, const index_t* __restrict__ row_offsets,
                              const index_t* __restrict__ columns,
                              index_t* __restrict__ positions) {
  for_each_row_by_warp(rows, [&](index_t row, index_t lane) {
    const index_t found =
        last_diagonal_entry(row, row_offsets[row] + lane, row_offsets[row + 1], 32, columns);
    const index_t last = warp_max(found);
    if (lane == 0) positions[row] = last;
  });
}

// p = r + beta (p - omega v); p_hat = dinv .* p (dinv given)
template <class T>
__global__ void bicgstab_direction_kernel(std::size_t n, const T* __restrict__ r,
                                          const T* __restrict__ v, const T* __restrict__ beta,
                                          const T* __restrict__ omega, T* __restrict__ p,
                                          const T* __restrict__ inverse_diagonal,
                                          T* __restrict__ p_hat) {
  const T b = *beta, w = *omega;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    const T p_i = r[i] + b * (p[i] - w * v[i]);
    p[i] = p_i;
    if (inverse_diagonal != nullptr) p_hat[i] = inverse_diagonal[i] * p_i;
  }
}

// x += alpha p; p = (dinv .* r, or r) + beta p
template <class T>
__global__ void cg_direction_kernel(std::size_t n, const T* __restrict__ alpha,
                                    const T* __restrict__ beta, T* __restrict__ x,
                                    T* __restrict__ p, const T* __restrict__ r,
                                    const T* __restrict__ inverse_diagonal) {
  const T a = *alpha, b = *beta;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    const T p_i = p[i];
    x[i] += a * p_i;
    p[i] = (inverse_diagonal != nullptr ? inverse_diagonal[i] * r[i] : r[i]) + b * p_i;
  }
}

unsigned int elementwise_grid(std::size_t n, int block) {
  const std::size_t blocks = (n + block - 1) / block;
  return static_cast<unsigned>(blocks < 65535u * 16u ? blocks : 65535u * 16u);
}

}  // namespace

template <class T>
DeviceSpace<T>::DeviceSpace(DeviceContext& context)
    : context_(context),
      scalars_(1, "solver scalars"),
      partial_sums_(3 * fused_reduction::max_blocks, "fused vector ops' partial sums"),
      last_block_ticket_(1, "fused vector ops' block ticket") {
  SPK_CUDA_CHECK(
      cudaMemsetAsync(last_block_ticket_.data(), 0, sizeof(unsigned int), context_.stream()));
  write_scalars(KrylovScalars<T>{});
}

template <class T>
void DeviceSpace<T>::destroy(CapturedGraph& graph) noexcept {
  if (graph.exec != nullptr) (void)cudaGraphExecDestroy(graph.exec);
  if (graph.graph != nullptr) (void)cudaGraphDestroy(graph.graph);
  graph = CapturedGraph{};
}

template <class T>
void DeviceSpace<T>::destroy_graph() noexcept {
  for (CapturedGraph& graph : graphs_) destroy(graph);
  next_slot_ = 0;
}

template <class T>
KrylovScalars<T> DeviceSpace<T>::read_scalars() {
  KrylovScalars<T> values;
  context_.wait_before_host_copy();
  SPK_CUDA_CHECK(cudaMemcpyAsync(&values, scalars_.data(), sizeof(values), cudaMemcpyDeviceToHost,
                                 context_.stream()));
  context_.synchronize();
  return values;
}

template <class T>
void DeviceSpace<T>::write_scalars(const KrylovScalars<T>& values) {
  context_.wait_before_host_copy();
  SPK_CUDA_CHECK(cudaMemcpyAsync(scalars_.data(), &values, sizeof(values), cudaMemcpyHostToDevice,
                                 context_.stream()));
  // `values` may be a temporary: wait until the copy has read it.
  context_.synchronize();
}

template <class T>
void DeviceSpace<T>::dot(std::size_t n, const T* x, const T* y, T* result) {
  SPK_CUBLAS_CHECK(blas_dot(context_.cublas(), blas_length(n), x, y, result));
}
template <class T>
void DeviceSpace<T>::square_root(T* value) {
  square_root_kernel<<<1, 1, 0, context_.stream()>>>(value);
  SPK_CHECK_LAUNCH("square_root_kernel");
}
template <class T>
void DeviceSpace<T>::axpy(std::size_t n, const T* alpha, const T* x, T* y) {
  SPK_CUBLAS_CHECK(blas_axpy(context_.cublas(), blas_length(n), alpha, x, y));
}
template <class T>
void DeviceSpace<T>::scal(std::size_t n, const T* alpha, T* x) {
  SPK_CUBLAS_CHECK(blas_scal(context_.cublas(), blas_length(n), alpha, x));
}
template <class T>
void DeviceSpace<T>::copy(std::size_t n, const T* x, T* y) {
  SPK_CUBLAS_CHECK(blas_copy(context_.cublas(), blas_length(n), x, y));
}
template <class T>
void DeviceSpace<T>::fill_zero(std::size_t n, T* x) {
  if (n > 0) SPK_CUDA_CHECK(cudaMemsetAsync(x, 0, n * sizeof(T), context_.stream()));
}
template <class T>
void DeviceSpace<T>::multiply_elementwise(std::size_t n, const T* d, const T* x, T* y) {
  if (n == 0) return;
  constexpr int block = 256;
  multiply_elementwise_kernel<<<elementwise_grid(n, block), block, 0, context_.stream()>>>(n, d, x,
                                                                                           y);
  SPK_CHECK_LAUNCH("multiply_elementwise_kernel");
}

template <class T>
void DeviceSpace<T>::gather(std::size_t n, const T* values, const index_t* positions, T* result) {
  if (n == 0) return;
  constexpr int block = 256;
  gather_kernel<<<elementwise_grid(n, block), block, 0, context_.stream()>>>(n, values, positions,
                                                                             result);
  SPK_CHECK_LAUNCH("gather_kernel");
}

template <class T>
void DeviceSpace<T>::polynomial_step(std::size_t n, const T* inverse_diagonal, const T* r,
                                     const T* coefficients, T* d, T* x, bool first, bool assign) {
  if (n == 0) return;
  constexpr int block = 256;
  polynomial_step_kernel<<<elementwise_grid(n, block), block, 0, context_.stream()>>>(
      n, inverse_diagonal, r, coefficients, d, x, first, assign);
  SPK_CHECK_LAUNCH("polynomial_step_kernel");
}

template <class T>
void DeviceSpace<T>::find_diagonal_positions(index_t rows, const index_t* row_offsets,
                                             const index_t* columns, index_t* positions) {
  if (rows == 0) return;
  diagonal_positions_kernel<<<setup_grid(std::int64_t{rows} * 32), kSetupBlockSize, 0,
                              context_.stream()>>>(rows, row_offsets, columns, positions);
  SPK_CHECK_LAUNCH("diagonal_positions_kernel");
}

template <class T>
void DeviceSpace<T>::invert_entries(std::size_t n, const T* values, const index_t* positions,
                                    T* result, std::uint64_t* fault) {
  // 0xff bytes: diagonal_fault::no_fault, lowered by atomicMin to the first bad row's code.
  SPK_CUDA_CHECK(cudaMemsetAsync(fault, 0xff, sizeof(std::uint64_t), context_.stream()));
  if (n == 0) return;
  constexpr int block = 256;
  invert_entries_kernel<<<elementwise_grid(n, block), block, 0, context_.stream()>>>(
      n, values, positions, result, fault);
  SPK_CHECK_LAUNCH("invert_entries_kernel");
}

template <class T>
double DeviceSpace<T>::gershgorin_bound(std::size_t n, const index_t* row_offsets, const T* values,
                                        const index_t* positions) {
  DeviceBuffer<unsigned long long> bound(1, "Gershgorin bound");
  SPK_CUDA_CHECK(cudaMemsetAsync(bound.data(), 0, sizeof(unsigned long long), context_.stream()));
  if (n > 0) {
    constexpr int block = 256;
    gershgorin_kernel<<<elementwise_grid(n, block), block, 0, context_.stream()>>>(
        n, row_offsets, values, positions, bound.data());
    SPK_CHECK_LAUNCH("gershgorin_kernel");
  }
  const unsigned long long bits = download(bound.data(), 1)[0];
  double result = 0.0;
  static_assert(sizeof(result) == sizeof(bits), "double is 64 bits");
  std::memcpy(&result, &bits, sizeof(result));
  return result;
}

template <class T>
void DeviceSpace<T>::bicgstab_direction(std::size_t n, const T* r, const T* v, const T* beta,
                                        const T* omega, T* p, const T* inverse_diagonal, T* p_hat) {
  if (n == 0) return;
  bicgstab_direction_kernel<<<elementwise_grid(n, fused_reduction::block), fused_reduction::block,
                              0, context_.stream()>>>(n, r, v, beta, omega, p, inverse_diagonal,
                                                      p_hat);
  SPK_CHECK_LAUNCH("bicgstab_direction_kernel");
}

template <class T>
void DeviceSpace<T>::cg_direction(std::size_t n, const T* alpha, const T* beta, T* x, T* p,
                                  const T* r, const T* inverse_diagonal) {
  if (n == 0) return;
  cg_direction_kernel<<<elementwise_grid(n, fused_reduction::block), fused_reduction::block, 0,
                        context_.stream()>>>(n, alpha, beta, x, p, r, inverse_diagonal);
  SPK_CHECK_LAUNCH("cg_direction_kernel");
}

template <class T>
void DeviceSpace<T>::fill_lanczos_start(std::size_t n, std::size_t first_index, T* v) {
  if (n == 0) return;
  constexpr int block = 256;
  lanczos_start_kernel<<<elementwise_grid(n, block), block, 0, context_.stream()>>>(n, first_index,
                                                                                    v);
  SPK_CHECK_LAUNCH("lanczos_start_kernel");
}

template <class T>
template <class U>
void DeviceSpace<T>::convert(std::size_t n, const U* from, T* to) {
  if (n == 0) return;
  constexpr int block = 256;
  convert_kernel<<<elementwise_grid(n, block), block, 0, context_.stream()>>>(n, from, to);
  SPK_CHECK_LAUNCH("convert_kernel");
}

template class DeviceSpace<float>;
template class DeviceSpace<double>;
template void DeviceSpace<float>::convert<double>(std::size_t, const double*, float*);
template void DeviceSpace<double>::convert<float>(std::size_t, const float*, double*);

}  // namespace spk
