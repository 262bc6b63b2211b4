// `ellpack-r`: ELLPACK-R (Vázquez, Fernández, Garzón et al., Concurrency Computat.: Pract.
// Exper. 2010; seed /work/shared/seeds/ellpack-r.txt, notes
// /work/shared/notes/seeds-ellpack-r-and-csr-report.md).
//
// Layout: ellpack_r_layout.hpp, built on the device from the device CSR arrays (ell_build.hpp;
// to_ellpack_r is its CPU reference). The ELLPACK arrays (column-major, pitch aligned to 32
// elements, padded to the longest row with column -1 / value 0) plus rl[], the length of each
// row. Storage guard: no fill-ratio refusal (the kernel never reads padding, so
// spmv.max_ell_fill does not apply); the padded arrays must fit the device memory (BadInput
// before conversion), and a failing allocation throws OutOfDeviceMemory. details() reports the
// fill ratio so a wasteful layout is visible.
//
// Thread mapping: one thread per row; thread i reads rl[i] and walks slots 0 .. rl[i]-1 only
// (no branch per slot, no padding traffic); a warp takes as long as its longest row
// (ell_kernels.cuh). x is read through spmv.x_cache (x_access.cuh).
//
// bytes_per_spmv = nnz * (sizeof(Value) + 4)   values and columns actually read (padding is not)
//                + rows * 4                rl[]
//                + cols * sizeof(T) + rows * sizeof(T)   x read once, y written once.
// device_bytes   = pitch * width * (sizeof(Value) + 4) + rows * 4 + (rows + 1) * 4 (the CSR row
//                  offsets update_values scatters with, device_values.hpp).
// Device arrays: the ELL columns (EllDevicePart), rl[], and the values (pitch * width slots,
// held by HandWrittenBackend).
#include <string>
#include <utility>
#include <vector>

#include "core/device.hpp"
#include "core/device_buffer.hpp"
#include "spmv/formats/detail_text.hpp"
#include "spmv/formats/ell_device_part.cuh"
#include "spmv/formats/hand_written_backend.cuh"

namespace spk {

namespace {

EllPaddingLimits ellpack_r_limits() {
  EllPaddingLimits limits;  // max_fill stays infinite: only the size rule
  limits.max_bytes = current_device_info().global_memory_bytes;
  limits.format = to_string(Format::ellpack_r);
  return limits;
}

template <class T, class Value = T>
class EllpackR final : public HandWrittenBackend<T, Value, EllpackR<T, Value>> {
 public:
  // apply_dots: the kernel finishes a DotOutput (34 -> 40 registers with fp64 values, 7 -> 6
  // resident blocks of 256; faster than a separate dot kernel on an H100)
  static constexpr bool folds_dots = true;

  EllpackR(const DeviceCsr<Value>& matrix, const SpmvOptions& options, cudaStream_t stream)
      : EllpackR(matrix,
                 build_ell(matrix, matrix.stats.max_row_length, 0, ellpack_r_limits(), stream),
                 options, stream) {}

  template <class Reader, class Output>
  void multiply(Reader x, Output output, T* y) const {
    ell_.multiply(this->values(), x, output, y, this->launch(), this->stream(),
                  row_lengths_.data());
  }
  std::size_t device_bytes() const override {
    return this->values_device_bytes() + ell_.column_bytes() + row_lengths_.bytes();
  }
  std::size_t bytes_per_spmv() const override {
    return static_cast<std::size_t>(this->nnz()) * (sizeof(Value) + sizeof(index_t)) +
           static_cast<std::size_t>(this->rows()) * sizeof(index_t) +
           (static_cast<std::size_t>(this->cols()) + this->rows()) * sizeof(T);
  }

 private:
  EllpackR(const DeviceCsr<Value>& matrix, DeviceEll<Value>&& ell, const SpmvOptions& options,
           cudaStream_t stream)
      : HandWrittenBackend<T, Value, EllpackR<T, Value>>(
            Format::ellpack_r, matrix, options, stream,
            DeviceValues<Value>(std::move(ell.values), matrix.nnz, matrix.rows, matrix.row_offsets,
                                ell.width, ell.pitch, {}, "ellpack-r values", stream)),
        ell_(ell),
        row_lengths_(static_cast<std::size_t>(matrix.rows), "ellpack-r row lengths") {
    fill_row_lengths(matrix, row_lengths_.data(), stream);
  }

  typename HandWrittenBackend<T, Value, EllpackR<T, Value>>::Details format_details()
      const override {
    const index_t rows = this->rows();
    const double mean = rows == 0 ? 0.0 : static_cast<double>(this->nnz()) / rows;
    typename HandWrittenBackend<T, Value, EllpackR<T, Value>>::Details details{
        {"threads_per_row", "1"},
        {"ell_width", std::to_string(ell_.width())},
        {"pitch", std::to_string(ell_.pitch())},
        {"row_length_mean", ratio_text(mean)}};
    for (auto& detail : ell_.fill_details(this->nnz())) details.push_back(detail);
    details.push_back({"padding", "stored, never read (loop to rl[i])"});
    return details;
  }

  EllDevicePart ell_;
  DeviceBuffer<index_t> row_lengths_;
};

}  // namespace

SPK_FORMAT_BACKEND(Format::ellpack_r, EllpackR);

}  // namespace spk
