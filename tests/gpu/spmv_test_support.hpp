#pragma once
// Helpers for the GPU SpMV backend tests (every format family uses them):
//
//   TestStream              a non-blocking CUDA stream, so a backend that ignores its stream
//                           races with the test and fails it
//   random_values<T>        uniform values in [-1, 1)
//   with_random_values      same pattern, fresh random values
//   random_pattern_matrix   rows x cols, row r has row_length(r) distinct sorted random columns
//   shared_matrix_paths     every .mtx of data/ (the repository's copy of the shared
//                           SuiteSparse matrices; see data/README.md)
//   spmv_tolerance<T>       the relative-error bound a backend must meet (see below)
//   spmv_relative_error     one checked apply: fresh random x, y poisoned with NaN, result
//                           against the CPU reference in fp64
//   spmv_scaled_relative_error  the same for apply_scaled(alpha, x, beta, y): y random
//                           (beta != 0) or NaN-poisoned (beta == 0)
//   update_values_from_host upload values, update_values with a first_non_finite flag
//   expect_update_values_contract   new values give the new product; non-finite values are
//                           reported by their first index
//   expect_update_values_capturable update_values captured in a CUDA graph (no allocation, no
//                           synchronization) and replayed
//   awkward_shapes          n = 1, nnz = 0, empty rows, a huge row, boundary row lengths
//   expect_same_row_stats   every field of two RowStats equal
//   as_stored               the fp64 matrix a backend of fp32 or fp64 values multiplies
//   dots_reference          y = A x, (w, y), (y, y) and sum |w_i y_i| in fp64 (apply_dots)
//   FreshRandom             (tests/test_support.hpp) a random engine seeded afresh each run; its
//   seed is in every
//                           failure message of the scope that holds it
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
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/cuda_check.hpp"
#include "core/device_buffer.hpp"
#include "spkrylov/errors.hpp"
#include "spmv/host/csr_matrix.hpp"
#include "spmv/host/matrix_stats.hpp"
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

// Runs `multiply(x_device, y_device)` once with x (placed `x_offset` entries into its device
// allocation) and y_start in y, on `stream`, and returns y.
template <class T, class Multiply>
std::vector<T> device_product(const std::vector<T>& x, const std::vector<T>& y_start,
                              std::size_t x_offset, const TestStream& stream, Multiply&& multiply) {
  const std::size_t rows = y_start.size(), cols = x.size();
  DeviceBuffer<T> x_device(cols + x_offset, "test x");
  DeviceBuffer<T> y_device(rows, "test y");
  if (cols > 0)
    SPK_CUDA_CHECK(cudaMemcpyAsync(x_device.data() + x_offset, x.data(), cols * sizeof(T),
                                   cudaMemcpyHostToDevice, stream.get()));
  if (rows > 0)
    SPK_CUDA_CHECK(cudaMemcpyAsync(y_device.data(), y_start.data(), rows * sizeof(T),
                                   cudaMemcpyHostToDevice, stream.get()));
  multiply(cols > 0 ? x_device.data() + x_offset : x_device.data(), y_device.data());
  std::vector<T> y(rows);
  if (rows > 0)
    SPK_CUDA_CHECK(cudaMemcpyAsync(y.data(), y_device.data(), rows * sizeof(T),
                                   cudaMemcpyDeviceToHost, stream.get()));
  stream.synchronize();
  return y;
}

