#pragma once
// The baseline `spkrylov bench --solvers` compares against: CG and BiCGSTAB written the way
// NVIDIA's CUDA sample `conjugateGradient` writes CG. cuSPARSE does the SpMV, cuBLAS does
// the vector operations in HOST pointer mode, so every dot product and norm copies its
// result to the host and synchronizes the stream, and the host computes the scalars and
// tests convergence every iteration. It is the style of CuPy's and most tutorials' solvers.
#include <cuda_runtime.h>

#include "spkrylov/options.hpp"
#include "spmv/spmv_backend.hpp"

namespace spk::app {

struct BaselineResult {
  int iterations = 0;
  double residual = 0.0;  // final recursive ||r||
  double solve_s = 0.0;   // wall time of the loop (r0 included, setup excluded)
  bool breakdown = false;
};

// Solves A x = b from x = 0 until ||r|| <= tolerance * ||b|| or max_iterations.
// b and x are device vectors of matrix.rows() entries.
template <class T>
BaselineResult baseline_solve(Method method, const SpmvBackend<T>& matrix, const T* b, T* x,
                              double tolerance, int max_iterations, cudaStream_t stream);

}  // namespace spk::app
