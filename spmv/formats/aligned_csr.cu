#include <cstdint>
#include <iomanip>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "spmv/base/cuda_check.hpp"
#include "spmv/base/device_buffer.hpp"
#include "spmv/formats/aligned_csr.hpp"
#include "spmv/formats/aligned_csr_layout.hpp"
#include "spmv/formats/block_size.hpp"
#include "spmv/formats/csr_kernel_support.cuh"
#include "spmv/formats/csr_launch_policy.hpp"
#include "spmv/formats/device_csr.hpp"
#include "spmv/formats/empty_product.hpp"
#include "spmv/formats/kernel_launch.cuh"
#include "spmv/formats/output_scale.cuh"
#include "spmv/formats/sparsity_pattern.hpp"
#include "spmv/formats/x_access.cuh"

namespace spk {

namespace {

const std::string kFormat = "aligned-csr";

// Steps (of g entries) each lane loads before it uses any of them.
constexpr unsigned int kUnroll = 4;

template <class T, int GroupSize, class Reader>
__global__ void __launch_bounds__(max_block_size)
    aligned_csr_kernel(index_t rows, const index_t* __restrict__ row_starts,
                       const index_t* __restrict__ columns, const T* __restrict__ values, Reader x,
                       OutputScale<T> scale, T* __restrict__ y) {
  constexpr unsigned int group = GroupSize;
  const std::int64_t thread = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const unsigned int lane = threadIdx.x % group;
  // The lanes of a sub-warp share each row of the grid-stride loop: they leave together.
  for (std::int64_t row = thread / GroupSize; row < rows; row += grid_row_stride(GroupSize)) {
    const index_t begin = row_starts[row];
    // Padded rows are a multiple of g long: every lane makes exactly `steps` steps.
    const unsigned int steps = static_cast<unsigned int>(row_starts[row + 1] - begin) / group;
    const T* lane_values = values + begin + lane;
    const index_t* lane_columns = columns + begin + lane;
    T sum = T(0);
    unsigned int step = 0;
    // Unrolled by hand (kUnroll loads in flight); no further unrolling by the compiler, which
    // would only add register pressure.
#pragma unroll 1
    for (; step + kUnroll <= steps; step += kUnroll) {
      index_t column[kUnroll];
      T value[kUnroll];
#pragma unroll
      for (unsigned int u = 0; u < kUnroll; ++u) {
        column[u] = load_streaming(lane_columns + (step + u) * group);
        value[u] = load_streaming(lane_values + (step + u) * group);
      }
#pragma unroll
      for (unsigned int u = 0; u < kUnroll; ++u) sum += value[u] * x.load(column[u]);
    }
    for (; step < steps; ++step)
      sum += load_streaming(lane_values + step * group) *
             x.load(load_streaming(lane_columns + step * group));

    sum = sub_warp_sum<GroupSize>(sum);
    if (lane == 0) scale.store(y + row, sum);
  }
}

template <class T, int GroupSize, class Reader>
void launch_aligned_csr(index_t rows, const index_t* row_starts, const index_t* columns,
                        const T* values, Reader x, OutputScale<T> scale, T* y,
                        const KernelLaunch& launch, cudaStream_t stream) {
  const unsigned int blocks = launch.blocks(static_cast<std::int64_t>(rows) * GroupSize);
  aligned_csr_kernel<T, GroupSize>
      <<<blocks, launch.block_size(), 0, stream>>>(rows, row_starts, columns, values, x, scale, y);
  SPK_CHECK_LAUNCH("aligned_csr_kernel");
}

std::string percent(double fraction) {
  std::ostringstream text;
  text << std::fixed << std::setprecision(1) << 100.0 * fraction << "%";
  return text.str();
}

template <class T>
class AlignedCsrBackend final : public SpmvBackend<T> {
 public:
  AlignedCsrBackend(const CsrMatrix<T>& matrix, const SpmvOptions& options, cudaStream_t stream)
      : AlignedCsrBackend(
            matrix, options, stream,
            to_aligned_csr(matrix, aligned_csr_threads_per_row(options.threads_per_row))) {}

