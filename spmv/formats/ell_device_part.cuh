#pragma once
// EllDevicePart<T>: an EllpackLayout's value and column arrays in device memory, and the
// launch of the plain ELLPACK kernel over them. Shared by `ellpack` and the ELL part of `hyb`.
#include <cuda_runtime.h>

#include <cstddef>
#include <vector>

#include "spmv/base/cuda_check.hpp"
#include "spmv/base/device_buffer.hpp"
#include "spmv/formats/ell_kernels.cuh"
#include "spmv/formats/ellpack_layout.hpp"
#include "spmv/formats/kernel_launch.cuh"

namespace spk {

template <class T>
class EllDevicePart {
 public:
  explicit EllDevicePart(const EllpackLayout<T>& layout)
      : rows_(layout.rows),
        width_(layout.width),
        pitch_(layout.pitch),
        values_(layout.values, "ELL values"),
        columns_(layout.columns, "ELL column indices") {}

  // values: ellpack_values() of a matrix with the same pattern. The caller has synchronised
  // the stream (no kernel may read the old values while they are replaced).
  void replace_values(const std::vector<T>& values) { values_.copy_from_host(values); }

  // y[row] = alpha (row . x) + beta y[row] for every row (also when width == 0; y not read
  // when beta == 0). Asynchronous on `stream`.
  template <class Reader>
  void multiply(Reader x, OutputScale<T> scale, T* y, const KernelLaunch& launch,
                cudaStream_t stream) const {
    if (rows_ == 0) return;
    with_block_class(launch.block_size(), [&](auto block_class) {
      ell_kernels::ellpack_kernel<decltype(block_class)::value, T, Reader>
          <<<launch.blocks(rows_), launch.block_size(), 0, stream>>>(
              rows_, width_, pitch_, values_.data(), columns_.data(), x, scale, y);
    });
    SPK_CHECK_LAUNCH("ellpack_kernel");
  }

  index_t width() const { return width_; }
  std::size_t pitch() const { return pitch_; }
  std::size_t device_bytes() const { return values_.bytes() + columns_.bytes(); }
  // Bytes the kernel reads from the matrix: every slot of the `rows` rows.
  std::size_t bytes_read() const {
    return static_cast<std::size_t>(rows_) * static_cast<std::size_t>(width_) *
           (sizeof(T) + sizeof(index_t));
  }

 private:
  index_t rows_;
  index_t width_;
  std::size_t pitch_;
  DeviceBuffer<T> values_;
  DeviceBuffer<index_t> columns_;
};

}  // namespace spk
