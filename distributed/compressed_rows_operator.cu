#include <cstdint>

#include "core/cuda_check.hpp"
#include "distributed/compressed_rows_operator.hpp"

namespace spk {

namespace {

constexpr int block_size = 256;

// Counts and thread numbers in 64 bits: count + block_size - 1 and blockIdx.x * blockDim.x
// would pass 2^31 for a block of nearly 2^31 rows.
unsigned blocks_for(index_t count) {
  return static_cast<unsigned>((std::int64_t{count} + block_size - 1) / block_size);
}

template <class T>
__global__ void scale_rows(index_t n, T beta, T* __restrict__ y) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) y[i] = beta == T(0) ? T(0) : beta * y[i];  // beta = 0: y is only written
}

template <class T>
__global__ void scatter_add(index_t count, const index_t* __restrict__ rows, T alpha,
                            const T* __restrict__ t, T* __restrict__ y) {
  const std::int64_t k = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k < count) y[rows[k]] += alpha * t[k];
}

}  // namespace

template <class T>
NonEmptyRows<T> drop_empty_rows(const CsrMatrix<T>& matrix) {
  NonEmptyRows<T> kept;
  kept.matrix.cols = matrix.cols;
  kept.matrix.row_offsets.assign(1, 0);
  for (index_t row = 0; row < matrix.rows; ++row) {
    const index_t begin = matrix.row_offsets[row], end = matrix.row_offsets[row + 1];
    if (begin == end) continue;
    kept.rows.push_back(row);
    kept.matrix.columns.insert(kept.matrix.columns.end(), matrix.columns.begin() + begin,
                               matrix.columns.begin() + end);
    kept.matrix.values.insert(kept.matrix.values.end(), matrix.values.begin() + begin,
                              matrix.values.begin() + end);
    kept.matrix.row_offsets.push_back(static_cast<index_t>(kept.matrix.columns.size()));
  }
  kept.matrix.rows = static_cast<index_t>(kept.rows.size());
  return kept;
}

template <class T>
CompressedRowsOperator<T>::CompressedRowsOperator(std::unique_ptr<SpmvBackend<T>> backend,
                                                  const std::vector<index_t>& rows,
                                                  index_t full_rows)
    : backend_(std::move(backend)),
      rows_(rows, "non-empty rows"),
      product_(rows.size(), "non-empty rows' product"),
      full_rows_(full_rows) {}

template <class T>
CompressedRowsOperator<T>::CompressedRowsOperator(std::unique_ptr<SpmvBackend<T>> backend,
                                                  DeviceBuffer<index_t> rows, index_t full_rows)
    : backend_(std::move(backend)),
      rows_(std::move(rows)),
      product_(rows_.size(), "non-empty rows' product"),
      full_rows_(full_rows) {}

template <class T>
void CompressedRowsOperator<T>::apply_scaled(T alpha, const T* x, T beta, T* y) const {
  const cudaStream_t stream = backend_->stream();
  if (beta != T(1) && full_rows_ > 0) {
    scale_rows<<<blocks_for(full_rows_), block_size, 0, stream>>>(full_rows_, beta, y);
    SPK_CHECK_LAUNCH("scale_rows");
  }
  const auto count = static_cast<index_t>(rows_.size());
  if (count == 0) return;
  backend_->apply(x, product_.data());  // t = A_rows x
  scatter_add<<<blocks_for(count), block_size, 0, stream>>>(count, rows_.data(), alpha,
                                                            product_.data(), y);
  SPK_CHECK_LAUNCH("scatter_add");
}

template struct NonEmptyRows<float>;
template struct NonEmptyRows<double>;
template NonEmptyRows<float> drop_empty_rows<float>(const CsrMatrix<float>&);
template NonEmptyRows<double> drop_empty_rows<double>(const CsrMatrix<double>&);
template class CompressedRowsOperator<float>;
template class CompressedRowsOperator<double>;

}  // namespace spk
