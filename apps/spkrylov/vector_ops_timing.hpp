#pragma once
// The vector-operation part of one Krylov iteration, timed alone: the same cuBLAS calls
// (device pointer mode, same lengths) that one CG or BiCGSTAB iteration makes, without the
// SpMV and without the scalar-step kernels. `bench --solvers` compares the measured
// per-iteration time with (SpMVs per iteration) x (SpMV alone) + this, to show how much
// the loop itself adds.
//
// The call lists mirror solver/cg.hpp and solver/bicgstab.hpp (unpreconditioned):
//   CG:       dot, axpy, axpy, dot, scal, axpy                               (6 calls, 2 SpMV-free)
//   BiCGSTAB: dot, axpy, scal, axpy, dot, axpy, axpy, norm, dot, dot, axpy, axpy, norm (13;
//             a norm is a dot and a one-thread square root, solver/vector_space.hpp)
#include <cuda_runtime.h>

#include "spkrylov/options.hpp"
#include "spmv/host/csr_matrix.hpp"

namespace spk::app {

// Median ms of one iteration's vector operations on vectors of n entries.
template <class T>
double time_vector_ops_ms(Method method, index_t n, int runs);

}  // namespace spk::app