// ||y - y_ref|| / scale in fp64, the error every SpMV check bounds. The scale is ||y_ref||,
// or, when cancellation made y_ref small by chance, the size a product of these row lengths
// has: ||y_magnitude|| / sqrt(longest row), y_magnitude = |alpha| |A| |x| + |beta| |y_start|.
// (A row of m random terms sums to about sqrt(m) times a term while |A| |x| is m times one,
// so the floor is the typical ||y_ref||; without it a 100k-entry row whose sum happened to
// be 0.05 of that failed a correct fp32 kernel. A lost or doubled entry still shows: one term
// against sqrt(m) of them.) NaN anywhere gives +inf; a scale of 0 compares absolutely.
template <class T>
double product_error(const std::vector<T>& y, const std::vector<double>& y_reference,
                     const std::vector<double>& y_magnitude, index_t longest_row) {
  if (y.size() != y_reference.size()) return std::numeric_limits<double>::infinity();
  double diff = 0.0, norm = 0.0, magnitude = 0.0;
  for (std::size_t i = 0; i < y.size(); ++i) {
    const double value = static_cast<double>(y[i]);
    if (!std::isfinite(value)) return std::numeric_limits<double>::infinity();
    diff += (value - y_reference[i]) * (value - y_reference[i]);
    norm += y_reference[i] * y_reference[i];
    magnitude += y_magnitude[i] * y_magnitude[i];
  }
  const double scale = std::max(
      std::sqrt(norm),
      std::sqrt(magnitude) / std::sqrt(static_cast<double>(std::max<index_t>(longest_row, 1))));
  return scale == 0.0 ? std::sqrt(diff) : std::sqrt(diff) / scale;
}

// The reference y = alpha A x + beta y_start in fp64, and its magnitude |alpha| |A| |x| +
// |beta| |y_start| (product_error's scale).
template <class T>
std::pair<std::vector<double>, std::vector<double>> reference_product(
    const CsrMatrix<T>& matrix, T alpha, const std::vector<T>& x, T beta,
    const std::vector<T>& y_start) {
  CsrMatrix<double> reference = convert_values<double>(matrix);
  std::vector<double> x_double(x.begin(), x.end());
  const auto finite_or_zero = [](T value) {
    return std::isfinite(static_cast<double>(value)) ? static_cast<double>(value) : 0.0;
  };
  std::vector<double> y_reference(y_start.size()), y_magnitude(y_start.size());
  for (std::size_t i = 0; i < y_start.size(); ++i) {
    y_reference[i] = finite_or_zero(y_start[i]);  // beta = 0: the NaN poison is never read
    y_magnitude[i] = std::abs(y_reference[i]);
  }
  reference_spmv_scaled(reference, static_cast<double>(alpha), x_double.data(),
                        static_cast<double>(beta), y_reference.data());
  for (double& value : reference.values) value = std::abs(value);
  for (double& value : x_double) value = std::abs(value);
  reference_spmv_scaled(reference, std::abs(static_cast<double>(alpha)), x_double.data(),
                        std::abs(static_cast<double>(beta)), y_magnitude.data());
  return {std::move(y_reference), std::move(y_magnitude)};
}

// One apply of `backend` (built from `matrix` or updated to it) on a fresh random x, with y
// poisoned with NaN first; returns product_error against the fp64 CPU product of the same
// matrix and x. `x_offset` shifts x inside its device allocation (to test misaligned x
// pointers).
template <class T>
double spmv_relative_error(const SpmvBackend<T>& backend, const CsrMatrix<T>& matrix,
                           std::mt19937_64& rng, const TestStream& stream,
                           std::size_t x_offset = 0) {
  const std::vector<T> x = random_values<T>(static_cast<std::size_t>(matrix.cols), rng);
  const std::vector<T> poison(static_cast<std::size_t>(matrix.rows),
                              std::numeric_limits<T>::quiet_NaN());
  const std::vector<T> y =
      device_product(x, poison, x_offset, stream,
                     [&](const T* x_device, T* y_device) { backend.apply(x_device, y_device); });
  const auto [y_reference, y_magnitude] = reference_product(matrix, T(1), x, T(0), poison);
  return product_error(y, y_reference, y_magnitude, max_row_length(matrix));
}

