#pragma once
// Kernels for the GPU user-operator tests (user_operator_kernels.cu), callable from host code.
#include <cuda_runtime.h>

namespace spk::test {

// y = A x, A the 7-point Laplacian on an n^3 grid (generate_poisson3d's matrix), on `stream`.
void launch_stencil7(const double* x, double* y, int n, cudaStream_t stream);
// z = scale r on `stream`; poison: z[0] = NaN.
void launch_scaling(const double* r, double* z, long long rows, double scale, bool poison,
                    cudaStream_t stream);

}  // namespace spk::test
