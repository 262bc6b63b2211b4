// GPU tests of the CSR-family backends (csr-scalar, csr-vector / csr, aligned-csr, csr-merge,
// cusparse)
// x spmv.x_cache {none, ldg, texture} x {float, double}: every apply on a fresh random x with
// y poisoned by NaN, checked against the fp64 CPU reference of the same matrix
// (spmv_test_support.hpp explains the tolerances). Each matrix is checked with its own values
// and again after update_values() with random ones (device values, one scatter kernel).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "spkrylov/errors.hpp"
#include "spmv/formats/aligned_csr_layout.hpp"
#include "spmv/formats/csr_launch_policy.hpp"
#include "spmv/formats/csr_long_rows.hpp"
#include "spmv/host/generators.hpp"
#include "spmv/host/matrix_market.hpp"
#include "spmv/registry.hpp"
#include "tests/cpu/host_matrix_testing.hpp"
#include "tests/gpu/spmv_test_support.hpp"

namespace spk {
namespace {

struct BackendCase {
  Format format;
  XCache x_cache;
};

std::string case_name(const ::testing::TestParamInfo<BackendCase>& info) {
  std::string name =
      std::string(to_string(info.param.format)) + "_" + to_string(info.param.x_cache);
  for (char& c : name)
    if (c == '-') c = '_';
  return name;
}

std::string detail(const SpmvBackend<double>& backend, const std::string& key) {
  for (const auto& [name, value] : backend.details())
    if (name == key) return value;
  return "<missing " + key + ">";
}

// Matrices shared by all parameters, built once.
const CsrMatrix<double>& million_row_matrix() {
  static const CsrMatrix<double> matrix = generate_poisson2d(1000);  // 10^6 rows, ~5 * 10^6 nnz
  return matrix;
}

// Rows of awkward lengths around the sub-warp and warp boundaries (csr-vector's warp-aligned
// start, aligned-csr's padding), in a random order so rows start at every alignment.
CsrMatrix<double> boundary_length_matrix(std::mt19937_64& rng) {
  // Also around csr-vector's long-row thresholds (32 w: 64 ... 1024) and its 1024-entry chunks.
  const std::vector<index_t> lengths = {0,   1,   2,   3,   7,   8,   9,    15,   16,   17,  31,
                                        32,  33,  34,  63,  64,  65,  95,   96,   97,   127, 128,
                                        129, 255, 256, 257, 500, 511, 1023, 1024, 1025, 2049};
  std::vector<index_t> row_lengths;
  for (int repeat = 0; repeat < 8; ++repeat)
    row_lengths.insert(row_lengths.end(), lengths.begin(), lengths.end());
  std::shuffle(row_lengths.begin(), row_lengths.end(), rng);
  return test::random_pattern_matrix(
      static_cast<index_t>(row_lengths.size()), 3000,
      [&](index_t row) { return row_lengths[static_cast<std::size_t>(row)]; }, rng);
}

class CsrSpmv : public ::testing::TestWithParam<BackendCase> {
 protected:
  void SetUp() override {
    if (device_available()) stream_ = std::make_unique<test::TestStream>();
  }

  SpmvOptions options() const {
    SpmvOptions options;
    options.format = GetParam().format;
    options.x_cache = GetParam().x_cache;
    return options;
  }

  // Builds the backend for `source` in precision T, checks one apply, then update_values()
  // with random device values of the same pattern and another apply (and apply_scaled).
  template <class T>
  void expect_matches_reference(const CsrMatrix<double>& source, const std::string& what,
                                const SpmvOptions& spmv_options) {
    SCOPED_TRACE(what + (std::is_same_v<T, float> ? " (float)" : " (double)"));
    const CsrMatrix<T> matrix = convert_values<T>(source);
    const auto backend = make_spmv_backend<T>(matrix, spmv_options, stream_->get());
    ASSERT_EQ(backend->rows(), matrix.rows);
    ASSERT_EQ(backend->cols(), matrix.cols);
    const double tolerance = test::spmv_tolerance<T>(test::max_row_length(matrix));
    EXPECT_LT(test::spmv_relative_error(*backend, matrix, rng_, *stream_), tolerance)
        << backend->name();
    const CsrMatrix<T> updated = test::with_random_values(matrix, rng_);
    EXPECT_EQ(test::update_values_from_host(*backend, updated.values, *stream_), updated.nnz());
    EXPECT_LT(test::spmv_relative_error(*backend, updated, rng_, *stream_), tolerance)
        << backend->name() << " after update_values";
  }

  void expect_matches_reference(const CsrMatrix<double>& source, const std::string& what) {
    expect_matches_reference<float>(source, what, options());
    expect_matches_reference<double>(source, what, options());
  }

