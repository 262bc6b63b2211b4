#pragma once
// HandWrittenBackend<T, Value, Backend>: what every hand-written format (csr-scalar,
// csr-vector, aligned-csr, ellpack, ellpack-r, hyb, csr-merge, sell) holds and does, so that a
// format's file holds only its layout, its kernel launches, details() and its byte model.
//
// Held here: the matrix's rows, cols and nnz; the stored values (every value slot of the
// format's layout, padding included, in one device array) with the map from each CSR nonzero
// to its slot (DeviceValues, device_values.hpp); the KernelLaunch (block size, x cache, grid)
// and the texture cache over x.
// Done here:
//   apply_scaled   rows == 0: nothing. nnz == 0: y = beta y (empty_product.hpp; x is never
//                  read). Otherwise picks the x reader for spmv.x_cache and calls the
//                  format's `multiply(reader, output, y)` with output PlainOutput for apply()
//                  (alpha 1, beta 0) or OutputScale{alpha, beta} (output_scale.cuh) (CRTP: the
//                  reader and output types are template parameters, so multiply cannot be
//                  virtual).
//   apply_dots     for formats that set `static constexpr bool folds_dots = true` (hiding the
//                  base's false; their kernels finish a DotOutput, dot_output.cuh) and square
//                  matrices: multiply with a DotOutput over the block sums held here (DotSums,
//                  allocated only for such formats); false for every other format
//   name           "<format>/<x_cache>", e.g. "ellpack-r/texture"
//   details        the format's format_details() followed by the launch's
//   set_launch     KernelLaunch::set (throws BadInput and changes nothing when refused)
//   update_values  one scatter kernel through the slot map, on the backend's stream
//   check_options  (static, called by the factory before any conversion) the block size
//
// A format derives as `class Ellpack final : public HandWrittenBackend<T, Value, Ellpack<T,
// Value>>` (Value, the stored values' type: T, or float under double for spmv.matrix_values
// single; the kernels multiply and sum in T) and
// provides: template <class Reader, class Output> void multiply(Reader, Output, T* y) const;
// format_details(); device_bytes(); bytes_per_spmv(); and gives the base its DeviceValues. It
// is registered by SPK_FORMAT_BACKEND (format_factory_definition.hpp).
#include <cuda_runtime.h>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "core/cuda_check.hpp"
#include "core/device_buffer.hpp"
#include "spkrylov/options.hpp"
#include "spmv/device/device_csr.hpp"
#include "spmv/formats/block_size.hpp"
#include "spmv/formats/device_values.hpp"
#include "spmv/formats/dot_output.cuh"
#include "spmv/formats/empty_product.hpp"
#include "spmv/formats/format_factory_definition.hpp"
#include "spmv/formats/kernel_launch.cuh"
#include "spmv/formats/output_scale.cuh"
#include "spmv/formats/x_access.cuh"
#include "spmv/host/csr_matrix.hpp"
#include "spmv/spmv_backend.hpp"

namespace spk {

template <class T, class Value, class Backend>
class HandWrittenBackend : public SpmvBackend<T> {
 public:
  using Details = std::vector<std::pair<std::string, std::string>>;
  // Whether the format's kernels finish a DotOutput (apply_dots); a format that does says so.
  static constexpr bool folds_dots = false;

  // Refuses a bad spmv.block_size before the factory converts the matrix.
  static void check_options(const SpmvOptions& options) { checked_block_size(options.block_size); }

  void apply_scaled(T alpha, const T* x, T beta, T* y) const final {
    if (rows_ == 0) return;
    if (nnz_ == 0) {  // y = beta y; x (possibly empty) is never read
      write_empty_product(y, rows_, beta, this->stream());
      return;
    }
    with_x_reader(launch_.x_cache(), x, static_cast<std::size_t>(cols_), textures_,
                  launch_.texture_limits(), [&](auto reader) {
                    with_output(alpha, beta, [&](auto output) {
                      static_cast<const Backend&>(*this).multiply(reader, output, y);
                    });
                  });
  }

  bool apply_dots(const T* x, T* y, const T* w, T* sums, int count) const final {
    if constexpr (!Backend::folds_dots) {
      (void)x, (void)y, (void)w, (void)sums, (void)count;
      return false;
    } else {
      if (rows_ != cols_) return false;
      if (rows_ == 0 || nnz_ == 0) {  // y = 0 (x never read), and every sum is 0
        if (rows_ > 0) write_empty_product(y, rows_, T(0), this->stream());
        SPK_CUDA_CHECK(
            cudaMemsetAsync(sums, 0, static_cast<std::size_t>(count) * sizeof(T), this->stream()));
        return true;
      }
      with_x_reader(launch_.x_cache(), x, static_cast<std::size_t>(cols_), textures_,
                    launch_.texture_limits(), [&](auto reader) {
                      static_cast<const Backend&>(*this).multiply(
                          reader, dot_sums_.output(w, sums, count), y);
                    });
      return true;
    }
  }

  index_t rows() const final { return rows_; }
  index_t cols() const final { return cols_; }
  // "<format>/<x_cache>", plus "/fp32-values" when the values are stored in fp32 under fp64.
  std::string name() const final {
    return std::string(to_string(format_)) + "/" + to_string(launch_.x_cache()) +
           (sizeof(Value) < sizeof(T) ? "/fp32-values" : "");
  }
  Details details() const final {
    Details details = format_details();
    for (auto& detail : launch_.details()) details.push_back(detail);
    if (sizeof(Value) < sizeof(T))
      details.push_back({"matrix_values", "fp32, products and sums in fp64"});
    return details;
  }
  void set_launch(const SpmvOptions& options) final { launch_.set(options); }

  // values: T (the caller's precision), converted to Value in the scatter; a value that
  // overflows fp32 becomes infinite there and is reported through first_non_finite.
  void update_values(const T* values, index_t* first_non_finite) final {
    values_.scatter(values, first_non_finite, this->stream());
  }
  void forget_x_vectors() final { textures_.clear(); }

 protected:
  // values: the matrix's values in the format's layout and the slot of each nonzero.
  HandWrittenBackend(Format format, const DeviceCsr<Value>& matrix, const SpmvOptions& options,
                     cudaStream_t stream, DeviceValues<Value> values)
      : SpmvBackend<T>(stream),
        format_(format),
        rows_(matrix.rows),
        cols_(matrix.cols),
        nnz_(matrix.nnz),
        launch_(options, static_cast<std::size_t>(matrix.cols), format),
        values_(std::move(values)) {
    if constexpr (Backend::folds_dots)
      if (rows_ == cols_) dot_sums_ = DotSums<T>(rows_, stream);
  }

  // The format's own details() entries (the launch's follow them).
  virtual Details format_details() const = 0;

  index_t nnz() const { return nnz_; }
  const KernelLaunch& launch() const { return launch_; }
  // Every value slot of the layout, on the device.
  const Value* values() const { return values_.data(); }
  // The stored values and their slot map.
  std::size_t values_device_bytes() const { return values_.device_bytes(); }
  std::size_t value_slots() const { return values_.size(); }
  // Bytes of one stored value and of one vector entry, for the byte models.
  static constexpr std::size_t value_bytes() { return sizeof(Value); }
  static constexpr std::size_t vector_bytes() { return sizeof(T); }

 private:
  Format format_;
  index_t rows_;
  index_t cols_;
  index_t nnz_;
  KernelLaunch launch_;
  DeviceValues<Value> values_;
  DotSums<T> dot_sums_;  // apply_dots' block sums: formats that fold dots, square matrices
  mutable XTextureCache<T> textures_;
};

}  // namespace spk
