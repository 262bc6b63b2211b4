#pragma once
// Checks for every CUDA runtime, cuBLAS and cuSPARSE call, and for every kernel launch.
// A failure throws spk::CudaError naming the call, the status and the source location.
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusparse.h>

#include <string>

#include "spkrylov/errors.hpp"

namespace spk::detail {

[[noreturn]] void throw_cuda_error(cudaError_t status, const char* call, const char* file,
                                   int line);
[[noreturn]] void throw_cublas_error(cublasStatus_t status, const char* call, const char* file,
                                     int line);
[[noreturn]] void throw_cusparse_error(cusparseStatus_t status, const char* call, const char* file,
                                       int line);

}  // namespace spk::detail

#define SPK_CUDA_CHECK(call)                                                   \
  do {                                                                         \
    const cudaError_t spk_status_ = (call);                                    \
    if (spk_status_ != cudaSuccess)                                            \
      ::spk::detail::throw_cuda_error(spk_status_, #call, __FILE__, __LINE__); \
  } while (0)

#define SPK_CUBLAS_CHECK(call)                                                   \
  do {                                                                           \
    const cublasStatus_t spk_status_ = (call);                                   \
    if (spk_status_ != CUBLAS_STATUS_SUCCESS)                                    \
      ::spk::detail::throw_cublas_error(spk_status_, #call, __FILE__, __LINE__); \
  } while (0)

#define SPK_CUSPARSE_CHECK(call)                                                   \
  do {                                                                             \
    const cusparseStatus_t spk_status_ = (call);                                   \
    if (spk_status_ != CUSPARSE_STATUS_SUCCESS)                                    \
      ::spk::detail::throw_cusparse_error(spk_status_, #call, __FILE__, __LINE__); \
  } while (0)

// After every <<<...>>> launch: catches bad configurations and launch failures at once.
#define SPK_CHECK_LAUNCH(kernel_name)                                                             \
  do {                                                                                            \
    const cudaError_t spk_status_ = cudaGetLastError();                                           \
    if (spk_status_ != cudaSuccess)                                                               \
      ::spk::detail::throw_cuda_error(spk_status_, "launch of " kernel_name, __FILE__, __LINE__); \
  } while (0)