// One apply_scaled(alpha, x, beta, y) of `backend` on a fresh random x. y starts random when
// beta != 0 and poisoned with NaN when beta == 0 (it must then be written without being
// read). Returns product_error against y_ref = alpha A x + beta y_start in fp64 on the CPU.
template <class T>
double spmv_scaled_relative_error(const LinearOperator<T>& backend, const CsrMatrix<T>& matrix,
                                  T alpha, T beta, std::mt19937_64& rng, const TestStream& stream) {
  const std::vector<T> x = random_values<T>(static_cast<std::size_t>(matrix.cols), rng);
  const std::vector<T> y_start = beta == T(0)
                                     ? std::vector<T>(static_cast<std::size_t>(matrix.rows),
                                                      std::numeric_limits<T>::quiet_NaN())
                                     : random_values<T>(static_cast<std::size_t>(matrix.rows), rng);
  const std::vector<T> y =
      device_product(x, y_start, 0, stream, [&](const T* x_device, T* y_device) {
        backend.apply_scaled(alpha, x_device, beta, y_device);
      });
  const auto [y_reference, y_magnitude] = reference_product(matrix, alpha, x, beta, y_start);
  return product_error(y, y_reference, y_magnitude, max_row_length(matrix));
}

// apply_scaled checked three ways on `backend` (built from `matrix` or updated to it), each
// on a fresh random x: alpha = -1.5, beta = 0.5 on a random y; alpha = -1.5, beta = 0 on a
// NaN-poisoned y; alpha = 1, beta = 0 (what apply asks for) on a NaN-poisoned y.
template <class T>
void expect_scaled_products_match(const LinearOperator<T>& backend, const CsrMatrix<T>& matrix,
                                  std::mt19937_64& rng, const TestStream& stream) {
  const double tolerance = spmv_tolerance<T>(max_row_length(matrix));
  const std::pair<T, T> scales[] = {{T(-1.5), T(0.5)}, {T(-1.5), T(0)}, {T(1), T(0)}};
  for (const auto& [alpha, beta] : scales)
    EXPECT_LT(spmv_scaled_relative_error(backend, matrix, alpha, beta, rng, stream), tolerance)
        << backend.name() << ": apply_scaled with alpha " << alpha << ", beta " << beta;
}

// backend.update_values with `values` (nnz values in CSR order) copied to the device, on the
// test stream, with first_non_finite set to nnz first; returns first_non_finite afterwards.
template <class T>
index_t update_values_from_host(SpmvBackend<T>& backend, const std::vector<T>& values,
                                const TestStream& stream) {
  const auto nnz = static_cast<index_t>(values.size());
  DeviceBuffer<T> device_values(values.size(), "test values");
  DeviceBuffer<index_t> first_non_finite(1, "test first_non_finite");
  if (!values.empty())
    SPK_CUDA_CHECK(cudaMemcpyAsync(device_values.data(), values.data(), device_values.bytes(),
                                   cudaMemcpyHostToDevice, stream.get()));
  SPK_CUDA_CHECK(cudaMemcpyAsync(first_non_finite.data(), &nnz, sizeof nnz, cudaMemcpyHostToDevice,
                                 stream.get()));
  backend.update_values(device_values.data(), first_non_finite.data());
  index_t reported = -1;
  SPK_CUDA_CHECK(cudaMemcpyAsync(&reported, first_non_finite.data(), sizeof reported,
                                 cudaMemcpyDeviceToHost, stream.get()));
  stream.synchronize();
  return reported;
}

// Ends the capture begun on `stream`, launches the captured graph once, waits for it and
// frees it.
inline void launch_capture_once(const TestStream& stream) {
  cudaGraph_t graph = nullptr;
  SPK_CUDA_CHECK(cudaStreamEndCapture(stream.get(), &graph));
  cudaGraphExec_t executable = nullptr;
  SPK_CUDA_CHECK(cudaGraphInstantiate(&executable, graph, 0));
  SPK_CUDA_CHECK(cudaGraphLaunch(executable, stream.get()));
  stream.synchronize();
  SPK_CUDA_CHECK(cudaGraphExecDestroy(executable));
  SPK_CUDA_CHECK(cudaGraphDestroy(graph));
}

