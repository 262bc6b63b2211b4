#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "spmv/base/device.hpp"
#include "spmv/formats/block_size.hpp"
#include "spmv/formats/detail_text.hpp"
#include "spmv/formats/empty_product.hpp"
#include "spmv/formats/ell_device_part.cuh"
#include "spmv/formats/ellpack.hpp"
#include "spmv/formats/ellpack_layout.hpp"
#include "spmv/formats/kernel_launch.cuh"
#include "spmv/formats/sparsity_pattern.hpp"
#include "spmv/formats/x_access.cuh"

namespace spk {

namespace {

constexpr const char* format_name = "ellpack";

EllPaddingLimits ellpack_limits(const SpmvOptions& options) {
  if (!(options.max_ell_fill >= 1.0))  // also refuses NaN
    throw BadInput("spmv.max_ell_fill: " + ratio_text(options.max_ell_fill) +
                   " is invalid (a fill ratio >= 1; a large value disables the check)");
  EllPaddingLimits limits;
  limits.max_fill = options.max_ell_fill;
  limits.max_bytes = current_device_info().global_memory_bytes;
  limits.format = format_name;
  return limits;
}

template <class T>
class Ellpack final : public SpmvBackend<T> {
 public:
  Ellpack(const CsrMatrix<T>& matrix, const SpmvOptions& options, cudaStream_t stream)
      : Ellpack(matrix, to_ellpack(matrix, ellpack_limits(options)), options, stream) {}

  void apply_scaled(T alpha, const T* x, T beta, T* y) const override {
    if (rows_ == 0) return;
    if (nnz_ == 0) {  // y = beta y; x (possibly empty) is never read
      write_empty_product(y, rows_, beta, this->stream());
      return;
    }
    const OutputScale<T> scale{alpha, beta};
    with_x_reader(launch_.x_cache(), x, static_cast<std::size_t>(cols_), textures_,
                  launch_.texture_limits(),
                  [&](auto reader) { ell_.multiply(reader, scale, y, launch_, this->stream()); });
  }

  index_t rows() const override { return rows_; }
  index_t cols() const override { return cols_; }
  std::string name() const override {
    return std::string(format_name) + "/" + to_string(launch_.x_cache());
  }
  std::size_t device_bytes() const override { return ell_.device_bytes(); }
  std::size_t bytes_per_spmv() const override {
    return ell_.bytes_read() + (static_cast<std::size_t>(cols_) + rows_) * sizeof(T);
  }

  std::vector<std::pair<std::string, std::string>> details() const override {
    const double padded = static_cast<double>(rows_) * ell_.width();
    std::vector<std::pair<std::string, std::string>> details{
        {"threads_per_row", "1"},
        {"ell_width", std::to_string(ell_.width())},
        {"pitch", std::to_string(ell_.pitch())},
        {"stored_entries", std::to_string(nnz_)},
        {"padded_slots", std::to_string(static_cast<long long>(padded))},
        {"fill_ratio", nnz_ == 0 ? "-" : ratio_text(padded / static_cast<double>(nnz_))},
        {"padding_overhead",
         nnz_ == 0 ? "-" : percent_text(padded / static_cast<double>(nnz_) - 1.0)},
        {"padding", "column -1, value 0; read and skipped"}};
    for (auto& detail : launch_.details()) details.push_back(detail);
    return details;
  }
  void set_launch(const SpmvOptions& options) override { launch_.set(options); }

  void update_values(const CsrMatrix<T>& matrix) override {
    pattern_.check_same(matrix, format_name);
    SPK_CUDA_CHECK(cudaStreamSynchronize(this->stream()));
    ell_.replace_values(ellpack_values(matrix, ell_.width(), ell_.pitch()));
  }

 private:
  Ellpack(const CsrMatrix<T>& matrix, const EllpackLayout<T>& layout, const SpmvOptions& options,
          cudaStream_t stream)
      : SpmvBackend<T>(stream),
        rows_(matrix.rows),
        cols_(matrix.cols),
        nnz_(matrix.nnz()),
        launch_(options, static_cast<std::size_t>(matrix.cols), format_name),
        pattern_(matrix),
        ell_(layout) {
    // DeviceBuffer uploads have landed when they return (copy_synchronously).
  }

  index_t rows_;
  index_t cols_;
  index_t nnz_;
  KernelLaunch launch_;
  SparsityPattern pattern_;
  EllDevicePart<T> ell_;
  mutable XTextureCache<T> textures_;
};

}  // namespace

template <class T>
std::unique_ptr<SpmvBackend<T>> make_ellpack(const CsrMatrix<T>& matrix, const SpmvOptions& options,
                                             cudaStream_t stream) {
  checked_block_size(options.block_size);  // before the conversion, which may be long
  return std::make_unique<Ellpack<T>>(matrix, options, stream);
}

template std::unique_ptr<SpmvBackend<float>> make_ellpack(const CsrMatrix<float>&,
                                                          const SpmvOptions&, cudaStream_t);
template std::unique_ptr<SpmvBackend<double>> make_ellpack(const CsrMatrix<double>&,
                                                           const SpmvOptions&, cudaStream_t);

}  // namespace spk