  void apply_scaled(T alpha, const T* x, T beta, T* y) const override {
    if (rows_ == 0) return;
    if (nnz_ == 0) {  // y = beta y; x (possibly empty) is never read
      write_empty_product(y, rows_, beta, this->stream());
      return;
    }
    const OutputScale<T> scale{alpha, beta};
    with_x_reader(launch_.x_cache(), x, static_cast<std::size_t>(cols_), textures_,
                  launch_.texture_limits(), [&](auto reader) {
                    using Reader = decltype(reader);
                    const cudaStream_t stream = this->stream();
                    const index_t* starts = row_starts_.data();
                    const index_t* columns = columns_.data();
                    const T* values = values_.data();
                    switch (group_size_) {
                      case 2:
                        launch_aligned_csr<T, 2, Reader>(rows_, starts, columns, values, reader, scale, y,
                                                         launch_, stream);
                        break;
                      case 4:
                        launch_aligned_csr<T, 4, Reader>(rows_, starts, columns, values, reader, scale, y,
                                                         launch_, stream);
                        break;
                      case 8:
                        launch_aligned_csr<T, 8, Reader>(rows_, starts, columns, values, reader, scale, y,
                                                         launch_, stream);
                        break;
                      case 16:
                        launch_aligned_csr<T, 16, Reader>(rows_, starts, columns, values, reader, scale, y,
                                                          launch_, stream);
                        break;
                      default:
                        launch_aligned_csr<T, 32, Reader>(rows_, starts, columns, values, reader, scale, y,
                                                          launch_, stream);
                        break;
                    }
                  });
  }

  index_t rows() const override { return rows_; }
  index_t cols() const override { return cols_; }
  std::string name() const override { return kFormat + "/" + to_string(launch_.x_cache()); }
  std::size_t device_bytes() const override {
    return row_starts_.bytes() + columns_.bytes() + values_.bytes();
  }
  std::size_t bytes_per_spmv() const override {
    return csr_bytes_per_spmv(rows_, cols_, values_.size(), sizeof(T));
  }
  std::vector<std::pair<std::string, std::string>> details() const override {
    const auto padded = static_cast<index_t>(values_.size());
    std::vector<std::pair<std::string, std::string>> details{
        {"threads_per_row", std::to_string(group_size_)},
        {"threads_per_row_from", threads_per_row_source_},
        {"row_alignment", std::to_string(group_size_) + " entries (" +
                              std::to_string(group_size_ * sizeof(T)) + " bytes)"},
        {"padded_entries", std::to_string(padded)},
        {"padding_entries", std::to_string(padded - nnz_)},
        {"padding_overhead", percent(nnz_ == 0 ? 0.0 : static_cast<double>(padded - nnz_) / nnz_)}};
    for (auto& detail : launch_.details()) details.push_back(detail);
    return details;
  }
  void set_launch(const SpmvOptions& options) override { launch_.set(options); }
  void update_values(const CsrMatrix<T>& matrix) override {
    pattern_.check_same(matrix, kFormat);
    const AlignedCsrLayout<T> layout = to_aligned_csr(matrix, group_size_);
    if (values_.size() == 0) return;
    SPK_CUDA_CHECK(cudaMemcpyAsync(values_.data(), layout.values.data(), values_.bytes(),
                                   cudaMemcpyHostToDevice, this->stream()));
    SPK_CUDA_CHECK(cudaStreamSynchronize(this->stream()));
  }

 private:
  AlignedCsrBackend(const CsrMatrix<T>& matrix, const SpmvOptions& options, cudaStream_t stream,
                    const AlignedCsrLayout<T>& layout)
      : SpmvBackend<T>(stream),
        rows_(layout.rows),
        cols_(layout.cols),
        nnz_(layout.nnz),
        group_size_(layout.group_size),
        threads_per_row_source_(options.threads_per_row == 0
                                    ? "default (half-warp, Baskaran & Bordawekar)"
                                    : "spmv.threads_per_row"),
        launch_(options, static_cast<std::size_t>(layout.cols), kFormat),
        pattern_(matrix) {
    row_starts_ = DeviceBuffer<index_t>(layout.row_starts, kFormat + " row starts");
    columns_ = DeviceBuffer<index_t>(layout.columns, kFormat + " column indices");
    values_ = DeviceBuffer<T>(layout.values, kFormat + " values");
  }

  index_t rows_;
  index_t cols_;
  index_t nnz_;
  int group_size_;
  std::string threads_per_row_source_;
  KernelLaunch launch_;
  SparsityPattern pattern_;
  DeviceBuffer<index_t> row_starts_;
  DeviceBuffer<index_t> columns_;
  DeviceBuffer<T> values_;
  mutable XTextureCache<T> textures_;
};

}  // namespace

template <class T>
std::unique_ptr<SpmvBackend<T>> make_aligned_csr(const CsrMatrix<T>& matrix,
                                                 const SpmvOptions& options, cudaStream_t stream) {
  checked_block_size(options.block_size);  // refuse bad options before converting
  return std::make_unique<AlignedCsrBackend<T>>(matrix, options, stream);
}

template std::unique_ptr<SpmvBackend<float>> make_aligned_csr(const CsrMatrix<float>&,
                                                              const SpmvOptions&, cudaStream_t);
template std::unique_ptr<SpmvBackend<double>> make_aligned_csr(const CsrMatrix<double>&,
                                                               const SpmvOptions&, cudaStream_t);

}  // namespace spk