  // apply_scaled on `source` with fresh random values in precision T (spmv_test_support.hpp:
  // alpha -1.5 / beta 0.5 on a random y, beta 0 on a NaN-poisoned y).
  template <class T>
  void expect_scaled_matches_reference(const CsrMatrix<double>& source, const std::string& what,
                                       const SpmvOptions& spmv_options) {
    SCOPED_TRACE(what + (std::is_same_v<T, float> ? " (float)" : " (double)"));
    const CsrMatrix<T> matrix = test::with_random_values(convert_values<T>(source), rng_);
    const auto backend = make_spmv_backend<T>(matrix, spmv_options, stream_->get());
    test::expect_scaled_products_match(*backend, matrix, rng_, *stream_);
  }

  std::unique_ptr<test::TestStream> stream_;
  std::mt19937_64 rng_{20240917};
};

TEST_P(CsrSpmv, GeneratorMatrices) {
  SPK_REQUIRE_GPU_OR_SKIP();
  expect_matches_reference(generate_poisson2d(40), "poisson2d n=40");
  expect_matches_reference(generate_poisson3d(12, 7), "poisson3d n=12 7-point");
  expect_matches_reference(generate_poisson3d(8, 27), "poisson3d n=8 27-point");
  expect_matches_reference(generate_convdiff2d(30, 10.0, ConvectionScheme::upwind),
                           "convdiff2d n=30");
  expect_matches_reference(generate_convdiff3d(10, 2.0, ConvectionScheme::central),
                           "convdiff3d n=10 central");
  expect_matches_reference(generate_elasticity3d(5), "elasticity3d n=5");
  expect_matches_reference(generate_powerlaw(3000, 8.0, 1.5, 7), "powerlaw heavy tail");
  expect_matches_reference(generate_powerlaw(3000, 30.0, 3.0, 8), "powerlaw mean 30");
  expect_matches_reference(generate_rmat(11, 16, 3), "rmat scale 11");
  expect_matches_reference(generate_circuit(20000, 3, 0.05, 2), "circuit 20000 rows");
}

TEST_P(CsrSpmv, SharedMatrices) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const auto paths = test::shared_matrix_paths();
  ASSERT_FALSE(paths.empty()) << "no .mtx in data/";
  for (const auto& path : paths) expect_matches_reference(read_matrix_market(path), path);
}

TEST_P(CsrSpmv, AwkwardShapes) {
  SPK_REQUIRE_GPU_OR_SKIP();
  std::mt19937_64& rng = rng_;
  const auto lengths_up_to = [&rng](index_t longest) {
    return [&rng, longest](index_t) {
      return std::uniform_int_distribution<index_t>(0, longest)(rng);
    };
  };
  expect_matches_reference(test::random_pattern_matrix(
                               1, 1, [](index_t) { return 1; }, rng),
                           "n=1");
  expect_matches_reference(test::random_pattern_matrix(
                               1, 1, [](index_t) { return 0; }, rng),
                           "n=1, no entry");
  expect_matches_reference(
      test::random_pattern_matrix(
          500, 500, [&](index_t row) { return row % 3 == 0 ? 0 : lengths_up_to(40)(row); }, rng),
      "every third row empty");
  expect_matches_reference(test::random_pattern_matrix(
                               100, 100, [](index_t) { return 0; }, rng),
                           "all rows empty (nnz = 0)");
  expect_matches_reference(test::random_pattern_matrix(
                               10, 0, [](index_t) { return 0; }, rng),
                           "no columns");
  expect_matches_reference(
      test::random_pattern_matrix(
          2000, 2000, [&](index_t row) { return row == 17 ? 2000 : lengths_up_to(6)(row); }, rng),
      "row 17 holds every column");
  expect_matches_reference(
      test::random_pattern_matrix(
          64, 100003, [&](index_t row) { return row == 5 ? 100000 : lengths_up_to(10)(row); }, rng),
      "one row of 100000 entries");
  expect_matches_reference(test::random_pattern_matrix(1000, 37, lengths_up_to(37), rng),
                           "rectangular 1000x37");
  expect_matches_reference(test::random_pattern_matrix(37, 1000, lengths_up_to(300), rng),
                           "rectangular 37x1000");
  expect_matches_reference(boundary_length_matrix(rng), "row lengths around warp boundaries");
}

TEST_P(CsrSpmv, ApplyScaled) {
  SPK_REQUIRE_GPU_OR_SKIP();
  for (const test::NamedShape& shape : test::awkward_shapes(rng_)) {
    expect_scaled_matches_reference<float>(shape.matrix, shape.name, options());
    expect_scaled_matches_reference<double>(shape.matrix, shape.name, options());
  }
  expect_scaled_matches_reference<double>(generate_powerlaw(3000, 8.0, 1.5, 7),
                                          "powerlaw heavy tail", options());
  // csr-vector's every width (its long-row finishing pass applies alpha and beta too) and
  // aligned-csr's every group size.
  for (const int threads : {2, 4, 8, 16, 32}) {
    SpmvOptions spmv_options = options();
    spmv_options.threads_per_row = threads;
    if (GetParam().format != Format::csr_vector && GetParam().format != Format::aligned_csr) break;
    expect_scaled_matches_reference<double>(
        boundary_length_matrix(rng_), "threads_per_row " + std::to_string(threads), spmv_options);
  }
}

TEST_P(CsrSpmv, NoRows) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const CsrMatrix<double> matrix = test::random_pattern_matrix(
      0, 10, [](index_t) { return 0; }, rng_);
  const auto backend = make_spmv_backend<double>(matrix, options(), stream_->get());
  EXPECT_EQ(backend->rows(), 0);
  EXPECT_EQ(backend->cols(), 10);
  DeviceBuffer<double> x(10);
  backend->apply(x.data(), nullptr);  // nothing to write
  stream_->synchronize();
  SUCCEED();
}

