// csr-scalar: CSR with one thread per row.
//
// Layout: plain CSR, copied unchanged on the device: row_offsets and columns (copy_pattern),
// values in CSR order (held by HandWrittenBackend; update_values copies them in place, no slot
// map).
// Thread mapping: thread t of the grid computes row t on its own, walking the row's entries
// in order; an exact grid of ceil(rows / block_size) blocks. Neighbouring threads read
// addresses a whole row apart, so the loads do not coalesce: this is the naive kernel of
// Baskaran & Bordawekar (seeds/baskaran-bordawekar-optimizing-spmv-on-gpus.md, variant 1) and
// Bell & Garland's "CSR scalar", kept as the baseline the other formats are measured against.
// x is read through spmv.x_cache (none | ldg | texture).
#include <cstdint>
#include <vector>

#include "spmv/formats/csr_bytes.hpp"
#include "spmv/formats/hand_written_backend.cuh"

namespace spk {

namespace {

// Matrix values of type Value, products and sums in the vector type T.
template <class Value, class T, class Reader, class Output>
__global__ void __launch_bounds__(max_block_size)
    csr_scalar_kernel(index_t rows, const index_t* __restrict__ row_offsets,
                      const index_t* __restrict__ columns, const Value* __restrict__ values,
                      Reader x, Output output, T* __restrict__ y) {
  const std::int64_t stride = grid_row_stride(1);
  for (std::int64_t row = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
       row < rows; row += stride) {
    const index_t end = row_offsets[row + 1];
    T sum = T(0);
    for (index_t k = row_offsets[row]; k < end; ++k)
      sum += static_cast<T>(values[k]) * x.load(columns[k]);
    output.store(y + row, sum);
  }
}

template <class T, class Value = T>
class CsrScalar final : public HandWrittenBackend<T, Value, CsrScalar<T, Value>> {
 public:
  CsrScalar(const DeviceCsr<Value>& matrix, const SpmvOptions& options, cudaStream_t stream)
      : HandWrittenBackend<T, Value, CsrScalar<T, Value>>(
            Format::csr_scalar, matrix, options, stream,
            DeviceValues<Value>(matrix.values, matrix.nnz, "csr-scalar values", stream)),
        pattern_(copy_pattern(matrix, to_string(Format::csr_scalar), stream)) {}

  template <class Reader, class Output>
  void multiply(Reader x, Output output, T* y) const {
    const KernelLaunch& launch = this->launch();
    csr_scalar_kernel<<<launch.blocks(this->rows()), launch.block_size(), 0, this->stream()>>>(
        this->rows(), pattern_.row_offsets.data(), pattern_.columns.data(), this->values(), x,
        output, y);
    SPK_CHECK_LAUNCH("csr_scalar_kernel");
  }

  std::size_t device_bytes() const override {
    return pattern_.device_bytes() + this->values_device_bytes();
  }
  std::size_t bytes_per_spmv() const override {
    return csr_bytes_per_spmv(pattern_.rows, pattern_.cols,
                              static_cast<std::size_t>(pattern_.nnz()), sizeof(Value), sizeof(T));
  }

 private:
  typename HandWrittenBackend<T, Value, CsrScalar<T, Value>>::Details format_details()
      const override {
    return {{"threads_per_row", "1"}};
  }

  DeviceCsrMatrix<Value> pattern_;  // row offsets and columns (values: the base's slots)
};

}  // namespace

SPK_FORMAT_BACKEND(Format::csr_scalar, CsrScalar);

}  // namespace spk