// update_values on `backend` (built from `matrix`), each time with fresh random values: all
// finite reports nnz and the product (plain and scaled) is that of the new values; a NaN at k
// and an Inf after it report k; an Inf alone at j reports j; a null first_non_finite is
// accepted; finite values again give a right product.
template <class T>
void expect_update_values_contract(SpmvBackend<T>& backend, const CsrMatrix<T>& matrix,
                                   std::mt19937_64& rng, const TestStream& stream) {
  const double tolerance = spmv_tolerance<T>(max_row_length(matrix));
  const CsrMatrix<T> updated = with_random_values(matrix, rng);
  EXPECT_EQ(update_values_from_host(backend, updated.values, stream), updated.nnz());
  EXPECT_LT(spmv_relative_error(backend, updated, rng, stream), tolerance)
      << backend.name() << " after update_values";
  expect_scaled_products_match(backend, updated, rng, stream);
  const index_t nnz = matrix.nnz();
  if (nnz > 0) {
    std::vector<T> bad = random_values<T>(updated.values.size(), rng);
    const index_t first = nnz / 2, later = nnz - 1;
    bad[static_cast<std::size_t>(later)] = std::numeric_limits<T>::infinity();
    EXPECT_EQ(update_values_from_host(backend, bad, stream), later) << backend.name();
    bad[static_cast<std::size_t>(first)] = std::numeric_limits<T>::quiet_NaN();
    EXPECT_EQ(update_values_from_host(backend, bad, stream), first) << backend.name();
  }
  const CsrMatrix<T> again = with_random_values(matrix, rng);
  DeviceBuffer<T> device_values(again.values, "test values");  // landed when it returns
  backend.update_values(device_values.data(), nullptr);
  EXPECT_LT(spmv_relative_error(backend, again, rng, stream), tolerance)
      << backend.name() << " after update_values without a check";
}

// update_values is one stream-ordered kernel with no allocation and no synchronization: it can
// be captured in a CUDA graph (global capture mode refuses both), and the graph's launch then
// updates the values.
template <class T>
void expect_update_values_capturable(SpmvBackend<T>& backend, const CsrMatrix<T>& matrix,
                                     std::mt19937_64& rng, const TestStream& stream) {
  const CsrMatrix<T> updated = with_random_values(matrix, rng);
  DeviceBuffer<T> device_values(updated.values, "test values");
  DeviceBuffer<index_t> first_non_finite(std::vector<index_t>{updated.nnz()}, "test flag");
  cudaGraph_t graph = nullptr;
  SPK_CUDA_CHECK(cudaStreamBeginCapture(stream.get(), cudaStreamCaptureModeGlobal));
  try {
    backend.update_values(device_values.data(), first_non_finite.data());
  } catch (const Error& error) {
    (void)cudaStreamEndCapture(stream.get(), &graph);
    if (graph != nullptr) (void)cudaGraphDestroy(graph);
    ADD_FAILURE() << backend.name() << ": update_values under capture: " << error.what();
    return;
  }
  launch_capture_once(stream);
  EXPECT_EQ(first_non_finite.to_host()[0], updated.nnz()) << backend.name();
  EXPECT_LT(spmv_relative_error(backend, updated, rng, stream),
            spmv_tolerance<T>(max_row_length(matrix)))
      << backend.name() << " after a captured update_values";
}

// Every field of two RowStats equal (the device's pass against the host's: bit for bit).
inline void expect_same_row_stats(const RowStats& got, const RowStats& host) {
  EXPECT_EQ(got.rows, host.rows);
  EXPECT_EQ(got.cols, host.cols);
  EXPECT_EQ(got.nnz, host.nnz);
  EXPECT_EQ(got.min_row_length, host.min_row_length);
  EXPECT_EQ(got.max_row_length, host.max_row_length);
  EXPECT_EQ(got.empty_rows, host.empty_rows);
  EXPECT_EQ(got.aligned16_entries, host.aligned16_entries);
  EXPECT_EQ(got.avg_row_length, host.avg_row_length);
  EXPECT_EQ(got.row_length_stddev, host.row_length_stddev);
  EXPECT_EQ(got.row_length_variation, host.row_length_variation);
  EXPECT_EQ(got.ell_fill_ratio, host.ell_fill_ratio);
}