TEST_P(CsrSpmv, MillionRows) {
  SPK_REQUIRE_GPU_OR_SKIP();
  expect_matches_reference(million_row_matrix(), "poisson2d n=1000");
}

TEST_P(CsrSpmv, EveryThreadsPerRowAndBlockSize) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const CsrMatrix<double> matrix = boundary_length_matrix(rng_);
  for (int threads : {2, 4, 8, 16, 32})
    for (int block_size : {32, 96, 256, 1024}) {
      SpmvOptions spmv_options = options();
      spmv_options.threads_per_row = threads;
      spmv_options.block_size = block_size;
      const std::string what = "threads_per_row " + std::to_string(threads) + ", block_size " +
                               std::to_string(block_size);
      expect_matches_reference<float>(matrix, what, spmv_options);
      expect_matches_reference<double>(matrix, what, spmv_options);
      if (GetParam().format == Format::csr_vector || GetParam().format == Format::aligned_csr) {
        const auto backend = make_spmv_backend<double>(matrix, spmv_options, stream_->get());
        EXPECT_EQ(detail(*backend, "threads_per_row"), std::to_string(threads));
      }
    }
}

// A solver applies the operator to the same few vectors over and over: the texture cache
// reuses one texture object per x pointer. Alternate two x vectors, poison y every time.
TEST_P(CsrSpmv, RepeatedApplyOnTheSameVectors) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const CsrMatrix<double> matrix = generate_powerlaw(5000, 12.0, 2.0, 3);
  const auto backend = make_spmv_backend<double>(matrix, options(), stream_->get());
  const auto n = static_cast<std::size_t>(matrix.rows);
  std::vector<std::vector<double>> x_host = {test::random_values<double>(n, rng_),
                                             test::random_values<double>(n, rng_)};
  std::vector<DeviceBuffer<double>> x_device;
  for (const auto& x : x_host) x_device.emplace_back(x, "test x");
  std::vector<std::vector<double>> expected(2, std::vector<double>(n));
  for (int which = 0; which < 2; ++which)
    reference_spmv(matrix, x_host[which].data(), expected[which].data());
  DeviceBuffer<double> y_device(n, "test y");
  for (int round = 0; round < 6; ++round) {
    const int which = round % 3 == 2 ? 1 : 0;  // x0, x0, x1, x0, x0, x1
    SPK_CUDA_CHECK(cudaMemsetAsync(y_device.data(), 0xFF, n * sizeof(double), stream_->get()));
    backend->apply(x_device[which].data(), y_device.data());
    std::vector<double> y(n);
    SPK_CUDA_CHECK(cudaMemcpyAsync(y.data(), y_device.data(), n * sizeof(double),
                                   cudaMemcpyDeviceToHost, stream_->get()));
    stream_->synchronize();
    EXPECT_LT(test::relative_error(y, expected[which]), 1e-12) << "round " << round;
  }
}

// No atomics in the hand-written CSR kernels: csr-merge's carries across tiles and
// csr-vector's long-row partials are summed in a fixed order, so y is the same bits on every
// apply. A row of 100000 entries spans ~80 csr-merge tiles; float values too.
TEST_P(CsrSpmv, RepeatedAppliesAreBitwiseEqual) {
  SPK_REQUIRE_GPU_OR_SKIP();
  if (GetParam().format == Format::cusparse) GTEST_SKIP() << "cuSPARSE ALG1 promises no bits";
  const CsrMatrix<double> matrix = test::with_random_values(
      test::random_pattern_matrix(
          3000, 100000, [](index_t row) { return row == 1500 ? 100000 : row % 13; }, rng_),
      rng_);
  const auto n = static_cast<std::size_t>(matrix.rows);
  const std::vector<double> x =
      test::random_values<double>(static_cast<std::size_t>(matrix.cols), rng_);
  std::vector<double> expected(n);
  reference_spmv(matrix, x.data(), expected.data());
  const DeviceBuffer<double> x_device(x, "test x");
  DeviceBuffer<double> y_device(n, "test y");
  for (const int block_size : {256, 64}) {
    SpmvOptions spmv_options = options();
    spmv_options.block_size = block_size;
    const auto backend = make_spmv_backend<double>(matrix, spmv_options, stream_->get());
    std::vector<double> first;
    for (int repeat = 0; repeat < 5; ++repeat) {
      SPK_CUDA_CHECK(cudaMemsetAsync(y_device.data(), 0xFF, n * sizeof(double), stream_->get()));
      backend->apply(x_device.data(), y_device.data());
      std::vector<double> y(n);
      SPK_CUDA_CHECK(cudaMemcpyAsync(y.data(), y_device.data(), n * sizeof(double),
                                     cudaMemcpyDeviceToHost, stream_->get()));
      stream_->synchronize();
      EXPECT_LT(test::relative_error(y, expected), 1e-12) << "apply " << repeat;
      if (repeat == 0) first = y;
      EXPECT_EQ(y, first) << "block_size " << block_size << ", apply " << repeat;
    }
  }
}

