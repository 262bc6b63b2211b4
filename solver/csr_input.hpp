#pragma once
// The matrix a caller hands to spk::Solver (CsrArrays), checked and brought where the solver
// needs it, with the same checks and the same one-line errors (spk::BadInput) whether the
// arrays are host or device memory:
//
//   sizes          rows and cols not negative
//   pointers       row_offsets never null, columns and values not null when nnz > 0; with
//                  on_device, memory the GPU can read
//   row_offsets    start at 0, end at nnz >= 0, never decrease (the first decreasing row named)
//   columns        in 0 .. cols-1 (the first bad entry's column and row named)
//   the system     square, not empty, every value finite (the first bad entry's row and column
//                  named), solver.tolerance > 0 and finite, solver.max_iterations >= 0
// Rows are 0-based in every message.
//
//   host_matrix_from_arrays   a host CsrMatrix copy (device arrays are downloaded), checked on
//                             the host: the CPU path, and the GPU path of host arrays (which
//                             then uploads it once)
//   checked_device_csr        device arrays checked where they are: reductions on the device
//                             read back a few integers (spmv/device/csr_checks.hpp); nothing
//                             is copied, the result is a view of the caller's arrays with the
//                             row statistics (spmv/device/device_csr.hpp). The GPU path of
//                             device arrays builds every format from it.
#include <cuda_runtime.h>

#include <cstddef>
#include <string>
#include <vector>

#include "spkrylov/csr_arrays.hpp"
#include "spkrylov/options.hpp"
#include "spmv/device/device_csr.hpp"
#include "spmv/host/csr_matrix.hpp"

namespace spk {

template <class T>
CsrMatrix<T> host_matrix_from_arrays(const CsrArrays<T>& arrays, const SolverOptions& options);

// The arrays are read on `stream`.
template <class T>
DeviceCsr<T> checked_device_csr(const CsrArrays<T>& arrays, const SolverOptions& options,
                                cudaStream_t stream);

// A host copy of `count` elements at `source` (device memory when on_device); `what` names
// the array in the error for a null pointer.
template <class U>
std::vector<U> copy_to_host(const U* source, std::size_t count, bool on_device, const char* what);

}  // namespace spk
