#include <string>
#include <utility>
#include <vector>

#include "spmv/base/device.hpp"
#include "spmv/base/device_buffer.hpp"
#include "spmv/formats/block_size.hpp"
#include "spmv/formats/coo_kernel.cuh"
#include "spmv/formats/detail_text.hpp"
#include "spmv/formats/empty_product.hpp"
#include "spmv/formats/ell_device_part.cuh"
#include "spmv/formats/hyb.hpp"
#include "spmv/formats/hyb_layout.hpp"
#include "spmv/formats/kernel_launch.cuh"
#include "spmv/formats/sparsity_pattern.hpp"
#include "spmv/formats/x_access.cuh"

namespace spk {

namespace {

constexpr const char* format_name = "hyb";

EllPaddingLimits hyb_limits() {
  EllPaddingLimits limits;  // the width rule bounds the padding: only the size rule
  limits.max_bytes = current_device_info().global_memory_bytes;
  limits.format = format_name;
  return limits;
}

template <class T>
class Hyb final : public SpmvBackend<T> {
 public:
  Hyb(const CsrMatrix<T>& matrix, const SpmvOptions& options, cudaStream_t stream)
      : Hyb(matrix, to_hyb(matrix, options.hyb_width, hyb_limits()), options, stream) {}

  void apply_scaled(T alpha, const T* x, T beta, T* y) const override {
    if (rows_ == 0) return;
    if (nnz_ == 0) {  // y = beta y; x (possibly empty) is never read
      write_empty_product(y, rows_, beta, this->stream());
      return;
    }
    const OutputScale<T> scale{alpha, beta};
    with_x_reader(launch_.x_cache(), x, static_cast<std::size_t>(cols_), textures_,
                  launch_.texture_limits(), [&](auto reader) {
                    ell_.multiply(reader, scale, y, launch_, this->stream());
                    add_coo(reader, alpha, y);
                  });
  }

  index_t rows() const override { return rows_; }
  index_t cols() const override { return cols_; }
  std::string name() const override {
    return std::string(format_name) + "/" + to_string(launch_.x_cache());
  }
  std::size_t device_bytes() const override {
    return ell_.device_bytes() + coo_rows_.bytes() + coo_columns_.bytes() + coo_values_.bytes();
  }
  std::size_t bytes_per_spmv() const override {
    const std::size_t coo_entries = static_cast<std::size_t>(choice_.coo_entries);
    const std::size_t coo_rows = static_cast<std::size_t>(choice_.coo_rows);
    return ell_.bytes_read() + coo_entries * (sizeof(T) + 2 * sizeof(index_t)) +
           (static_cast<std::size_t>(cols_) + rows_) * sizeof(T) + coo_rows * 2 * sizeof(T);
  }

  std::vector<std::pair<std::string, std::string>> details() const override {
    const double nnz = static_cast<double>(nnz_);
    const double ell_slots = static_cast<double>(rows_) * choice_.width;
    const double ell_entries = static_cast<double>(choice_.ell_entries);
    std::vector<std::pair<std::string, std::string>> details{
        {"threads_per_row", "1 (ELL part)"},
        {"ell_width", std::to_string(choice_.width)},
        {"width_rule", choice_.rule},
        {"pitch", std::to_string(ell_.pitch())},
        {"ell_entries", std::to_string(choice_.ell_entries)},
        {"ell_share", nnz_ == 0 ? "-" : percent_text(ell_entries / nnz)},
        {"coo_entries", std::to_string(choice_.coo_entries)},
        {"coo_share",
         nnz_ == 0 ? "-" : percent_text(static_cast<double>(choice_.coo_entries) / nnz)},
        {"coo_rows", std::to_string(choice_.coo_rows)},
        {"ell_padding_overhead",
         ell_entries == 0 ? "-" : percent_text(ell_slots / ell_entries - 1.0)},
        {"coo_reduction", "segmented warp scan, atomicAdd per row segment (last bits vary)"}};
    for (auto& detail : launch_.details()) details.push_back(detail);
    return details;
  }
  void set_launch(const SpmvOptions& options) override { launch_.set(options); }

  void update_values(const CsrMatrix<T>& matrix) override {
    pattern_.check_same(matrix, format_name);
    SPK_CUDA_CHECK(cudaStreamSynchronize(this->stream()));
    ell_.replace_values(ellpack_values(matrix, ell_.width(), ell_.pitch()));
    coo_values_.copy_from_host(hyb_coo_values(matrix, choice_.width));
  }

 private:
  Hyb(const CsrMatrix<T>& matrix, const HybLayout<T>& layout, const SpmvOptions& options,
      cudaStream_t stream)
      : SpmvBackend<T>(stream),
        rows_(matrix.rows),
        cols_(matrix.cols),
        nnz_(matrix.nnz()),
        launch_(options, static_cast<std::size_t>(matrix.cols), format_name),
        pattern_(matrix),
        choice_(layout.choice),
        ell_(layout.ell),
        coo_rows_(layout.coo.rows, "HYB COO row indices"),
        coo_columns_(layout.coo.columns, "HYB COO column indices"),
        coo_values_(layout.coo.values, "HYB COO values") {
    // DeviceBuffer uploads have landed when they return (copy_synchronously).
  }

  template <class Reader>
  void add_coo(Reader x, T alpha, T* y) const {
    const std::int64_t entries = choice_.coo_entries;
    if (entries == 0) return;
    with_block_class(launch_.block_size(), [&](auto block_class) {
      coo_kernels::coo_add_kernel<decltype(block_class)::value, T, Reader>
          <<<coo_kernels::coo_blocks(entries, launch_.block_size()), launch_.block_size(), 0,
             this->stream()>>>(entries, coo_rows_.data(), coo_columns_.data(), coo_values_.data(),
                               x, alpha, y);
    });
    SPK_CHECK_LAUNCH("coo_add_kernel");
  }

  index_t rows_;
  index_t cols_;
  index_t nnz_;
  KernelLaunch launch_;
  SparsityPattern pattern_;
  HybWidthChoice choice_;
  EllDevicePart<T> ell_;
  DeviceBuffer<index_t> coo_rows_;
  DeviceBuffer<index_t> coo_columns_;
  DeviceBuffer<T> coo_values_;
  mutable XTextureCache<T> textures_;
};

}  // namespace

template <class T>
std::unique_ptr<SpmvBackend<T>> make_hyb(const CsrMatrix<T>& matrix, const SpmvOptions& options,
                                         cudaStream_t stream) {
  checked_block_size(options.block_size);  // before the conversion, which may be long
  return std::make_unique<Hyb<T>>(matrix, options, stream);
}

template std::unique_ptr<SpmvBackend<float>> make_hyb(const CsrMatrix<float>&, const SpmvOptions&,
                                                      cudaStream_t);
template std::unique_ptr<SpmvBackend<double>> make_hyb(const CsrMatrix<double>&, const SpmvOptions&,
                                                       cudaStream_t);

}  // namespace spk