// x one element into its allocation: not aligned for a texture (textureAlignment is larger
// than 8 bytes), so the texture path must fall back instead of failing or reading wrong data.
TEST_P(CsrSpmv, MisalignedX) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const CsrMatrix<double> source = generate_poisson3d(10, 27);
  for (const std::size_t offset : {1, 3}) {
    const CsrMatrix<float> single = convert_values<float>(source);
    const auto float_backend = make_spmv_backend<float>(single, options(), stream_->get());
    EXPECT_LT(test::spmv_relative_error(*float_backend, single, rng_, *stream_, offset), 1e-5);
    const auto double_backend = make_spmv_backend<double>(source, options(), stream_->get());
    EXPECT_LT(test::spmv_relative_error(*double_backend, source, rng_, *stream_, offset), 1e-12);
  }
}

// update_values: new device values give the new product (plain and scaled), the first
// non-finite value is reported by its index, a null flag is fine, and the update is one
// capturable kernel; on every awkward shape (n = 1, nnz = 0, ...), float and double.
TEST_P(CsrSpmv, UpdateValuesOnTheDevice) {
  SPK_REQUIRE_GPU_OR_SKIP();
  std::vector<test::NamedShape> shapes = test::awkward_shapes(rng_);
  shapes.push_back({"poisson2d n=20", generate_poisson2d(20)});
  for (const test::NamedShape& shape : shapes) {
    SCOPED_TRACE(shape.name);
    const CsrMatrix<double> matrix = test::with_random_values(shape.matrix, rng_);
    const auto backend = make_spmv_backend<double>(matrix, options(), stream_->get());
    test::expect_update_values_contract(*backend, matrix, rng_, *stream_);
    test::expect_update_values_capturable(*backend, matrix, rng_, *stream_);
    const CsrMatrix<float> single = convert_values<float>(matrix);
    const auto float_backend = make_spmv_backend<float>(single, options(), stream_->get());
    test::expect_update_values_contract(*float_backend, single, rng_, *stream_);
    test::expect_update_values_capturable(*float_backend, single, rng_, *stream_);
  }
}

// device_bytes() and bytes_per_spmv() against the documented byte model, on the 4x4 matrix
// [1 . 2 .; . . . .; 3 4 5 6; . . . 7] (nnz 7).
TEST_P(CsrSpmv, ByteModel) {
  SPK_REQUIRE_GPU_OR_SKIP();
  CsrMatrix<double> matrix;
  matrix.rows = 4;
  matrix.cols = 4;
  matrix.row_offsets = {0, 2, 2, 6, 7};
  matrix.columns = {0, 2, 0, 1, 2, 3, 3};
  matrix.values = {1, 2, 3, 4, 5, 6, 7};
  const auto backend = make_spmv_backend<double>(matrix, options(), stream_->get());
  const std::size_t x_and_y = 4 * 8 + 4 * 8;
  const Format format = GetParam().format;
  if (format == Format::aligned_csr) {
    // 16 threads per row: rows pad to 16, 0, 16, 16 entries.
    EXPECT_EQ(detail(*backend, "padded_entries"), "48");
    EXPECT_EQ(detail(*backend, "padding_overhead"), "585.7%");
    // + the slot map of update_values: one 32-bit slot per nonzero.
    EXPECT_EQ(backend->device_bytes(), 5u * 4 + 48u * (4 + 8) + 7u * 4);
    EXPECT_EQ(backend->bytes_per_spmv(), 48u * (8 + 4) + 5u * 4 + x_and_y);
  } else if (format == Format::csr_merge) {
    // 4 rows + 7 nonzeros = 11 path items: one tile (block_size x 5 items). Kept besides the
    // CSR arrays, sized for 32-thread tiles: the tile starts (2 coordinates of 8 bytes) and one
    // carry slot (a 4-byte row, an 8-byte sum); each SpMV reads the starts and writes and reads
    // the carry.
    EXPECT_EQ(detail(*backend, "items_per_thread"), "5");
    EXPECT_EQ(detail(*backend, "tiles"), "1");
    EXPECT_EQ(backend->device_bytes(), 5u * 4 + 7u * (4 + 8) + 2u * 8 + 4u + 8u);
    EXPECT_EQ(backend->bytes_per_spmv(), 7u * (8 + 4) + 5u * 4 + x_and_y + 2u * 8 + 2u * (4 + 8));
  } else {
    std::size_t extra = 0;
    if (format == Format::cusparse) extra = std::stoull(detail(*backend, "workspace_bytes"));
    EXPECT_EQ(backend->device_bytes(), 5u * 4 + 7u * (4 + 8) + extra);
    EXPECT_EQ(backend->bytes_per_spmv(), 7u * (8 + 4) + 5u * 4 + x_and_y);
  }
  const CsrMatrix<float> single = convert_values<float>(matrix);
  const auto float_backend = make_spmv_backend<float>(single, options(), stream_->get());
  const std::size_t stored = format == Format::aligned_csr ? 48 : 7;
  const std::size_t merge_carries = format == Format::csr_merge ? 2u * 8 + 2u * (4 + 4) : 0;
  EXPECT_EQ(float_backend->bytes_per_spmv(),
            stored * (4 + 4) + 5u * 4 + 4u * 4 + 4u * 4 + merge_carries);
}

