#include <cstring>

#include "core/cuda_check.hpp"
#include "solver/device_factors.hpp"
#include "solver/factor_rows.hpp"

namespace spk {

namespace {

constexpr int kFactorBlock = 128;

unsigned int blocks_for(std::size_t count) {
  return static_cast<unsigned int>((count + kFactorBlock - 1) / kFactorBlock);
}

// values[p] = csr_values[csr_position[p]]: the caller's CSR order into the sorted storage (0
// for an inserted diagonal entry, csr_position -1).
template <class T>
__global__ void gather_factor_values(std::size_t nnz, const index_t* __restrict__ csr_position,
                                     const T* __restrict__ csr_values, T* __restrict__ values) {
  const std::size_t p = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (p < nnz) values[p] = csr_position[p] < 0 ? T(0) : csr_values[csr_position[p]];
}

// a_ii *= 1 + shift: A + shift diag(A).
template <class T>
__global__ void shift_diagonal(index_t rows, const index_t* __restrict__ diagonal, T factor,
                               T* values) {
  const std::int64_t row_64 = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (row_64 >= rows) return;  // 64-bit: the 32-bit product wraps in a last block near 2^31
  const auto row = static_cast<index_t>(row_64);
  values[diagonal[row]] *= factor;
}

// The rows of one level, a thread each; the first bad pivot by atomicMin of its code, the
// replaced pivots counted by atomicAdd.
template <class T>
__global__ void factor_level(FactorKind kind, index_t count, const index_t* __restrict__ rows,
                             const index_t* __restrict__ row_offsets,
                             const index_t* __restrict__ columns,
                             const index_t* __restrict__ diagonal, T* values, bool replace_tiny,
                             std::uint64_t* status) {
  const std::int64_t t_64 = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t_64 >= count) return;  // 64-bit: the 32-bit product wraps in a last block near 2^31
  const auto t = static_cast<index_t>(t_64);
  const index_t row = rows[t];
  bool replaced = false;
  const std::uint64_t code =
      factor_row(kind, row, row_offsets, columns, diagonal, values, replace_tiny, replaced);
  if (code != diagonal_fault::no_fault)
    atomicMin(reinterpret_cast<unsigned long long*>(status + factor_status::fault),
              static_cast<unsigned long long>(code));
  if (replaced)
    atomicAdd(reinterpret_cast<unsigned long long*>(status + factor_status::replaced), 1ULL);
}

// IC(0): the upper triangle holds L^T.
template <class T>
__global__ void mirror_lower_triangle(std::size_t count, const index_t* __restrict__ lower,
                                      const index_t* __restrict__ upper, T* values) {
  const std::size_t k = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k < count) values[upper[k]] = values[lower[k]];
}

}  // namespace

template <class T>
DeviceFactors<T>::DeviceFactors(DeviceSpace<T>& space, const FactorPattern& pattern)
    : space_(space),
      kind_(pattern.kind),
      rows_(pattern.rows),
      level_offsets_(pattern.level_offsets),
      row_offsets_(pattern.row_offsets, "factor row offsets"),
      columns_(pattern.columns, "factor columns"),
      csr_position_(pattern.csr_position, "factor value positions"),
      diagonal_(pattern.diagonal, "factor diagonal positions"),
      mirror_lower_(pattern.mirror_lower, "IC(0) lower entries"),
      mirror_upper_(pattern.mirror_upper, "IC(0) mirrored entries"),
      level_rows_(pattern.level_rows, "factor level rows"),
      values_(pattern.nnz(), "factor values"),
      forward_(static_cast<std::size_t>(pattern.rows), "forward solve result"),
      handle_(make_cusparse_handle(space.stream())) {
  cusparseDnVecDescr_t x = nullptr, y = nullptr;
  SPK_CUSPARSE_CHECK(cusparseCreateDnVec(&x, rows_, forward_.data(), cuda_value_type<T>()));
  x_.reset(x);
  SPK_CUSPARSE_CHECK(cusparseCreateDnVec(&y, rows_, forward_.data(), cuda_value_type<T>()));
  y_.reset(y);
  lower_ =
      make_triangle(CUSPARSE_FILL_MODE_LOWER, kind_ == FactorKind::ic0 ? CUSPARSE_DIAG_TYPE_NON_UNIT
                                                                       : CUSPARSE_DIAG_TYPE_UNIT);
  upper_ = make_triangle(CUSPARSE_FILL_MODE_UPPER, CUSPARSE_DIAG_TYPE_NON_UNIT);
}

