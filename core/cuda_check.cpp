#include "core/cuda_check.hpp"

#include <sstream>

namespace spk::detail {

namespace {
std::string location(const char* file, int line) {
  std::string path(file);
  const auto slash = path.find_last_of('/');
  return (slash == std::string::npos ? path : path.substr(slash + 1)) + ":" + std::to_string(line);
}
}  // namespace

void throw_cuda_error(cudaError_t status, const char* call, const char* file, int line) {
  std::ostringstream message;
  message << "CUDA error " << cudaGetErrorName(status) << " (" << cudaGetErrorString(status)
          << ") in " << call << " at " << location(file, line);
  throw CudaError(message.str());
}

void throw_cublas_error(cublasStatus_t status, const char* call, const char* file, int line) {
  std::ostringstream message;
  message << "cuBLAS error " << cublasGetStatusName(status) << " in " << call << " at "
          << location(file, line);
  throw CudaError(message.str());
}

void throw_cusparse_error(cusparseStatus_t status, const char* call, const char* file, int line) {
  std::ostringstream message;
  message << "cuSPARSE error " << cusparseGetErrorName(status) << " ("
          << cusparseGetErrorString(status) << ") in " << call << " at " << location(file, line);
  throw CudaError(message.str());
}

}  // namespace spk::detail
