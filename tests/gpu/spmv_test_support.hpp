#pragma once
// Helpers for the GPU SpMV backend tests (every format family uses them):
//
//   TestStream              a non-blocking CUDA stream, so a backend that ignores its stream
//                           races with the test and fails it
//   random_values<T>        uniform values in [-1, 1)
//   with_random_values      same pattern, fresh random values (exercises update_values too)
//   random_pattern_matrix   rows x cols, row r has row_length(r) distinct sorted random columns
//   shared_matrix_paths     every .mtx of data/ (the repository's copy of the shared
//                           SuiteSparse matrices; see data/README.md)
//   spmv_tolerance<T>       the relative-error bound a backend must meet (see below)
//   spmv_relative_error     one checked apply: fresh random x, y poisoned with NaN, result
//                           against the CPU reference in fp64
//
// Tolerance. The reference is the fp64 CPU product of the very same T-valued matrix and x, so
// the error is the backend's rounding alone. A dot product of m terms summed in precision u
// with partial sums of random sign errs by about u * sqrt(m) relative to the result (the
// worst case, csr-scalar's sequential sum, is ~u * sqrt(m / 6) for values uniform in
// [-1, 1)). With u = 2^-24 (float) and m up to a few thousand that is < 1e-6, so float must
// reach 1e-5; a 100k-entry row gives ~8e-6 for a sequential sum, hence the bound grows as
// 4 u sqrt(max row length) past that (7.5e-5 at 100k). double (u = 2^-53) must reach 1e-12:
// 4 u sqrt(m) stays below 1e-13 for any m < 2^31, so 1e-12 leaves a margin of 10 while still
// catching any lost or doubled entry (an error of order 1 / sqrt(nnz) or more).
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "spmv/base/cuda_check.hpp"
#include "spmv/base/device_buffer.hpp"
#include "spmv/host/csr_matrix.hpp"
#include "spmv/host/reference_spmv.hpp"
#include "spmv/spmv_backend.hpp"
#include "tests/test_support.hpp"

namespace spk::test {

class TestStream {
 public:
  TestStream() { SPK_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  ~TestStream() { (void)cudaStreamDestroy(stream_); }
  TestStream(const TestStream&) = delete;
  TestStream& operator=(const TestStream&) = delete;
  cudaStream_t get() const { return stream_; }
  void synchronize() const { SPK_CUDA_CHECK(cudaStreamSynchronize(stream_)); }

 private:
  cudaStream_t stream_ = nullptr;
};

template <class T>
std::vector<T> random_values(std::size_t count, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  std::vector<T> values(count);
  for (auto& value : values) value = static_cast<T>(uniform(rng));
  return values;
}

template <class T>
CsrMatrix<T> with_random_values(const CsrMatrix<T>& matrix, std::mt19937_64& rng) {
  CsrMatrix<T> result = matrix;
  result.values = random_values<T>(matrix.values.size(), rng);
  return result;
}

template <class T>
index_t max_row_length(const CsrMatrix<T>& matrix) {
  index_t longest = 0;
  for (index_t row = 0; row < matrix.rows; ++row)
    longest = std::max(longest, matrix.row_offsets[row + 1] - matrix.row_offsets[row]);
  return longest;
}

// Row r gets row_length(r) distinct columns (selection sampling, so sorted), values in [-1, 1).
inline CsrMatrix<double> random_pattern_matrix(index_t rows, index_t cols,
                                               const std::function<index_t(index_t)>& row_length,
                                               std::mt19937_64& rng) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  CsrMatrix<double> matrix;
  matrix.rows = rows;
  matrix.cols = cols;
  matrix.row_offsets.assign(static_cast<std::size_t>(rows) + 1, 0);
  for (index_t row = 0; row < rows; ++row) {
    index_t wanted = std::min(row_length(row), cols);
    for (index_t column = 0; column < cols && wanted > 0; ++column) {
      // Take `column` with probability wanted / (columns left): exactly `wanted` are taken.
      if (unit(rng) * static_cast<double>(cols - column) < static_cast<double>(wanted)) {
        matrix.columns.push_back(column);
        matrix.values.push_back(2.0 * unit(rng) - 1.0);
        --wanted;
      }
    }
    matrix.row_offsets[row + 1] = static_cast<index_t>(matrix.columns.size());
  }
  return matrix;
}

inline std::vector<std::string> shared_matrix_paths() {
  namespace fs = std::filesystem;
  const fs::path folder(data_path(""));
  std::vector<std::string> paths;
  if (!fs::is_directory(folder)) return paths;
  for (const auto& entry : fs::directory_iterator(folder))
    if (entry.path().extension() == ".mtx") paths.push_back(entry.path().string());
  std::sort(paths.begin(), paths.end());
  return paths;
}

template <class T>
double spmv_tolerance(index_t longest_row) {
  const double unit_roundoff =
      std::is_same_v<T, float> ? std::ldexp(1.0, -24) : std::ldexp(1.0, -53);
  const double base = std::is_same_v<T, float> ? 1e-5 : 1e-12;
  return std::max(base, 4.0 * unit_roundoff * std::sqrt(static_cast<double>(longest_row)));
}

// One apply of `backend` (built from `matrix` or updated to it) on a fresh random x, with y
// poisoned by 0xFF bytes (NaN in float and double) first; returns ||y - y_ref|| / ||y_ref||
// with y_ref the fp64 CPU product of the same matrix and x. `x_offset` shifts x inside its
// device allocation (to test misaligned x pointers).
template <class T>
double spmv_relative_error(const SpmvBackend<T>& backend, const CsrMatrix<T>& matrix,
                           std::mt19937_64& rng, const TestStream& stream,
                           std::size_t x_offset = 0) {
  const auto rows = static_cast<std::size_t>(matrix.rows);
  const auto cols = static_cast<std::size_t>(matrix.cols);
  const std::vector<T> x = random_values<T>(cols, rng);
  DeviceBuffer<T> x_device(cols + x_offset, "test x");
  DeviceBuffer<T> y_device(rows, "test y");
  if (cols > 0)
    SPK_CUDA_CHECK(cudaMemcpyAsync(x_device.data() + x_offset, x.data(), cols * sizeof(T),
                                   cudaMemcpyHostToDevice, stream.get()));
  if (rows > 0)
    SPK_CUDA_CHECK(cudaMemsetAsync(y_device.data(), 0xFF, rows * sizeof(T), stream.get()));
  backend.apply(cols > 0 ? x_device.data() + x_offset : x_device.data(), y_device.data());
  std::vector<T> y(rows);
  if (rows > 0)
    SPK_CUDA_CHECK(cudaMemcpyAsync(y.data(), y_device.data(), rows * sizeof(T),
                                   cudaMemcpyDeviceToHost, stream.get()));
  stream.synchronize();

  const CsrMatrix<double> reference = convert_values<double>(matrix);
  const std::vector<double> x_double(x.begin(), x.end());
  std::vector<double> y_reference(rows);
  reference_spmv(reference, x_double.data(), y_reference.data());
  return relative_error(y, y_reference);
}

}  // namespace spk::test