TEST_P(CsrSpmv, NameAndDetails) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const CsrMatrix<double> matrix = generate_poisson3d(6, 7);  // mean row length 6
  const auto backend = make_spmv_backend<double>(matrix, options(), stream_->get());
  const Format format = GetParam().format;
  if (format == Format::cusparse) {
    EXPECT_EQ(backend->name(), "cusparse/alg1");  // x_cache does not apply
    EXPECT_EQ(detail(*backend, "algorithm"), "alg1");
  } else {
    EXPECT_EQ(backend->name(),
              std::string(to_string(format)) + "/" + to_string(GetParam().x_cache));
    EXPECT_EQ(detail(*backend, "x_cache"), to_string(GetParam().x_cache));
    EXPECT_EQ(detail(*backend, "block_size"), "256");
  }
  if (format == Format::csr_vector) {
    EXPECT_EQ(detail(*backend, "threads_per_row"), "2");  // double, mean 6: 6 / 3 -> 2
    EXPECT_EQ(detail(*backend, "threads_per_row_from").rfind("mean row length", 0), 0u);
  }
  if (format == Format::aligned_csr) {
    EXPECT_EQ(detail(*backend, "threads_per_row"), "16");
  }
}

std::vector<BackendCase> all_cases() {
  std::vector<BackendCase> cases;
  for (const Format format : {Format::csr_scalar, Format::csr_vector, Format::aligned_csr,
                              Format::csr_merge, Format::cusparse})
    for (XCache cache : {XCache::none, XCache::ldg, XCache::texture})
      cases.push_back({format, cache});
  cases.push_back({Format::csr_vector, XCache::shared});  // the others refuse it
  return cases;
}

INSTANTIATE_TEST_SUITE_P(CsrFamily, CsrSpmv, ::testing::ValuesIn(all_cases()), case_name);

TEST(CsrFamilyRegistry, CsrIsAnAliasOfCsrVector) {
  SPK_REQUIRE_GPU_OR_SKIP();
  test::TestStream stream;
  std::mt19937_64 rng(5);
  const CsrMatrix<double> matrix = generate_powerlaw(2000, 20.0, 2.5, 9);
  SpmvOptions options;
  options.format = Format::csr;
  for (XCache cache : {XCache::none, XCache::ldg, XCache::texture, XCache::shared}) {
    options.x_cache = cache;
    const auto backend = make_spmv_backend<double>(matrix, options, stream.get());
    EXPECT_EQ(backend->name(), std::string("csr-vector/") + to_string(cache));
    EXPECT_EQ(
        detail(*backend, "threads_per_row"),
        std::to_string(csr_vector_threads_per_row(matrix.rows, matrix.nnz(), 0, sizeof(double))));
    EXPECT_LT(test::spmv_relative_error(*backend, matrix, rng, stream), 1e-12);
  }
}

// csr-vector's long-row path: rows of more than 32 w entries are computed in 1024-entry chunks
// by whole warps; check the result, the reported split and the byte model that includes it.
TEST(CsrVectorLongRows, SplitIsReportedCountedAndCorrect) {
  SPK_REQUIRE_GPU_OR_SKIP();
  test::TestStream stream;
  std::mt19937_64 rng(12);
  const CsrMatrix<double> matrix = test::random_pattern_matrix(
      2000, 120000,
      [&rng](index_t row) {
        if (row == 10) return index_t{100000};
        if (row == 11) return index_t{1025};
        if (row == 500) return index_t{5000};
        return std::uniform_int_distribution<index_t>(0, 12)(rng);
      },
      rng);
  const int threads = csr_vector_threads_per_row(matrix.rows, matrix.nnz(), 0, sizeof(double));
  const CsrLongRows split = find_long_rows(matrix.row_offsets, csr_vector_long_row_length(threads));
  ASSERT_GE(split.rows.size(), 3u);
  for (XCache cache : {XCache::none, XCache::ldg, XCache::texture, XCache::shared}) {
    SpmvOptions options;
    options.format = Format::csr_vector;
    options.x_cache = cache;
    const auto backend = make_spmv_backend<double>(matrix, options, stream.get());
    EXPECT_EQ(detail(*backend, "long_rows")
                  .rfind(std::to_string(split.rows.size()) + " (over " +
                             std::to_string(csr_vector_long_row_length(threads)) + " entries, " +
                             std::to_string(split.chunks()) + " chunks",
                         0),
              0u)
        << detail(*backend, "long_rows");
    const std::size_t split_bytes =
        (split.rows.size() + split.chunk_offsets.size() + split.chunk_rows.size()) * 4;
    const std::size_t csr_bytes =
        (matrix.row_offsets.size() + matrix.columns.size()) * 4 + matrix.values.size() * 8;
    EXPECT_EQ(backend->device_bytes(), csr_bytes + split_bytes + split.chunk_rows.size() * 8);
    EXPECT_EQ(backend->bytes_per_spmv(),
              csr_bytes + (120000u + 2000u) * 8 + split_bytes + 2 * split.chunk_rows.size() * 8);
    for (int repeat = 0; repeat < 2; ++repeat)
      EXPECT_LT(test::spmv_relative_error(*backend, matrix, rng, stream), 1e-12);
    const CsrMatrix<float> single = convert_values<float>(matrix);
    const auto float_backend = make_spmv_backend<float>(single, options, stream.get());
    EXPECT_LT(test::spmv_relative_error(*float_backend, single, rng, stream),
              test::spmv_tolerance<float>(100000));
  }
}