template <class T>
typename DeviceFactors<T>::Triangle DeviceFactors<T>::make_triangle(cusparseFillMode_t fill,
                                                                    cusparseDiagType_t diag) {
  Triangle triangle;
  cusparseConstSpMatDescr_t matrix = nullptr;
  SPK_CUSPARSE_CHECK(cusparseCreateConstCsr(
      &matrix, rows_, rows_, static_cast<std::int64_t>(values_.size()), row_offsets_.data(),
      columns_.data(), values_.data(), CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
      CUSPARSE_INDEX_BASE_ZERO, cuda_value_type<T>()));
  triangle.matrix.reset(matrix);
  // The attributes are set through the non-const descriptor type cuSPARSE declares for them.
  auto* mutable_matrix = const_cast<cusparseSpMatDescr_t>(matrix);
  SPK_CUSPARSE_CHECK(
      cusparseSpMatSetAttribute(mutable_matrix, CUSPARSE_SPMAT_FILL_MODE, &fill, sizeof(fill)));
  SPK_CUSPARSE_CHECK(
      cusparseSpMatSetAttribute(mutable_matrix, CUSPARSE_SPMAT_DIAG_TYPE, &diag, sizeof(diag)));
  cusparseSpSVDescr_t solve = nullptr;
  SPK_CUSPARSE_CHECK(cusparseSpSV_createDescr(&solve));
  triangle.solve.reset(solve);
  const T one = T(1);
  std::size_t bytes = 0;
  SPK_CUSPARSE_CHECK(cusparseSpSV_bufferSize(handle_.get(), CUSPARSE_OPERATION_NON_TRANSPOSE, &one,
                                             matrix, x_.get(), y_.get(), cuda_value_type<T>(),
                                             CUSPARSE_SPSV_ALG_DEFAULT, solve, &bytes));
  triangle.buffer = DeviceBuffer<unsigned char>(bytes, "cusparseSpSV buffer");
  return triangle;
}

template <class T>
void DeviceFactors<T>::factor(const T* csr_values, const FactorRequest& request,
                              std::uint64_t* status) {
  const cudaStream_t stream = space_.stream();
  SPK_CUDA_CHECK(cudaMemsetAsync(status + factor_status::fault, 0xff, sizeof(std::uint64_t),
                                 stream));  // no_fault
  SPK_CUDA_CHECK(
      cudaMemsetAsync(status + factor_status::replaced, 0, sizeof(std::uint64_t), stream));
  const std::size_t nnz = values_.size();
  gather_factor_values<<<blocks_for(nnz), kFactorBlock, 0, stream>>>(nnz, csr_position_.data(),
                                                                     csr_values, values_.data());
  SPK_CHECK_LAUNCH("gather_factor_values");
  if (request.shift != 0.0) {
    shift_diagonal<<<blocks_for(static_cast<std::size_t>(rows_)), kFactorBlock, 0, stream>>>(
        rows_, diagonal_.data(), static_cast<T>(1.0 + request.shift), values_.data());
    SPK_CHECK_LAUNCH("shift_diagonal");
  }
  for (std::size_t level = 0; level + 1 < level_offsets_.size(); ++level) {
    const index_t first = level_offsets_[level];
    const index_t count = level_offsets_[level + 1] - first;
    factor_level<<<blocks_for(static_cast<std::size_t>(count)), kFactorBlock, 0, stream>>>(
        kind_, count, level_rows_.data() + first, row_offsets_.data(), columns_.data(),
        diagonal_.data(), values_.data(), request.replace_tiny_pivots, status);
    SPK_CHECK_LAUNCH("factor_level");
  }
  if (mirror_lower_.size() > 0) {
    mirror_lower_triangle<<<blocks_for(mirror_lower_.size()), kFactorBlock, 0, stream>>>(
        mirror_lower_.size(), mirror_lower_.data(), mirror_upper_.data(), values_.data());
    SPK_CHECK_LAUNCH("mirror_lower_triangle");
  }
  const T one = T(1);
  for (Triangle* triangle : {&lower_, &upper_}) {
    if (analysed_)
      SPK_CUSPARSE_CHECK(cusparseSpSV_updateMatrix(handle_.get(), triangle->solve.get(),
                                                   values_.data(), CUSPARSE_SPSV_UPDATE_GENERAL));
    else
      SPK_CUSPARSE_CHECK(cusparseSpSV_analysis(handle_.get(), CUSPARSE_OPERATION_NON_TRANSPOSE,
                                               &one, triangle->matrix.get(), x_.get(), y_.get(),
                                               cuda_value_type<T>(), CUSPARSE_SPSV_ALG_DEFAULT,
                                               triangle->solve.get(), triangle->buffer.data()));
  }
  analysed_ = true;
}

template <class T>
void DeviceFactors<T>::solve_triangle(Triangle& triangle, const T* x, T* y) {
  const T one = T(1);
  SPK_CUSPARSE_CHECK(cusparseDnVecSetValues(x_.get(), const_cast<T*>(x)));
  SPK_CUSPARSE_CHECK(cusparseDnVecSetValues(y_.get(), y));
  SPK_CUSPARSE_CHECK(cusparseSpSV_solve(
      handle_.get(), CUSPARSE_OPERATION_NON_TRANSPOSE, &one, triangle.matrix.get(), x_.get(),
      y_.get(), cuda_value_type<T>(), CUSPARSE_SPSV_ALG_DEFAULT, triangle.solve.get()));
}

template <class T>
void DeviceFactors<T>::solve(const T* r, T* z) {
  solve_triangle(lower_, r, forward_.data());  // L y = r
  solve_triangle(upper_, forward_.data(), z);  // U z = y
}

template <class T>
std::size_t DeviceFactors<T>::bytes() const {
  return values_.bytes() + forward_.bytes() + row_offsets_.bytes() + columns_.bytes() +
         csr_position_.bytes() + diagonal_.bytes() + mirror_lower_.bytes() + mirror_upper_.bytes() +
         level_rows_.bytes() + lower_.buffer.bytes() + upper_.buffer.bytes();
}

template class DeviceFactors<float>;
template class DeviceFactors<double>;

}  // namespace spk
