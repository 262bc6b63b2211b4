// `ellpack`: plain ELLPACK/ITPACK on the GPU (Bell & Garland's ELL; reviewed in the
// ELLPACK-R paper, seed /work/shared/seeds/ellpack-r.txt, section 3).
//
// Layout: ellpack_layout.hpp, built on the device from the device CSR arrays (ell_build.hpp;
// to_ellpack is its CPU reference). Every row is padded to the longest row; values and column
// indices are column-major with a pitch aligned to 32 elements; padding slots hold column -1
// and value 0. Conversion refuses (BadInput, giving the fill ratio and suggesting hyb or
// ellpack-r) when rows * width > spmv.max_ell_fill * nnz and rows * width > 1e5 slots, and
// when the padded arrays would not fit the device memory.
//
// Thread mapping: one thread per row, all `width` slots read, padding skipped by its -1
// column (ell_kernels.cuh). x is read through spmv.x_cache (x_access.cuh).
//
// bytes_per_spmv = rows * width * (sizeof(Value) + 4)   every slot's value and column, padding
//                                                   included (the pitch rows past `rows` are
//                                                   never read)
//                + cols * sizeof(T) + rows * sizeof(T)   x read once, y written once.
// device_bytes   = pitch * width * (sizeof(Value) + 4) + (rows + 1) * 4 (the CSR row offsets
//                  update_values scatters with, device_values.hpp).
// Values: one device array of pitch * width slots, held by HandWrittenBackend.
#include <string>
#include <utility>
#include <vector>

#include "core/device.hpp"
#include "spmv/formats/detail_text.hpp"
#include "spmv/formats/ell_device_part.cuh"
#include "spmv/formats/ellpack_layout.hpp"
#include "spmv/formats/hand_written_backend.cuh"

namespace spk {

namespace {

EllPaddingLimits ellpack_limits(const SpmvOptions& options) {
  if (!(options.max_ell_fill >= 1.0))  // also refuses NaN
    throw BadInput("spmv.max_ell_fill: " + ratio_text(options.max_ell_fill) +
                   " is invalid (a fill ratio >= 1; a large value disables the check)");
  EllPaddingLimits limits;
  limits.max_fill = options.max_ell_fill;
  limits.max_bytes = current_device_info().global_memory_bytes;
  limits.format = to_string(Format::ellpack);
  return limits;
}

template <class T, class Value = T>
class Ellpack final : public HandWrittenBackend<T, Value, Ellpack<T, Value>> {
 public:
  // apply_dots folds the dots into the kernel for fp32 values only. With fp64 values ptxas
  // gives the kernel that folds them 54-56 registers against 40 (4 resident blocks of 256
  // an SM instead of 6), and on an H100 the SpMV with its dots then cost more than the SpMV
  // and a separate dot kernel (CG 2-4% slower, BiCGSTAB 5-10%); bounding it to 40 registers
  // spilled and was slower still. With fp32 values both kernels take 32-40 registers.
  static constexpr bool folds_dots = sizeof(Value) == 4;

  Ellpack(const DeviceCsr<Value>& matrix, const SpmvOptions& options, cudaStream_t stream)
      : Ellpack(matrix, ellpack_arrays(matrix, options, stream), options, stream) {}

  template <class Reader, class Output>
  void multiply(Reader x, Output output, T* y) const {
    ell_.multiply(this->values(), x, output, y, this->launch(), this->stream());
  }
  std::size_t device_bytes() const override {
    return this->values_device_bytes() + ell_.column_bytes();
  }
  std::size_t bytes_per_spmv() const override {
    return ell_.bytes_read<Value>() +
           (static_cast<std::size_t>(this->cols()) + this->rows()) * sizeof(T);
  }

 private:
  // Width = the longest row; refused by the fill rule, then the size rule, before allocating.
  static DeviceEll<Value> ellpack_arrays(const DeviceCsr<Value>& matrix, const SpmvOptions& options,
                                         cudaStream_t stream) {
    const EllPaddingLimits limits = ellpack_limits(options);
    const index_t width = matrix.stats.max_row_length;
    check_ell_fill(matrix.rows, width, matrix.nnz, limits);
    return build_ell(matrix, width, 0, limits, stream);
  }

  Ellpack(const DeviceCsr<Value>& matrix, DeviceEll<Value>&& ell, const SpmvOptions& options,
          cudaStream_t stream)
      : HandWrittenBackend<T, Value, Ellpack<T, Value>>(
            Format::ellpack, matrix, options, stream,
            DeviceValues<Value>(std::move(ell.values), matrix.nnz, matrix.rows, matrix.row_offsets,
                                ell.width, ell.pitch, {}, "ellpack values", stream)),
        ell_(ell) {}

  typename HandWrittenBackend<T, Value, Ellpack<T, Value>>::Details format_details()
      const override {
    typename HandWrittenBackend<T, Value, Ellpack<T, Value>>::Details details{
        {"threads_per_row", "1"},
        {"ell_width", std::to_string(ell_.width())},
        {"pitch", std::to_string(ell_.pitch())}};
    for (auto& detail : ell_.fill_details(this->nnz())) details.push_back(detail);
    details.push_back({"padding", "column -1, value 0; read and skipped"});
    return details;
  }

  EllDevicePart ell_;
};

}  // namespace

SPK_FORMAT_BACKEND(Format::ellpack, Ellpack);

}  // namespace spk