TEST(CsrFamilyCusparse, EveryAlgorithm) {
  SPK_REQUIRE_GPU_OR_SKIP();
  test::TestStream stream;
  std::mt19937_64 rng(6);
  const std::vector<std::pair<std::string, CsrMatrix<double>>> matrices = {
      {"poisson3d", generate_poisson3d(16, 7)},
      {"powerlaw", generate_powerlaw(20000, 10.0, 1.5, 4)},
      {"rectangular", test::random_pattern_matrix(
                          300, 1200, [](index_t r) { return r % 50; }, rng)}};
  for (const std::string algorithm : {"alg1", "alg2", "default"}) {
    SpmvOptions options;
    options.format = Format::cusparse;
    options.cusparse_algorithm = algorithm;
    for (const auto& [name, matrix] : matrices) {
      SCOPED_TRACE(algorithm + " " + name);
      const auto backend = make_spmv_backend<double>(matrix, options, stream.get());
      EXPECT_EQ(backend->name(), "cusparse/" + algorithm);
      EXPECT_LT(test::spmv_relative_error(*backend, matrix, rng, stream), 1e-12);
      const CsrMatrix<float> single = convert_values<float>(matrix);
      const auto float_backend = make_spmv_backend<float>(single, options, stream.get());
      EXPECT_LT(test::spmv_relative_error(*float_backend, single, rng, stream), 1e-5);
      // Repeated applies reuse the preprocessing done at setup.
      EXPECT_LT(test::spmv_relative_error(*float_backend, single, rng, stream), 1e-5);
    }
  }
}

TEST(CsrFamilyOptions, BadOptionsAreRefusedWithOneLine) {
  SPK_REQUIRE_GPU_OR_SKIP();
  test::TestStream stream;
  const CsrMatrix<double> matrix = generate_poisson2d(8);
  for (const Format format : {Format::csr_scalar, Format::csr_vector, Format::aligned_csr})
    for (int block_size : {0, 100, 2048}) {
      SpmvOptions options;
      options.format = format;
      options.block_size = block_size;
      test::expect_error<BadInput>(
          [&] { make_spmv_backend<double>(matrix, options, stream.get()); }, "spmv.block_size",
          std::to_string(block_size));
    }
  for (const Format format : {Format::csr_vector, Format::aligned_csr})
    for (int threads : {1, 3, 64}) {
      SpmvOptions options;
      options.format = format;
      options.threads_per_row = threads;
      test::expect_error<BadInput>(
          [&] { make_spmv_backend<double>(matrix, options, stream.get()); },
          std::string(to_string(format)) + ": spmv.threads_per_row", std::to_string(threads));
    }
  SpmvOptions options;
  options.format = Format::cusparse;
  options.cusparse_algorithm = "alg3";
  test::expect_error<BadInput>([&] { make_spmv_backend<double>(matrix, options, stream.get()); },
                               "cusparse: spmv.cusparse_algorithm = 'alg3'", "alg1, alg2, default");
  // x_cache: shared only exists for csr-vector: the other CSR formats refuse it at the factory
  // and at set_launch, naming the format and the key.
  for (const Format format : {Format::csr_scalar, Format::aligned_csr, Format::cusparse}) {
    SpmvOptions shared;
    shared.format = format;
    shared.x_cache = XCache::shared;
    const std::string prefix =
        std::string("spmv.x_cache: shared is not supported by format '") + to_string(format) + "'";
    test::expect_error<BadInput>([&] { make_spmv_backend<double>(matrix, shared, stream.get()); },
                                 prefix, "csr-vector");
    SpmvOptions plain = shared;
    plain.x_cache = XCache::ldg;
    const auto backend = make_spmv_backend<double>(matrix, plain, stream.get());
    test::expect_error<BadInput>([&] { backend->set_launch(shared); }, prefix, "csr-vector");
  }
}

