#pragma once
// Owning handles for cuSPARSE objects (std::unique_ptr with the matching destroy call), a
// handle bound to a stream, and the cudaDataType of a value type: shared by the cusparse SpMV
// backend (spmv/formats/cusparse_csr.cpp), the IC(0)/ILU(0) triangular solves
// (solver/device_factors.cu) and the AMG setup on the GPU (solver/amg/device_*.cu).
#include <cuda_runtime.h>
#include <cusparse.h>

#include <memory>
#include <type_traits>

#include "core/cuda_check.hpp"

namespace spk {

struct CusparseHandleDestroyer {
  void operator()(cusparseHandle_t handle) const { (void)cusparseDestroy(handle); }
};
struct CusparseSpMatDestroyer {
  void operator()(cusparseConstSpMatDescr_t matrix) const { (void)cusparseDestroySpMat(matrix); }
};
struct CusparseMutableSpMatDestroyer {
  void operator()(cusparseSpMatDescr_t matrix) const { (void)cusparseDestroySpMat(matrix); }
};
struct CusparseSpGemmDestroyer {
  void operator()(cusparseSpGEMMDescr_t descriptor) const {
    (void)cusparseSpGEMM_destroyDescr(descriptor);
  }
};
struct CusparseDnVecDestroyer {
  void operator()(cusparseDnVecDescr_t vector) const { (void)cusparseDestroyDnVec(vector); }
};
using CusparseHandlePtr =
    std::unique_ptr<std::remove_pointer_t<cusparseHandle_t>, CusparseHandleDestroyer>;
using CusparseSpMatPtr =
    std::unique_ptr<std::remove_pointer_t<cusparseConstSpMatDescr_t>, CusparseSpMatDestroyer>;
// A matrix descriptor cuSPARSE may write (the output of a product).
using CusparseMutableSpMatPtr =
    std::unique_ptr<std::remove_pointer_t<cusparseSpMatDescr_t>, CusparseMutableSpMatDestroyer>;
using CusparseSpGemmPtr =
    std::unique_ptr<std::remove_pointer_t<cusparseSpGEMMDescr_t>, CusparseSpGemmDestroyer>;
using CusparseDnVecPtr =
    std::unique_ptr<std::remove_pointer_t<cusparseDnVecDescr_t>, CusparseDnVecDestroyer>;

// A cuSPARSE handle on `stream`, host pointer mode.
inline CusparseHandlePtr make_cusparse_handle(cudaStream_t stream) {
  cusparseHandle_t handle = nullptr;
  SPK_CUSPARSE_CHECK(cusparseCreate(&handle));
  CusparseHandlePtr owned(handle);
  SPK_CUSPARSE_CHECK(cusparseSetStream(handle, stream));
  SPK_CUSPARSE_CHECK(cusparseSetPointerMode(handle, CUSPARSE_POINTER_MODE_HOST));
  return owned;
}

template <class T>
constexpr cudaDataType cuda_value_type() {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>);
  return std::is_same_v<T, double> ? CUDA_R_64F : CUDA_R_32F;
}

}  // namespace spk
