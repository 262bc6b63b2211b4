// aligned-csr: Baskaran & Bordawekar's CSR kernel with "optimized thread mapping" (a sub-warp
// of g threads per row, g = 16 by default, 2..32 by spmv.threads_per_row) and "aligned global
// memory access" by padding (their solution 2).
// Source: M. M. Baskaran, R. Bordawekar, "Optimizing Sparse Matrix-Vector Multiplication on
// GPUs" (seeds/baskaran-bordawekar-optimizing-spmv-on-gpus.md; notes/seeds-baskaran-and-
// autotuning.md, section 1.1, variants 3-5).
//
// Layout (AlignedCsrLayout, aligned_csr_layout.hpp): CSR whose rows are zero-padded to start
// on a multiple of g entries and to be a multiple of g entries long, built on the device from the
// device CSR arrays (aligned_csr_build.hpp; to_aligned_csr is its CPU reference). cudaMalloc
// returns 256-byte aligned arrays, so every sub-warp load of g values or g column indices is
// aligned to g * sizeof(element) bytes and touches the fewest 32-byte sectors possible. Aligning
// rows to 128-byte segments instead was considered and not done: since Fermi, DRAM and L2 move
// 32-byte sectors, so 128-byte alignment of a 64-byte half-warp load only adds padding (up to 31
// entries per row for float) and saves no sector. The padding overhead (padded entries / nnz -
// 1) is reported in details().
//
// Thread mapping: lanes [j*g, j*g + g) of a warp compute one row; lane l reads entries
// l, l+g, l+2g, ... of the padded row. Every lane of the sub-warp makes the same number of
// steps (padded length / g): no divergence inside a row; loads are unrolled by 4 so several
// are in flight (sub_warp_row_dot, csr_kernel_support.cuh, shared with csr-vector). The g
// partial sums are reduced with __shfl_down_sync (the paper used a shared-memory reduction)
// and the first lane writes y.
// Grid: exact, ceil(rows * g / block_size) blocks and no grid-stride loop, as in the paper
// (which measured a fixed grid with a loop over rows to be slower). x is read through
// spmv.x_cache; texture is the paper's texture-cached input vector.
// Device memory: row starts, padded columns and values, plus the slot map of update_values
// (4 bytes per nonzero: where each CSR nonzero sits in the padded values; device_values.hpp).
#include <cstdint>
#include <iomanip>
#include <sstream>
#include <string>
#include <utility>

#include "core/device_buffer.hpp"
#include "spmv/formats/aligned_csr_build.hpp"
#include "spmv/formats/csr_bytes.hpp"
#include "spmv/formats/csr_kernel_support.cuh"
#include "spmv/formats/csr_launch_policy.hpp"
#include "spmv/formats/hand_written_backend.cuh"

namespace spk {

namespace {

// Matrix values of type Value, products and sums in the vector type T.
template <int GroupSize, class Value, class T, class Reader, class Output>
__global__ void __launch_bounds__(max_block_size)
    aligned_csr_kernel(index_t rows, const index_t* __restrict__ row_starts,
                       const index_t* __restrict__ columns, const Value* __restrict__ values,
                       Reader x, Output output, T* __restrict__ y) {
  const std::int64_t thread = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const unsigned int lane = threadIdx.x % static_cast<unsigned int>(GroupSize);
  // The lanes of a sub-warp share each row of the grid-stride loop: they leave together.
  for (std::int64_t row = thread / GroupSize; row < rows; row += grid_row_stride(GroupSize)) {
    const index_t begin = row_starts[row];
    // Padded rows are a multiple of g long: every lane makes the same number of steps.
    const auto length = static_cast<unsigned int>(row_starts[row + 1] - begin);
    T sum = sub_warp_row_dot<GroupSize, true>(values, columns, begin, length, lane, x, T(0));
    sum = sub_warp_sum<GroupSize>(sum);
    if (lane == 0) output.store(y + row, sum);
  }
}

std::string percent(double fraction) {
  std::ostringstream text;
  text << std::fixed << std::setprecision(1) << 100.0 * fraction << "%";
  return text.str();
}

template <class T, class Value = T>
class AlignedCsr final : public HandWrittenBackend<T, Value, AlignedCsr<T, Value>> {
 public:
  AlignedCsr(const DeviceCsr<Value>& matrix, const SpmvOptions& options, cudaStream_t stream)
      : AlignedCsr(
            matrix,
            build_aligned_csr(matrix, aligned_csr_threads_per_row(options.threads_per_row), stream),
            options, stream) {}

  template <class Reader, class Output>
  void multiply(Reader x, Output output, T* y) const {
    const KernelLaunch& launch = this->launch();
    const index_t rows = this->rows();
    with_threads_per_row(group_size_, [&](auto width) {
      constexpr int group_size = decltype(width)::value;
      const unsigned int blocks = launch.blocks(static_cast<std::int64_t>(rows) * group_size);
      aligned_csr_kernel<group_size><<<blocks, launch.block_size(), 0, this->stream()>>>(
          rows, row_starts_.data(), columns_.data(), this->values(), x, output, y);
      SPK_CHECK_LAUNCH("aligned_csr_kernel");
    });
  }
  std::size_t device_bytes() const override {
    return row_starts_.bytes() + columns_.bytes() + this->values_device_bytes();
  }
  std::size_t bytes_per_spmv() const override {
    return csr_bytes_per_spmv(this->rows(), this->cols(), this->value_slots(), sizeof(Value),
                              sizeof(T));
  }

 private:
  AlignedCsr(const DeviceCsr<Value>& matrix, DeviceAlignedCsr<Value>&& layout,
             const SpmvOptions& options, cudaStream_t stream)
      : HandWrittenBackend<T, Value, AlignedCsr<T, Value>>(
            Format::aligned_csr, matrix, options, stream,
            DeviceValues<Value>(std::move(layout.values), std::move(layout.slots))),
        group_size_(layout.group_size),
        threads_per_row_source_(options.threads_per_row == 0
                                    ? "default (half-warp, Baskaran & Bordawekar)"
                                    : "spmv.threads_per_row"),
        row_starts_(std::move(layout.row_starts)),
        columns_(std::move(layout.columns)) {}

  typename HandWrittenBackend<T, Value, AlignedCsr<T, Value>>::Details format_details()
      const override {
    const auto padded = static_cast<index_t>(this->value_slots());
    const index_t nnz = this->nnz();
    return {
        {"threads_per_row", std::to_string(group_size_)},
        {"threads_per_row_from", threads_per_row_source_},
        {"row_alignment", std::to_string(group_size_) + " entries (" +
                              std::to_string(group_size_ * sizeof(Value)) + " bytes)"},
        {"padded_entries", std::to_string(padded)},
        {"padding_entries", std::to_string(padded - nnz)},
        {"padding_overhead", percent(nnz == 0 ? 0.0 : static_cast<double>(padded - nnz) / nnz)}};
  }

  int group_size_;
  std::string threads_per_row_source_;
  DeviceBuffer<index_t> row_starts_;
  DeviceBuffer<index_t> columns_;
};

}  // namespace

SPK_FORMAT_BACKEND(Format::aligned_csr, AlignedCsr);

}  // namespace spk