// ---- csr-vector with x_cache: shared (shared_x_tile.cuh) ---------------------------------

// Rows in groups of 32 of one kind each, so that the warps of every width (32 / w rows a warp)
// see spans that fit the 1024-value tile and spans that do not:
//   banded        columns within 200 of the group's first row: the tile path
//   span 1024     columns c0 and c0 + 1023 (plus a few between): exactly the tile
//   span 1025     columns c0 and c0 + 1024: one past the tile, the __ldg path
//   wide          columns anywhere in [0, cols): the __ldg path
//   empty         no entries
//   long          100 to 1500 entries within 3000 columns: past the long-row threshold for
//                 narrow sub-warps (the long-row passes read x through __ldg)
CsrMatrix<double> span_test_matrix(index_t rows, index_t cols, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  CsrMatrix<double> matrix;
  matrix.rows = rows;
  matrix.cols = cols;
  matrix.row_offsets.assign(static_cast<std::size_t>(rows) + 1, 0);
  const auto random_in = [&](index_t low, index_t high) {  // [low, high)
    return std::uniform_int_distribution<index_t>(low, high - 1)(rng);
  };
  for (index_t row = 0; row < rows; ++row) {
    const index_t group_start = row / 32 * 32;
    std::vector<index_t> columns;
    const index_t base = std::min(group_start, cols - 3001);
    switch ((row / 32) % 6) {
      case 0:
        for (index_t k = random_in(1, 65); k > 0; --k)
          columns.push_back(random_in(base, base + 200));
        break;
      case 1:
        columns = {base, base + 1023};
        for (index_t k = random_in(0, 40); k > 0; --k)
          columns.push_back(random_in(base, base + 1024));
        break;
      case 2: columns = {base + random_in(0, 2), base + 1024 + random_in(0, 2)}; break;
      case 3:
        for (index_t k = random_in(2, 41); k > 0; --k) columns.push_back(random_in(0, cols));
        break;
      case 4: break;
      default:
        for (index_t k = random_in(100, 1501); k > 0; --k)
          columns.push_back(random_in(base, base + 3000));
    }
    std::sort(columns.begin(), columns.end());
    columns.erase(std::unique(columns.begin(), columns.end()), columns.end());
    for (const index_t column : columns) {
      matrix.columns.push_back(column);
      matrix.values.push_back(unit(rng));
    }
    matrix.row_offsets[row + 1] = matrix.nnz();
  }
  return matrix;
}

template <class T>
void expect_shared_x_matches_reference(const CsrMatrix<double>& source, const SpmvOptions& options,
                                       std::mt19937_64& rng, const test::TestStream& stream) {
  const CsrMatrix<T> matrix = convert_values<T>(source);
  const auto backend = make_spmv_backend<T>(matrix, options, stream.get());
  EXPECT_EQ(backend->name(), "csr-vector/shared");
  const double tolerance = test::spmv_tolerance<T>(test::max_row_length(matrix));
  EXPECT_LT(test::spmv_relative_error(*backend, matrix, rng, stream), tolerance);
  test::expect_scaled_products_match(*backend, matrix, rng, stream);
}

TEST(CsrVectorSharedX, TiledAndGlobalSpansAtEveryWidthAndBlockSize) {
  SPK_REQUIRE_GPU_OR_SKIP();
  test::TestStream stream;
  std::mt19937_64 rng(31);
  const CsrMatrix<double> matrix = span_test_matrix(6000, 9000, rng);
  for (const int threads : {2, 4, 8, 16, 32})
    for (const int block_size : {32, 256, 1024}) {
      SCOPED_TRACE("threads_per_row " + std::to_string(threads) + ", block_size " +
                   std::to_string(block_size));
      SpmvOptions options;
      options.format = Format::csr_vector;
      options.x_cache = XCache::shared;
      options.threads_per_row = threads;
      options.block_size = block_size;
      expect_shared_x_matches_reference<float>(matrix, options, rng, stream);
      expect_shared_x_matches_reference<double>(matrix, options, rng, stream);
      options.grid = GridShape::capped;  // the grid-stride loop moves whole warps
      expect_shared_x_matches_reference<double>(matrix, options, rng, stream);
    }
}

// The tile holds at most 1024 values per warp, fewer (a multiple of 32) when the block's warps
// would not fit the device's shared memory; details() reports it.
TEST(CsrVectorSharedX, TileCapacityIsReported) {
  SPK_REQUIRE_GPU_OR_SKIP();
  test::TestStream stream;
  SpmvOptions options;
  options.format = Format::csr_vector;
  options.x_cache = XCache::shared;
  for (const int block_size : {32, 256, 1024}) {
    options.block_size = block_size;
    const auto backend = make_spmv_backend<double>(generate_poisson2d(30), options, stream.get());
    const std::string tile = detail(*backend, "x_tile");
    SCOPED_TRACE(tile);
    const unsigned long values = std::stoul(tile);
    EXPECT_GT(values, 0u);
    EXPECT_LE(values, 1024u);
    EXPECT_EQ(values % 32, 0u);
    if (block_size <= 256) {
      EXPECT_EQ(values, 1024u);  // 64 KB for 8 warps of doubles: every GPU since Volta
    }
  }
  options.x_cache = XCache::ldg;
  const auto plain = make_spmv_backend<double>(generate_poisson2d(30), options, stream.get());
  EXPECT_EQ(detail(*plain, "x_tile"), "<missing x_tile>");
}

