// cusparse: the vendor baseline, cusparseSpMV on the CSR matrix (copied unchanged on the device:
// copy_pattern and the values in CSR order) with 32-bit indices, y = alpha A x + beta y
// in host pointer mode (apply_scaled passes its alpha and beta through; apply is alpha = 1,
// beta = 0).
//
// spmv.cusparse_algorithm picks the algorithm: alg1 = CUSPARSE_SPMV_CSR_ALG1 (default of
// this project), alg2 = CUSPARSE_SPMV_CSR_ALG2, default = CUSPARSE_SPMV_ALG_DEFAULT.
// At setup the backend creates its own cuSPARSE handle bound to the backend's stream, the
// matrix and dense-vector descriptors, and calls cusparseSpMV_bufferSize and
// cusparseSpMV_preprocess once; the workspace is kept for the backend's lifetime. The
// preprocessing depends on the matrix only (not on x or y), so each apply() just points the
// cached x and y descriptors at the vectors it is given (cusparseDnVecSetValues) and calls
// cusparseSpMV with the same workspace. update_values() scatters the new values into the CSR
// value array in place (one kernel, DeviceValues without a map) and keeps the preprocessing,
// which depends on the sparsity pattern only. A matrix with no rows or no entries never
// reaches cuSPARSE (which rejects some empty shapes): apply() then only writes y = beta y
// (empty_product.hpp).
// spmv.x_cache does not apply: none, ldg and texture are accepted and have no effect; shared
// is refused (by the factory and by set_launch), as by every format without a shared-memory
// path.
#include <cusparse.h>

#include <algorithm>
#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/cuda_check.hpp"
#include "core/cusparse_objects.hpp"
#include "core/device_buffer.hpp"
#include "spmv/device/device_csr.hpp"
#include "spmv/formats/csr_bytes.hpp"
#include "spmv/formats/device_values.hpp"
#include "spmv/formats/empty_product.hpp"
#include "spmv/formats/format_factory_definition.hpp"

namespace spk {

namespace {

cusparseSpMVAlg_t parse_cusparse_algorithm(const std::string& name) {
  if (name == "alg1") return CUSPARSE_SPMV_CSR_ALG1;
  if (name == "alg2") return CUSPARSE_SPMV_CSR_ALG2;
  if (name == "default") return CUSPARSE_SPMV_ALG_DEFAULT;
  throw BadInput("cusparse: spmv.cusparse_algorithm = '" + name +
                 "' is not one of alg1, alg2, default");
}

using HandlePtr = CusparseHandlePtr;
using SpMatPtr = CusparseSpMatPtr;
using DnVecPtr = CusparseDnVecPtr;

template <class T>
class CusparseCsr final : public SpmvBackend<T> {
 public:
  // Refuses an unknown spmv.cusparse_algorithm before the factory uploads the matrix.
  static void check_options(const SpmvOptions& options) {
    parse_cusparse_algorithm(options.cusparse_algorithm);
  }

  CusparseCsr(const DeviceCsr<T>& matrix, const SpmvOptions& options, cudaStream_t stream)
      : SpmvBackend<T>(stream),
        algorithm_name_(options.cusparse_algorithm),
        algorithm_(parse_cusparse_algorithm(options.cusparse_algorithm)),
        matrix_(copy_pattern(matrix, "cusparse", stream)),
        values_(matrix.values, matrix.nnz, "cusparse values", stream) {
    if (uses_cusparse()) create_cusparse_objects();
  }

  // cuSPARSE's own alpha and beta (host pointer mode); with beta == 0 it does not read y.
  void apply_scaled(T alpha, const T* x, T beta, T* y) const override {
    if (matrix_.rows == 0) return;
    if (!uses_cusparse()) {  // no entries: y = beta y
      write_empty_product(y, matrix_.rows, beta, this->stream());
      return;
    }
    SPK_CUSPARSE_CHECK(cusparseDnVecSetValues(x_.get(), const_cast<T*>(x)));
    SPK_CUSPARSE_CHECK(cusparseDnVecSetValues(y_.get(), y));
    SPK_CUSPARSE_CHECK(cusparseSpMV(handle_.get(), CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha,
                                    matrix_descriptor_.get(), x_.get(), &beta, y_.get(),
                                    cuda_value_type<T>(), algorithm_, workspace_.data()));
  }

