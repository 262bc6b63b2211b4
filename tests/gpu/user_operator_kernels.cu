// The device kernels of tests/gpu/test_user_operator_gpu.cpp's user operators: a matrix-free
// 7-point stencil and a scaling, each launched on the stream the solver gives its operators.
#include "core/cuda_check.hpp"
#include "tests/gpu/user_operator_kernels.hpp"

namespace spk::test {

namespace {

unsigned blocks_for(long long rows) {
  return static_cast<unsigned>((rows + 255) / 256);
}

// y = A x for the 7-point Laplacian on an n^3 grid (generate_poisson3d's matrix), one thread
// a row.
__global__ void stencil7_kernel(const double* x, double* y, int n) {
  const long long rows = static_cast<long long>(n) * n * n;
  const long long row = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  const long long plane = static_cast<long long>(n) * n;
  const int i = static_cast<int>(row % n), j = static_cast<int>((row / n) % n);
  const int k = static_cast<int>(row / plane);
  double sum = 6.0 * x[row];
  if (i > 0) sum -= x[row - 1];
  if (i + 1 < n) sum -= x[row + 1];
  if (j > 0) sum -= x[row - n];
  if (j + 1 < n) sum -= x[row + n];
  if (k > 0) sum -= x[row - plane];
  if (k + 1 < n) sum -= x[row + plane];
  y[row] = sum;
}

__global__ void scale_kernel(const double* r, double* z, long long rows, double scale,
                             bool poison) {
  const long long row = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  z[row] = (poison && row == 0) ? __longlong_as_double(0x7ff8000000000000LL) : scale * r[row];
}

}  // namespace

void launch_stencil7(const double* x, double* y, int n, cudaStream_t stream) {
  const long long rows = static_cast<long long>(n) * n * n;
  stencil7_kernel<<<blocks_for(rows), 256, 0, stream>>>(x, y, n);
  SPK_CHECK_LAUNCH("stencil7_kernel");
}

void launch_scaling(const double* r, double* z, long long rows, double scale, bool poison,
                    cudaStream_t stream) {
  scale_kernel<<<blocks_for(rows), 256, 0, stream>>>(r, z, rows, scale, poison);
  SPK_CHECK_LAUNCH("scale_kernel");
}

}  // namespace spk::test