// Device arrays need not have sorted columns: the first and last entries then only choose the
// window, and entries outside it are read from global memory.
TEST(CsrVectorSharedX, UnsortedColumnsWithinRows) {
  SPK_REQUIRE_GPU_OR_SKIP();
  test::TestStream stream;
  std::mt19937_64 rng(32);
  CsrMatrix<double> matrix = span_test_matrix(3000, 6000, rng);
  for (index_t row = 0; row < matrix.rows; ++row) {
    const auto begin = static_cast<std::size_t>(matrix.row_offsets[row]);
    const auto end = static_cast<std::size_t>(matrix.row_offsets[row + 1]);
    std::vector<std::size_t> order(end - begin);
    for (std::size_t k = 0; k < order.size(); ++k) order[k] = begin + k;
    std::shuffle(order.begin(), order.end(), rng);
    std::vector<index_t> columns;
    std::vector<double> values;
    for (const std::size_t k : order) {
      columns.push_back(matrix.columns[k]);
      values.push_back(matrix.values[k]);
    }
    std::copy(columns.begin(), columns.end(),
              matrix.columns.begin() + static_cast<std::ptrdiff_t>(begin));
    std::copy(values.begin(), values.end(),
              matrix.values.begin() + static_cast<std::ptrdiff_t>(begin));
  }
  for (const int threads : {4, 32}) {
    SpmvOptions options;
    options.format = Format::csr_vector;
    options.x_cache = XCache::shared;
    options.threads_per_row = threads;
    SCOPED_TRACE("threads_per_row " + std::to_string(threads));
    expect_shared_x_matches_reference<double>(matrix, options, rng, stream);
    expect_shared_x_matches_reference<float>(matrix, options, rng, stream);
  }
}

TEST(CsrVectorSharedX, IrregularMatrices) {
  SPK_REQUIRE_GPU_OR_SKIP();
  test::TestStream stream;
  std::mt19937_64 rng(33);
  const std::vector<std::pair<std::string, CsrMatrix<double>>> matrices = {
      {"powerlaw 200k rows", generate_powerlaw(200000, 8.0, 1.8, 3)},
      {"rmat scale 15", generate_rmat(15, 16, 4)},
      {"circuit 300k rows", generate_circuit(300000, 4, 0.05, 5)},
      {"poisson2d n=300 (tiled)", generate_poisson2d(300)},
      {"elasticity3d n=10 (tiled with 32 threads)", generate_elasticity3d(10)}};
  for (const auto& [name, matrix] : matrices)
    for (const int threads : {0, 16, 32}) {
      SCOPED_TRACE(name + ", threads_per_row " + std::to_string(threads));
      SpmvOptions options;
      options.format = Format::csr_vector;
      options.x_cache = XCache::shared;
      options.threads_per_row = threads;
      expect_shared_x_matches_reference<double>(matrix, options, rng, stream);
      expect_shared_x_matches_reference<float>(matrix, options, rng, stream);
    }
}

// A solver captures its iteration in a CUDA graph: the shared-x launch (dynamic shared memory
// past 48 KB) must be capturable, from a backend's very first apply on.
TEST(CsrVectorSharedX, ApplyIsCapturableInACudaGraph) {
  SPK_REQUIRE_GPU_OR_SKIP();
  test::TestStream stream;
  std::mt19937_64 rng(34);
  const CsrMatrix<double> matrix = test::with_random_values(generate_poisson3d(20, 27), rng);
  SpmvOptions options;
  options.format = Format::csr_vector;
  options.x_cache = XCache::shared;
  options.threads_per_row = 32;
  const auto backend = make_spmv_backend<double>(matrix, options, stream.get());
  const auto n = static_cast<std::size_t>(matrix.rows);
  const std::vector<double> x = test::random_values<double>(n, rng);
  DeviceBuffer<double> x_device(x, "test x");
  DeviceBuffer<double> y_device(n, "test y");
  SPK_CUDA_CHECK(cudaMemsetAsync(y_device.data(), 0xFF, n * sizeof(double), stream.get()));
  SPK_CUDA_CHECK(cudaStreamBeginCapture(stream.get(), cudaStreamCaptureModeGlobal));
  backend->apply(x_device.data(), y_device.data());
  test::launch_capture_once(stream);
  std::vector<double> expected(n);
  reference_spmv(matrix, x.data(), expected.data());
  EXPECT_LT(test::relative_error(y_device.to_host(), expected), 1e-12);
}

}  // namespace
}  // namespace spk