// The awkward shapes every format's apply_scaled and update_values are checked on (row
// lengths, random columns; values in [-1, 1)): n = 1 with and without its entry, nnz = 0,
// empty rows, one huge row (100000 entries, past csr-vector's long-row threshold), rows
// around the warp and unroll boundaries, rectangular shapes.
struct NamedShape {
  std::string name;
  CsrMatrix<double> matrix;
};

inline std::vector<NamedShape> awkward_shapes(std::mt19937_64& rng) {
  const auto up_to = [&rng](index_t longest) {
    return std::uniform_int_distribution<index_t>(0, longest)(rng);
  };
  std::vector<NamedShape> shapes;
  shapes.push_back({"n=1", random_pattern_matrix(
                               1, 1, [](index_t) { return 1; }, rng)});
  shapes.push_back({"n=1, nnz=0", random_pattern_matrix(
                                      1, 1, [](index_t) { return 0; }, rng)});
  shapes.push_back({"nnz=0 (100 empty rows)", random_pattern_matrix(
                                                  100, 100, [](index_t) { return 0; }, rng)});
  shapes.push_back({"every third row empty",
                    random_pattern_matrix(
                        500, 500, [&](index_t row) { return row % 3 == 0 ? 0 : up_to(40); }, rng)});
  shapes.push_back(
      {"one row of 100000 entries",
       random_pattern_matrix(
           64, 100003, [&](index_t row) { return row == 5 ? 100000 : up_to(10); }, rng)});
  std::vector<index_t> lengths;
  for (int repeat = 0; repeat < 4; ++repeat)
    for (const index_t length :
         {0, 1, 2, 3, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 129, 255, 257, 1025, 2049})
      lengths.push_back(length);
  std::shuffle(lengths.begin(), lengths.end(), rng);
  shapes.push_back({"row lengths around warp boundaries",
                    random_pattern_matrix(
                        static_cast<index_t>(lengths.size()), 3000,
                        [&](index_t row) { return lengths[static_cast<std::size_t>(row)]; }, rng)});
  shapes.push_back({"rectangular 1000x37", random_pattern_matrix(
                                               1000, 37, [&](index_t) { return up_to(37); }, rng)});
  shapes.push_back(
      {"rectangular 37x1000", random_pattern_matrix(
                                  37, 1000, [&](index_t) { return up_to(300); }, rng)});
  return shapes;
}

// The fp64 matrix a backend of value precision `values` really multiplies: each value rounded
// to fp32 for MatrixValues::single (fp32 values under fp64 vectors), unchanged otherwise.
inline CsrMatrix<double> as_stored(const CsrMatrix<double>& matrix, MatrixValues values) {
  CsrMatrix<double> stored = matrix;
  if (values == MatrixValues::single)
    for (double& value : stored.values) value = static_cast<double>(static_cast<float>(value));
  return stored;
}

// The fp64 reference of apply_dots: y = A x, (w, y) and (y, y), and the sum of |w_i y_i| that
// bounds the rounding error of (w, y) in any summation order.
struct DotsReference {
  std::vector<double> y;
  double w_y = 0.0, y_y = 0.0, w_y_magnitude = 0.0;
};

inline DotsReference dots_reference(const CsrMatrix<double>& matrix, const std::vector<double>& x,
                                    const std::vector<double>& w) {
  DotsReference reference;
  reference.y.resize(static_cast<std::size_t>(matrix.rows));
  reference_spmv(matrix, x.data(), reference.y.data());
  for (std::size_t i = 0; i < reference.y.size(); ++i) {
    reference.w_y += w[i] * reference.y[i];
    reference.w_y_magnitude += std::abs(w[i] * reference.y[i]);
    reference.y_y += reference.y[i] * reference.y[i];
  }
  return reference;
}

}  // namespace spk::test