  index_t rows() const override { return matrix_.rows; }
  index_t cols() const override { return matrix_.cols; }
  std::string name() const override { return "cusparse/" + algorithm_name_; }
  // The CSR arrays plus the SpMV workspace cuSPARSE asked for.
  std::size_t device_bytes() const override {
    return matrix_.device_bytes() + values_.device_bytes() + workspace_.bytes();
  }
  std::size_t bytes_per_spmv() const override {
    return csr_bytes_per_spmv(matrix_.rows, matrix_.cols, static_cast<std::size_t>(matrix_.nnz()),
                              sizeof(T), sizeof(T));
  }
  std::vector<std::pair<std::string, std::string>> details() const override {
    return {{"algorithm", algorithm_name_},
            {"workspace_bytes", std::to_string(workspace_.bytes())},
            {"calls_cusparse", uses_cusparse() ? "yes" : "no (no entries: y = 0)"}};
  }
  // cuSPARSE chooses its own launch: block size, x cache and grid do not apply.
  // Nothing to change; refuses x_cache: shared like the factory.
  void set_launch(const SpmvOptions& options) override {
    const std::string refusal = x_cache_refusal(Format::cusparse, options.x_cache);
    if (!refusal.empty()) throw BadInput("spmv.x_cache: " + refusal);
  }
  // In place, in the array the matrix descriptor points at. The preprocessing is not redone:
  // cuSPARSE's SpMV preprocessing analyses the sparsity pattern, and the matrix's values may
  // change between cusparseSpMV calls (as for SpMM's, whose documentation says so).
  void update_values(const T* values, index_t* first_non_finite) override {
    values_.scatter(values, first_non_finite, this->stream());
  }

 private:
  bool uses_cusparse() const { return matrix_.rows > 0 && matrix_.nnz() > 0; }

  void create_cusparse_objects() {
    handle_ = make_cusparse_handle(this->stream());
    cusparseHandle_t handle = handle_.get();

    cusparseConstSpMatDescr_t matrix = nullptr;
    SPK_CUSPARSE_CHECK(cusparseCreateConstCsr(
        &matrix, matrix_.rows, matrix_.cols, matrix_.nnz(), matrix_.row_offsets.data(),
        matrix_.columns.data(), values_.data(), CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
        CUSPARSE_INDEX_BASE_ZERO, cuda_value_type<T>()));
    matrix_descriptor_.reset(matrix);

    // cuSPARSE refuses null vector pointers: until the first apply() the x and y descriptors
    // point at scratch vectors that live only during setup.
    DeviceBuffer<T> x_scratch(static_cast<std::size_t>(matrix_.cols), "cusparse x scratch");
    DeviceBuffer<T> y_scratch(static_cast<std::size_t>(matrix_.rows), "cusparse y scratch");
    cusparseDnVecDescr_t x = nullptr, y = nullptr;
    SPK_CUSPARSE_CHECK(
        cusparseCreateDnVec(&x, matrix_.cols, x_scratch.data(), cuda_value_type<T>()));
    x_.reset(x);
    SPK_CUSPARSE_CHECK(
        cusparseCreateDnVec(&y, matrix_.rows, y_scratch.data(), cuda_value_type<T>()));
    y_.reset(y);

    const T one = T(1), zero = T(0);
    std::size_t workspace_bytes = 0;
    SPK_CUSPARSE_CHECK(cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one,
                                               matrix, x, &zero, y, cuda_value_type<T>(),
                                               algorithm_, &workspace_bytes));
    workspace_ = DeviceBuffer<unsigned char>(std::max<std::size_t>(workspace_bytes, 1),
                                             "cusparse SpMV workspace");
    preprocess_with(x_scratch.data(), y_scratch.data());
  }

  void preprocess_with(T* x_scratch, T* y_scratch) {
    SPK_CUSPARSE_CHECK(cusparseDnVecSetValues(x_.get(), x_scratch));
    SPK_CUSPARSE_CHECK(cusparseDnVecSetValues(y_.get(), y_scratch));
    const T one = T(1), zero = T(0);
    SPK_CUSPARSE_CHECK(cusparseSpMV_preprocess(
        handle_.get(), CUSPARSE_OPERATION_NON_TRANSPOSE, &one, matrix_descriptor_.get(), x_.get(),
        &zero, y_.get(), cuda_value_type<T>(), algorithm_, workspace_.data()));
    // The scratch vectors are freed by the caller: let the preprocessing finish first.
    SPK_CUDA_CHECK(cudaStreamSynchronize(this->stream()));
  }

  std::string algorithm_name_;
  cusparseSpMVAlg_t algorithm_;
  DeviceCsrMatrix<T> matrix_;  // row offsets and columns; values_ holds the values
  DeviceValues<T> values_;
  HandlePtr handle_;
  SpMatPtr matrix_descriptor_;
  DnVecPtr x_;
  DnVecPtr y_;
  mutable DeviceBuffer<unsigned char> workspace_;  // cuSPARSE may write to it during SpMV
};

}  // namespace

SPK_FORMAT_BACKEND_SAME_PRECISION(Format::cusparse, CusparseCsr)

}  // namespace spk
