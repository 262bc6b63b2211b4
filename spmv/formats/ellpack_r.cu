#include <string>
#include <utility>
#include <vector>

#include "spmv/base/device.hpp"
#include "spmv/base/device_buffer.hpp"
#include "spmv/formats/block_size.hpp"
#include "spmv/formats/detail_text.hpp"
#include "spmv/formats/empty_product.hpp"
#include "spmv/formats/ell_kernels.cuh"
#include "spmv/formats/ellpack_r.hpp"
#include "spmv/formats/ellpack_r_layout.hpp"
#include "spmv/formats/kernel_launch.cuh"
#include "spmv/formats/sparsity_pattern.hpp"
#include "spmv/formats/x_access.cuh"

namespace spk {

namespace {

constexpr const char* format_name = "ellpack-r";

EllPaddingLimits ellpack_r_limits() {
  EllPaddingLimits limits;  // max_fill stays infinite: only the size rule
  limits.max_bytes = current_device_info().global_memory_bytes;
  limits.format = format_name;
  return limits;
}

template <class T>
class EllpackR final : public SpmvBackend<T> {
 public:
  EllpackR(const CsrMatrix<T>& matrix, const SpmvOptions& options, cudaStream_t stream)
      : EllpackR(matrix, to_ellpack_r(matrix, ellpack_r_limits()), options, stream) {}

  void apply_scaled(T alpha, const T* x, T beta, T* y) const override {
    if (rows_ == 0) return;
    if (nnz_ == 0) {  // y = beta y; x (possibly empty) is never read
      write_empty_product(y, rows_, beta, this->stream());
      return;
    }
    const OutputScale<T> scale{alpha, beta};
    with_x_reader(launch_.x_cache(), x, static_cast<std::size_t>(cols_), textures_,
                  launch_.texture_limits(), [&](auto reader) { launch(reader, scale, y); });
  }

  index_t rows() const override { return rows_; }
  index_t cols() const override { return cols_; }
  std::string name() const override {
    return std::string(format_name) + "/" + to_string(launch_.x_cache());
  }
  std::size_t device_bytes() const override {
    return values_.bytes() + columns_.bytes() + row_lengths_.bytes();
  }
  std::size_t bytes_per_spmv() const override {
    return static_cast<std::size_t>(nnz_) * (sizeof(T) + sizeof(index_t)) +
           static_cast<std::size_t>(rows_) * sizeof(index_t) +
           (static_cast<std::size_t>(cols_) + rows_) * sizeof(T);
  }

  std::vector<std::pair<std::string, std::string>> details() const override {
    const double padded = static_cast<double>(rows_) * width_;
    const double mean = rows_ == 0 ? 0.0 : static_cast<double>(nnz_) / rows_;
    std::vector<std::pair<std::string, std::string>> details{
        {"threads_per_row", "1"},
        {"ell_width", std::to_string(width_)},
        {"pitch", std::to_string(pitch_)},
        {"row_length_mean", ratio_text(mean)},
        {"stored_entries", std::to_string(nnz_)},
        {"padded_slots", std::to_string(static_cast<long long>(padded))},
        {"fill_ratio", nnz_ == 0 ? "-" : ratio_text(padded / static_cast<double>(nnz_))},
        {"padding_overhead",
         nnz_ == 0 ? "-" : percent_text(padded / static_cast<double>(nnz_) - 1.0)},
        {"padding", "stored, never read (loop to rl[i])"}};
    for (auto& detail : launch_.details()) details.push_back(detail);
    return details;
  }
  void set_launch(const SpmvOptions& options) override { launch_.set(options); }

  void update_values(const CsrMatrix<T>& matrix) override {
    pattern_.check_same(matrix, format_name);
    SPK_CUDA_CHECK(cudaStreamSynchronize(this->stream()));
    values_.copy_from_host(ellpack_values(matrix, width_, pitch_));
  }

 private:
  EllpackR(const CsrMatrix<T>& matrix, const EllpackRLayout<T>& layout, const SpmvOptions& options,
           cudaStream_t stream)
      : SpmvBackend<T>(stream),
        rows_(matrix.rows),
        cols_(matrix.cols),
        nnz_(matrix.nnz()),
        width_(layout.ell.width),
        pitch_(layout.ell.pitch),
        launch_(options, static_cast<std::size_t>(matrix.cols), format_name),
        pattern_(matrix),
        values_(layout.ell.values, "ELLPACK-R values"),
        columns_(layout.ell.columns, "ELLPACK-R column indices"),
        row_lengths_(layout.row_lengths, "ELLPACK-R row lengths") {
    // DeviceBuffer uploads have landed when they return (copy_synchronously).
  }

  template <class Reader>
  void launch(Reader x, OutputScale<T> scale, T* y) const {
    with_block_class(launch_.block_size(), [&](auto block_class) {
      ell_kernels::ellpack_r_kernel<decltype(block_class)::value, T, Reader>
          <<<launch_.blocks(rows_), launch_.block_size(), 0, this->stream()>>>(
              rows_, pitch_, values_.data(), columns_.data(), row_lengths_.data(), x, scale, y);
    });
    SPK_CHECK_LAUNCH("ellpack_r_kernel");
  }

  index_t rows_;
  index_t cols_;
  index_t nnz_;
  index_t width_;
  std::size_t pitch_;
  KernelLaunch launch_;
  SparsityPattern pattern_;
  DeviceBuffer<T> values_;
  DeviceBuffer<index_t> columns_;
  DeviceBuffer<index_t> row_lengths_;
  mutable XTextureCache<T> textures_;
};

}  // namespace

template <class T>
std::unique_ptr<SpmvBackend<T>> make_ellpack_r(const CsrMatrix<T>& matrix,
                                               const SpmvOptions& options, cudaStream_t stream) {
  checked_block_size(options.block_size);  // before the conversion, which may be long
  return std::make_unique<EllpackR<T>>(matrix, options, stream);
}

template std::unique_ptr<SpmvBackend<float>> make_ellpack_r(const CsrMatrix<float>&,
                                                            const SpmvOptions&, cudaStream_t);
template std::unique_ptr<SpmvBackend<double>> make_ellpack_r(const CsrMatrix<double>&,
                                                             const SpmvOptions&, cudaStream_t);

}  // namespace spk
