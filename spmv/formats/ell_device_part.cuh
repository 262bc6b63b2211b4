#pragma once
// EllDevicePart: an ELLPACK array's geometry (rows, width, pitch) and column indices in device
// memory, and the launch of the ELL-family kernels over it (ell_kernels.cuh). Shared by
// `ellpack`, `ellpack-r` (which adds its row lengths) and the ELL part of `hyb`. The values
// live in the backend's one value array (hand_written_backend.cuh); slot k of row i is at
// values[k * pitch + i], as in the layout (ellpack_layout.hpp).
#include <cuda_runtime.h>

#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/cuda_check.hpp"
#include "core/device_buffer.hpp"
#include "spmv/formats/block_size.hpp"
#include "spmv/formats/detail_text.hpp"
#include "spmv/formats/ell_build.hpp"
#include "spmv/formats/ell_kernels.cuh"
#include "spmv/formats/ellpack_layout.hpp"
#include "spmv/formats/kernel_launch.cuh"
#include "spmv/formats/output_scale.cuh"

namespace spk {

class EllDevicePart {
 public:
  // Takes the geometry and the column indices of an ELL array built on the device
  // (ell_build.hpp); its values go to the backend's value array.
  template <class T>
  explicit EllDevicePart(DeviceEll<T>& ell)
      : rows_(ell.rows), width_(ell.width), pitch_(ell.pitch), columns_(std::move(ell.columns)) {}

  // y[row] = alpha (row . x) + beta y[row] for every row (also when width == 0; y not read
  // when beta == 0). Without row lengths: plain ELLPACK, every slot read, padding skipped;
  // with them (a device array of rows entries): ELLPACK-R, row i reads only its first
  // row_lengths[i] slots. Asynchronous on `stream`.
  template <class Value, class T, class Reader, class Output, class RowLengths = std::nullptr_t>
  void multiply(const Value* values, Reader x, Output output, T* y, const KernelLaunch& launch,
                cudaStream_t stream, RowLengths row_lengths = nullptr) const {
    if (rows_ == 0) return;
    const unsigned int blocks = launch.blocks(rows_);
    with_block_class(launch.block_size(), [&](auto block_class) {
      constexpr int max_threads = decltype(block_class)::value;
      if constexpr (std::is_same_v<RowLengths, std::nullptr_t>) {
        ell_kernels::ellpack_kernel<max_threads><<<blocks, launch.block_size(), 0, stream>>>(
            rows_, width_, pitch_, values, columns_.data(), x, output, y);
        SPK_CHECK_LAUNCH("ellpack_kernel");
      } else {
        ell_kernels::ellpack_r_kernel<max_threads><<<blocks, launch.block_size(), 0, stream>>>(
            rows_, pitch_, values, columns_.data(), row_lengths, x, output, y);
        SPK_CHECK_LAUNCH("ellpack_r_kernel");
      }
    });
  }

  // details() entries of the padding: stored_entries, padded_slots, fill_ratio and
  // padding_overhead (rows * width slots against nnz stored entries; "-" when nnz is 0).
  std::vector<std::pair<std::string, std::string>> fill_details(index_t nnz) const {
    const double padded = static_cast<double>(rows_) * width_;
    return {{"stored_entries", std::to_string(nnz)},
            {"padded_slots", std::to_string(static_cast<long long>(padded))},
            {"fill_ratio", nnz == 0 ? "-" : ratio_text(padded / static_cast<double>(nnz))},
            {"padding_overhead",
             nnz == 0 ? "-" : percent_text(padded / static_cast<double>(nnz) - 1.0)}};
  }

  index_t width() const { return width_; }
  std::size_t pitch() const { return pitch_; }
  // Value slots of the padded array (pitch * width), the size of its value array.
  std::size_t slots() const { return pitch_ * static_cast<std::size_t>(width_); }
  std::size_t column_bytes() const { return columns_.bytes(); }
  // Bytes the plain ELLPACK kernel reads from the matrix: every slot of the `rows` rows.
  template <class Value>
  std::size_t bytes_read() const {
    return static_cast<std::size_t>(rows_) * static_cast<std::size_t>(width_) *
           (sizeof(Value) + sizeof(index_t));
  }

 private:
  index_t rows_;
  index_t width_;
  std::size_t pitch_;
  DeviceBuffer<index_t> columns_;
};

}  // namespace spk
