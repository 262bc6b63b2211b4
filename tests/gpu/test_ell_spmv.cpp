// GPU tests of the ELL-family backends (ellpack, ellpack-r, hyb, sell) x spmv.x_cache {none,
// ldg, texture} x {float, double}, and of sell's long-row split (SellLongRowSpmv). Every apply runs
// on a fresh random x with y poisoned by NaN and is checked against the fp64 CPU reference of the
// same T-valued matrix, whose values are random too (spmv_test_support.hpp explains the
// tolerances). HYB's COO atomics make the last bits of y run-dependent; the tolerances cover that.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <ostream>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "spkrylov/errors.hpp"
#include "spmv/formats/sell_layout.hpp"
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

void PrintTo(const BackendCase& backend_case, std::ostream* out) {
  *out << to_string(backend_case.format) << "/" << to_string(backend_case.x_cache);
}

std::string case_name(const ::testing::TestParamInfo<BackendCase>& info) {
  std::string name =
      std::string(to_string(info.param.format)) + "_" + to_string(info.param.x_cache);
  for (char& c : name)
    if (c == '-') c = '_';
  return name;
}

template <class T>
std::string detail(const SpmvBackend<T>& backend, const std::string& key) {
  for (const auto& [name, value] : backend.details())
    if (name == key) return value;
  return "<missing " + key + ">";
}

// The default `ellpack` fill rule, restated: refused when rows * longest row > 1e5 slots
// and > 3 * nnz.
bool ellpack_refuses_by_default(const CsrMatrix<double>& matrix) {
  const double padded = static_cast<double>(matrix.rows) * test::max_row_length(matrix);
  return padded > 1e5 && padded > 3.0 * matrix.nnz();
}

CsrMatrix<double> lengths_matrix(index_t rows, index_t cols,
                                 const std::function<index_t(index_t)>& length,
                                 std::mt19937_64& rng) {
  return test::random_pattern_matrix(rows, cols, length, rng);
}

class EllSpmv : public ::testing::TestWithParam<BackendCase> {
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

  // Builds the backend for `source` (fresh random values) in precision T and checks two
  // applies: on the built values, then after update_values() with new random device values. For
  // `ellpack`, a matrix past the default fill rule must be refused instead.
  template <class T>
  void check(const CsrMatrix<double>& source, const std::string& what,
             const SpmvOptions& spmv_options) {
    SCOPED_TRACE(what + (std::is_same_v<T, float> ? " [float]" : " [double]"));
    const CsrMatrix<T> matrix = test::with_random_values(convert_values<T>(source), rng_);
    if (spmv_options.format == Format::ellpack && spmv_options.max_ell_fill == 3.0 &&
        ellpack_refuses_by_default(source)) {
      EXPECT_THROW((void)make_spmv_backend(matrix, spmv_options, stream_->get()), BadInput);
      return;
    }
    const auto backend = make_spmv_backend(matrix, spmv_options, stream_->get());
    EXPECT_EQ(backend->rows(), matrix.rows);
    EXPECT_EQ(backend->cols(), matrix.cols);
    const double tolerance = test::spmv_tolerance<T>(test::max_row_length(matrix));
    EXPECT_LT(test::spmv_relative_error(*backend, matrix, rng_, *stream_), tolerance);
    const CsrMatrix<T> updated = test::with_random_values(matrix, rng_);
    EXPECT_EQ(test::update_values_from_host(*backend, updated.values, *stream_), updated.nnz());
    EXPECT_LT(test::spmv_relative_error(*backend, updated, rng_, *stream_), tolerance)
        << "after update_values";
  }

  // apply_scaled on `source` with fresh random values in precision T (spmv_test_support.hpp:
  // alpha -1.5 / beta 0.5 on a random y, beta 0 on a NaN-poisoned y). `ellpack` past its
  // default fill rule is skipped (check() tests that refusal).
  template <class T>
  void check_scaled(const CsrMatrix<double>& source, const std::string& what,
                    const SpmvOptions& spmv_options) {
    SCOPED_TRACE(what + (std::is_same_v<T, float> ? " [float]" : " [double]"));
    if (spmv_options.format == Format::ellpack && spmv_options.max_ell_fill == 3.0 &&
        ellpack_refuses_by_default(source))
      return;
    const CsrMatrix<T> matrix = test::with_random_values(convert_values<T>(source), rng_);
    const auto backend = make_spmv_backend(matrix, spmv_options, stream_->get());
    test::expect_scaled_products_match(*backend, matrix, rng_, *stream_);
  }

  void check_scaled_both(const CsrMatrix<double>& source, const std::string& what,
                         const SpmvOptions& spmv_options) {
    check_scaled<double>(source, what, spmv_options);
    check_scaled<float>(source, what, spmv_options);
  }

  void check_both(const CsrMatrix<double>& source, const std::string& what) {
    check_both(source, what, options());
  }
  void check_both(const CsrMatrix<double>& source, const std::string& what,
                  const SpmvOptions& spmv_options) {
    check<double>(source, what, spmv_options);
    check<float>(source, what, spmv_options);
  }

  std::mt19937_64 rng_{20250611};
  std::unique_ptr<test::TestStream> stream_;
};

TEST_P(EllSpmv, GeneratorMatrices) {
  SPK_REQUIRE_GPU_OR_SKIP();
  check_both(generate_poisson2d(40), "poisson2d 40");
  check_both(generate_poisson3d(12, 7), "poisson3d 12 7-point");
  check_both(generate_poisson3d(9, 27), "poisson3d 9 27-point");
  check_both(generate_convdiff2d(30, 10.0, ConvectionScheme::upwind), "convdiff2d 30");
  check_both(generate_convdiff3d(10, 3.0, ConvectionScheme::central), "convdiff3d 10");
  check_both(generate_elasticity3d(5), "elasticity3d 5");
  check_both(generate_powerlaw(20000, 8.0, 2.0, 5), "powerlaw 20000");
}

TEST_P(EllSpmv, EverySharedMatrix) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const auto paths = test::shared_matrix_paths();
  ASSERT_FALSE(paths.empty()) << "no .mtx in data/";
  for (const std::string& path : paths) check_both(read_matrix_market(path), path);
}

TEST_P(EllSpmv, AwkwardShapes) {
  SPK_REQUIRE_GPU_OR_SKIP();
  check_both(lengths_matrix(
                 1, 1, [](index_t) { return 1; }, rng_),
             "n=1");
  check_both(lengths_matrix(
                 1, 1, [](index_t) { return 0; }, rng_),
             "n=1, nnz=0");
  check_both(lengths_matrix(
                 500, 500, [](index_t row) { return row % 3 == 0 ? 0 : row % 11; }, rng_),
             "every third row empty");
  check_both(lengths_matrix(
                 3000, 3000, [](index_t) { return 0; }, rng_),
             "all rows empty (nnz=0)");
  check_both(lengths_matrix(
                 7, 0, [](index_t) { return 0; }, rng_),
             "7x0");
  check_both(lengths_matrix(
                 0, 9, [](index_t) { return 0; }, rng_),
             "0x9");
  check_both(lengths_matrix(
                 400, 400, [](index_t row) { return row == 123 ? 400 : row % 6; }, rng_),
             "one row holding every column");
  check_both(lengths_matrix(
                 2000, 90, [](index_t row) { return 1 + row % 9; }, rng_),
             "tall 2000x90");
  check_both(lengths_matrix(
                 90, 2000, [](index_t row) { return 5 + 7 * (row % 13); }, rng_),
             "wide 90x2000");
  // every row length 0 .. 40 (unroll remainders 0..3 for every quotient), in random order
  std::vector<index_t> lengths;
  for (int repeat = 0; repeat < 30; ++repeat)
    for (index_t length = 0; length <= 40; ++length) lengths.push_back(length);
  std::shuffle(lengths.begin(), lengths.end(), rng_);
  check_both(lengths_matrix(
                 static_cast<index_t>(lengths.size()), 300,
                 [&](index_t row) { return lengths[static_cast<std::size_t>(row)]; }, rng_),
             "row lengths 0..40 shuffled");
}

TEST_P(EllSpmv, ApplyScaled) {
  SPK_REQUIRE_GPU_OR_SKIP();
  for (const test::NamedShape& shape : test::awkward_shapes(rng_))
    check_scaled_both(shape.matrix, shape.name, options());
  check_scaled_both(generate_powerlaw(20000, 8.0, 2.0, 5), "powerlaw 20000", options());
}

TEST_P(EllSpmv, RowOfOneHundredThousandEntries) {
  SPK_REQUIRE_GPU_OR_SKIP();
  // one row holding all 100000 columns, far more than a block's worth of work; `ellpack`
  // must refuse it (3e7 padded slots for ~1.3e5 nonzeros)
  const CsrMatrix<double> matrix = lengths_matrix(
      300, 100000, [](index_t row) { return row == 150 ? 100000 : row % 9; }, rng_);
  ASSERT_TRUE(ellpack_refuses_by_default(matrix));
  check_both(matrix, "a row of 100000 entries");
}

TEST_P(EllSpmv, MillionRows) {
  SPK_REQUIRE_GPU_OR_SKIP();
  static const CsrMatrix<double> matrix = generate_poisson2d(1000);  // 10^6 rows, ~5e6 nnz
  check_both(matrix, "poisson2d 1000 (10^6 rows)");
}

TEST_P(EllSpmv, RepeatedApplyOnTheSameXAndOnOtherPointers) {
  SPK_REQUIRE_GPU_OR_SKIP();
  // rows of 1..12 entries: every format accepts it (ellpack's fill stays under 3)
  const CsrMatrix<double> matrix = lengths_matrix(
      3000, 2500, [](index_t row) { return 1 + (row * 7) % 12; }, rng_);
  const auto backend = make_spmv_backend(matrix, options(), stream_->get());
  const std::size_t rows = static_cast<std::size_t>(matrix.rows);
  const std::vector<double> x =
      test::random_values<double>(static_cast<std::size_t>(matrix.cols), rng_);
  DeviceBuffer<double> x_device(x, "x");
  DeviceBuffer<double> y_device(rows, "y");
  std::vector<double> reference(rows);
  reference_spmv(matrix, x.data(), reference.data());
  std::vector<double> first;
  for (int repeat = 0; repeat < 4; ++repeat) {  // the texture object is created once, reused
    SPK_CUDA_CHECK(cudaMemsetAsync(y_device.data(), 0xFF, rows * sizeof(double), stream_->get()));
    backend->apply(x_device.data(), y_device.data());
    std::vector<double> y(rows);
    SPK_CUDA_CHECK(cudaMemcpyAsync(y.data(), y_device.data(), rows * sizeof(double),
                                   cudaMemcpyDeviceToHost, stream_->get()));
    stream_->synchronize();
    EXPECT_LT(test::relative_error(y, reference), 1e-12) << "apply " << repeat;
    if (repeat == 0) first = y;
    if (GetParam().format != Format::hyb) {  // no atomics: bitwise the same every time
      EXPECT_EQ(y, first) << "apply " << repeat;
    }
  }
  // other x pointers: a new allocation, and ones the texture cannot start at (x + 1, x + 3)
  for (const std::size_t offset : {std::size_t{0}, std::size_t{1}, std::size_t{3}})
    EXPECT_LT(test::spmv_relative_error(*backend, matrix, rng_, *stream_, offset), 1e-12)
        << "x offset " << offset;
  const CsrMatrix<float> single = convert_values<float>(matrix);
  const auto single_backend = make_spmv_backend(single, options(), stream_->get());
  for (const std::size_t offset : {std::size_t{0}, std::size_t{1}})
    EXPECT_LT(test::spmv_relative_error(*single_backend, single, rng_, *stream_, offset), 1e-5)
        << "float, x offset " << offset;
}

TEST_P(EllSpmv, EveryBlockSize) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const CsrMatrix<double> matrix = generate_powerlaw(5000, 10.0, 2.2, 3);
  for (const int block_size : {32, 96, 256, 512, 544, 1024}) {
    SpmvOptions spmv_options = options();
    spmv_options.block_size = block_size;
    check_both(matrix, "block_size " + std::to_string(block_size), spmv_options);
  }
  for (const int bad : {0, 100, 2048}) {
    SpmvOptions spmv_options = options();
    spmv_options.block_size = bad;
    EXPECT_THROW((void)make_spmv_backend(matrix, spmv_options, stream_->get()), BadInput)
        << "block_size " << bad;
  }
}

// update_values: new device values give the new product (plain and scaled), the first
// non-finite value is reported by its index, a null flag is fine, and the update is one
// capturable kernel; on every awkward shape (n = 1, nnz = 0, ...) and, for hyb, with every row
// overflowing into the COO part.
TEST_P(EllSpmv, UpdateValuesOnTheDevice) {
  SPK_REQUIRE_GPU_OR_SKIP();
  std::vector<test::NamedShape> shapes = test::awkward_shapes(rng_);
  shapes.push_back({"poisson2d 20", generate_poisson2d(20)});
  for (const int hyb_width : {-1, 1}) {
    SpmvOptions spmv_options = options();
    spmv_options.hyb_width = hyb_width;
    spmv_options.max_ell_fill = 1e9;  // ellpack: the test is about values, not the fill rule
    if (hyb_width >= 0 && GetParam().format != Format::hyb) continue;
    for (const test::NamedShape& shape : shapes) {
      SCOPED_TRACE(shape.name + ", hyb_width " + std::to_string(hyb_width));
      const CsrMatrix<double> matrix = test::with_random_values(shape.matrix, rng_);
      const auto backend = make_spmv_backend(matrix, spmv_options, stream_->get());
      test::expect_update_values_contract(*backend, matrix, rng_, *stream_);
      test::expect_update_values_capturable(*backend, matrix, rng_, *stream_);
      const CsrMatrix<float> single = convert_values<float>(matrix);
      const auto float_backend = make_spmv_backend(single, spmv_options, stream_->get());
      test::expect_update_values_contract(*float_backend, single, rng_, *stream_);
      test::expect_update_values_capturable(*float_backend, single, rng_, *stream_);
    }
  }
}

TEST_P(EllSpmv, NameAndDetails) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const CsrMatrix<double> matrix = generate_poisson2d(10);
  const auto backend = make_spmv_backend(matrix, options(), stream_->get());
  EXPECT_EQ(backend->name(),
            std::string(to_string(GetParam().format)) + "/" + to_string(GetParam().x_cache));
  if (GetParam().format == Format::sell) {
    // 100 rows sorted longest first (one window): 64 inner rows of 5 entries fill chunks 0
    // and 1, the 32 edge rows of 4 chunk 2, the 4 corners of 3 chunk 3 (padded to 32 rows).
    EXPECT_EQ(detail(*backend, "chunks"), "4");
    EXPECT_EQ(detail(*backend, "sigma"), "1024");
    EXPECT_EQ(detail(*backend, "padded_slots"), std::to_string((5 + 5 + 4 + 3) * 32));
    return;
  }
  EXPECT_EQ(detail(*backend, "ell_width"), "5");
  EXPECT_EQ(detail(*backend, "threads_per_row").substr(0, 1), "1");
}

// x longer than a 1-D texture may be: the texture path refuses it at setup, the other
// x_cache paths accept it and read the last entry correctly.
TEST_P(EllSpmv, TextureLongerThanTheDeviceAllowsIsRefusedAtSetup) {
  SPK_REQUIRE_GPU_OR_SKIP();
  int device = 0, max_width = 0;
  SPK_CUDA_CHECK(cudaGetDevice(&device));
  SPK_CUDA_CHECK(cudaDeviceGetAttribute(&max_width, cudaDevAttrMaxTexture1DLinearWidth, device));
  if (static_cast<std::int64_t>(max_width) >= max_index) GTEST_SKIP() << "no index past the limit";
  CsrMatrix<double> matrix;  // 1 x (limit + 1), one entry
  matrix.rows = 1;
  matrix.cols = max_width + 1;
  matrix.row_offsets = {0, 1};
  matrix.columns = {max_width};
  matrix.values = {1.0};
  if (GetParam().x_cache != XCache::texture) {
    const auto backend = make_spmv_backend(matrix, options(), stream_->get());
    DeviceBuffer<double> x(static_cast<std::size_t>(matrix.cols), "long x");
    DeviceBuffer<double> y(1, "y");
    const double last = 3.0, poison = std::nan("");
    SPK_CUDA_CHECK(cudaMemsetAsync(x.data(), 0, x.bytes(), stream_->get()));
    SPK_CUDA_CHECK(cudaMemcpyAsync(x.data() + max_width, &last, sizeof last, cudaMemcpyHostToDevice,
                                   stream_->get()));
    SPK_CUDA_CHECK(
        cudaMemcpyAsync(y.data(), &poison, sizeof poison, cudaMemcpyHostToDevice, stream_->get()));
    backend->apply(x.data(), y.data());
    double result = 0.0;
    SPK_CUDA_CHECK(
        cudaMemcpyAsync(&result, y.data(), sizeof result, cudaMemcpyDeviceToHost, stream_->get()));
    SPK_CUDA_CHECK(cudaStreamSynchronize(stream_->get()));
    EXPECT_EQ(result, last);
    return;
  }
  try {
    (void)make_spmv_backend(matrix, options(), stream_->get());
    ADD_FAILURE() << "no exception";
  } catch (const BadInput& error) {
    EXPECT_NE(std::string(error.what()).find("maxTexture1DLinear"), std::string::npos)
        << error.what();
  }
}

INSTANTIATE_TEST_SUITE_P(Formats, EllSpmv,
                         ::testing::Values(BackendCase{Format::ellpack, XCache::none},
                                           BackendCase{Format::ellpack, XCache::ldg},
                                           BackendCase{Format::ellpack, XCache::texture},
                                           BackendCase{Format::ellpack_r, XCache::none},
                                           BackendCase{Format::ellpack_r, XCache::ldg},
                                           BackendCase{Format::ellpack_r, XCache::texture},
                                           BackendCase{Format::hyb, XCache::none},
                                           BackendCase{Format::hyb, XCache::ldg},
                                           BackendCase{Format::hyb, XCache::texture},
                                           BackendCase{Format::sell, XCache::none},
                                           BackendCase{Format::sell, XCache::ldg},
                                           BackendCase{Format::sell, XCache::texture}),
                         case_name);

// ---------------------------------------------------------------------------------------
// sell's long rows: rows of more than sell_long_row_length(rows, nnz) = max(256, 32 ceil(mean))
// entries, computed by the long-row passes (long_row_kernels.cuh) from the tail after the
// chunks. Every product runs on a fresh random x with y poisoned by NaN, against the fp64 CPU
// reference by relative error.

// Row lengths drawn from 0..longest.
std::vector<index_t> short_row_lengths(index_t rows, index_t longest, std::mt19937_64& rng) {
  std::uniform_int_distribution<index_t> length(0, longest);
  std::vector<index_t> lengths(static_cast<std::size_t>(rows));
  for (index_t& entry : lengths) entry = length(rng);
  return lengths;
}

// Shapes with long rows under the rule, and the smallest ones, where it makes none (n = 1: the
// mean is the row's length).
std::vector<test::NamedShape> sell_long_row_shapes(std::mt19937_64& rng) {
  std::vector<test::NamedShape> shapes;
  std::vector<index_t> lengths = short_row_lengths(2000, 12, rng);
  lengths[700] = 100000;
  shapes.push_back({"one row of 100000 entries among 2000 short rows",
                    test::matrix_with_row_lengths(100003, lengths, rng)});
  lengths = short_row_lengths(3000, 8, rng);
  const index_t neighbours[] = {300, 1025, 2049, 257, 3000, 600};
  for (index_t k = 0; k < 6; ++k) lengths[static_cast<std::size_t>(64 + k)] = neighbours[k];
  shapes.push_back({"six long rows side by side (rows 64..69)",
                    test::matrix_with_row_lengths(3000, lengths, rng)});
  lengths = short_row_lengths(1500, 6, rng);
  lengths.back() = 5000;
  shapes.push_back({"the last row long", test::matrix_with_row_lengths(5000, lengths, rng)});
  lengths.assign(2048, 4);
  lengths[10] = 256;  // the threshold: max(256, 32 x 5)
  lengths[11] = 257;
  shapes.push_back(
      {"rows of 256 (not long) and 257 (long)", test::matrix_with_row_lengths(2048, lengths, rng)});
  lengths = short_row_lengths(4096, 9, rng);
  for (std::size_t row = 0; row < lengths.size(); row += 3) lengths[row] = 0;
  for (const std::size_t row : {100, 1500, 2600, 4095}) lengths[row] = 1500;
  shapes.push_back({"every third row empty, long rows in every window",
                    test::matrix_with_row_lengths(4096, lengths, rng)});
  shapes.push_back(
      {"n=1 (5000 entries: never long)", test::matrix_with_row_lengths(5000, {5000}, rng)});
  shapes.push_back({"n=1, nnz=0", test::matrix_with_row_lengths(1, {0}, rng)});
  shapes.push_back({"nnz=0 (100 empty rows)",
                    test::matrix_with_row_lengths(100, std::vector<index_t>(100, 0), rng)});
  return shapes;
}

std::string x_cache_name(const ::testing::TestParamInfo<XCache>& param_info) {
  return to_string(param_info.param);
}

class SellLongRowSpmv : public ::testing::TestWithParam<XCache> {
 protected:
  void SetUp() override {
    if (device_available()) stream_ = std::make_unique<test::TestStream>();
  }

  SpmvOptions options(int block_size = 256) const {
    SpmvOptions options;
    options.format = Format::sell;
    options.x_cache = GetParam();
    options.block_size = block_size;
    return options;
  }

  // The split the backend reports is to_sell's; products (plain, then scaled with beta 0 on a
  // poisoned y and beta != 0) match the reference; two applies on one x give the same bits.
  template <class T>
  void check_products(const CsrMatrix<double>& source, const SpmvOptions& spmv_options) {
    SCOPED_TRACE((std::is_same_v<T, float> ? "float" : "double"));
    const CsrMatrix<T> matrix = test::with_random_values(convert_values<T>(source), rng_);
    const auto backend = make_spmv_backend(matrix, spmv_options, stream_->get());
    const SellLayout<T> host = to_sell(matrix, spmv_options.sell_sigma);
    const std::string reported = detail(*backend, "long_rows");
    EXPECT_EQ(reported.rfind(std::to_string(host.long_rows.rows.size()) + " (over " +
                                 std::to_string(host.long_row_length) + " entries, " +
                                 std::to_string(host.long_rows.chunks()) + " chunks",
                             0),
              0u)
        << reported;
    EXPECT_EQ(detail(*backend, "padded_slots"), std::to_string(host.slots()));
    const double tolerance = test::spmv_tolerance<T>(test::max_row_length(matrix));
    EXPECT_LT(test::spmv_relative_error(*backend, matrix, rng_, *stream_), tolerance);
    test::expect_scaled_products_match(*backend, matrix, rng_, *stream_);
    const std::vector<T> x = test::random_values<T>(static_cast<std::size_t>(matrix.cols), rng_);
    const std::vector<T> poison(static_cast<std::size_t>(matrix.rows),
                                std::numeric_limits<T>::quiet_NaN());
    const auto apply = [&](const T* x_device, T* y_device) { backend->apply(x_device, y_device); };
    const std::vector<T> first = test::device_product(x, poison, 0, *stream_, apply);
    const std::vector<T> second = test::device_product(x, poison, 0, *stream_, apply);
    EXPECT_EQ(first, second) << "the long rows' sums are not deterministic";
  }

  std::mt19937_64 rng_{20261205};
  std::unique_ptr<test::TestStream> stream_;
};

TEST_P(SellLongRowSpmv, ProductsMatchTheReference) {
  SPK_REQUIRE_GPU_OR_SKIP();
  for (const test::NamedShape& shape : sell_long_row_shapes(rng_)) {
    SCOPED_TRACE(shape.name);
    check_products<double>(shape.matrix, options());
    // n = 1: one thread sums the 5000 random products in order, whose fp32 error outgrows
    // spmv_tolerance's sqrt(length) model on a one-entry y; fp64 checks it
    if (shape.matrix.rows > 1) check_products<float>(shape.matrix, options());
  }
}

TEST_P(SellLongRowSpmv, EveryBlockSizeAndWindow) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const std::vector<test::NamedShape> shapes = sell_long_row_shapes(rng_);
  const CsrMatrix<double>& matrix = shapes[4].matrix;  // long rows in every window
  for (const int block_size : {32, 96, 1024})
    for (const int sigma : {32, 1024}) {
      SCOPED_TRACE("block_size " + std::to_string(block_size) + ", sigma " + std::to_string(sigma));
      SpmvOptions spmv_options = options(block_size);
      spmv_options.sell_sigma = sigma;
      check_products<double>(matrix, spmv_options);
    }
}

// update_values reaches the long rows' entries in the tail through the same slot map.
TEST_P(SellLongRowSpmv, UpdateValuesOnTheDevice) {
  SPK_REQUIRE_GPU_OR_SKIP();
  for (const test::NamedShape& shape : sell_long_row_shapes(rng_)) {
    SCOPED_TRACE(shape.name);
    const CsrMatrix<double> matrix = test::with_random_values(shape.matrix, rng_);
    const auto backend = make_spmv_backend(matrix, options(), stream_->get());
    test::expect_update_values_contract(*backend, matrix, rng_, *stream_);
    test::expect_update_values_capturable(*backend, matrix, rng_, *stream_);
    const CsrMatrix<float> single = convert_values<float>(matrix);
    const auto float_backend = make_spmv_backend(single, options(), stream_->get());
    test::expect_update_values_contract(*float_backend, single, rng_, *stream_);
  }
}

INSTANTIATE_TEST_SUITE_P(Sell, SellLongRowSpmv,
                         ::testing::Values(XCache::none, XCache::ldg, XCache::texture),
                         x_cache_name);

// The byte models count the tail (its entries are slots), the split's index arrays, the long
// rows' starts and the partial sums.
TEST(SellByteModel, CountsTheTailTheSplitAndThePartialSums) {
  SPK_REQUIRE_GPU_OR_SKIP();
  std::mt19937_64 rng(41);
  const std::vector<test::NamedShape> shapes = sell_long_row_shapes(rng);
  const CsrMatrix<double>& matrix = shapes[1].matrix;  // six long rows side by side
  SpmvOptions options;
  options.format = Format::sell;
  const auto backend = make_spmv_backend(matrix, options, nullptr);
  const SellLayout<double> host = to_sell(matrix, options.sell_sigma);
  ASSERT_EQ(host.long_rows.rows.size(), 6u);
  const std::size_t long_rows = host.long_rows.rows.size();
  const auto chunks = static_cast<std::size_t>(host.long_rows.chunks());
  const std::size_t positions = host.permutation.size();
  const auto slots = static_cast<std::size_t>(host.slots());
  const auto nnz = static_cast<std::size_t>(matrix.nnz());
  const std::size_t split = (long_rows + (long_rows + 1) + chunks) * 4 + (long_rows + 1) * 8;
  EXPECT_EQ(backend->device_bytes(), slots * (8 + 4) + positions * 8 + (host.chunks() + 1) * 8 +
                                         nnz * 4 + split + chunks * 8);
  EXPECT_EQ(backend->bytes_per_spmv(), nnz * (8 + 4) + positions * 8 + host.chunks() * 8 +
                                           (3000u + 3000u) * 8 + split + 2 * chunks * 8);
}

// ---------------------------------------------------------------------------------------
// HYB's COO part: many entries per row, every row overflowing, all-COO

class HybOverflow : public EllSpmv {};

TEST_P(HybOverflow, EveryRowOverflows) {
  SPK_REQUIRE_GPU_OR_SKIP();
  SpmvOptions spmv_options = options();
  spmv_options.hyb_width = 1;
  check_both(lengths_matrix(
                 20000, 3000, [](index_t row) { return 2 + row % 37; }, rng_),
             "hyb_width 1, rows of 2..38", spmv_options);
  spmv_options.hyb_width = 3;
  check_both(generate_powerlaw(30000, 12.0, 1.7, 17), "hyb_width 3, powerlaw", spmv_options);
}

// The COO part accumulates alpha times its sums onto the ELL part's alpha A x + beta y.
TEST_P(HybOverflow, ApplyScaledWithCooRows) {
  SPK_REQUIRE_GPU_OR_SKIP();
  SpmvOptions spmv_options = options();
  for (const int width : {0, 1, 3}) {
    spmv_options.hyb_width = width;
    const std::string what = "hyb_width " + std::to_string(width);
    check_scaled_both(lengths_matrix(
                          20000, 3000, [](index_t row) { return 2 + row % 37; }, rng_),
                      what + ", rows of 2..38", spmv_options);
    check_scaled_both(
        lengths_matrix(
            64, 100002, [](index_t row) { return row == 40 ? 100002 : 3 + row % 5; }, rng_),
        what + ", a row of 100000 overflow entries", spmv_options);
  }
}

TEST_P(HybOverflow, AllCoo) {
  SPK_REQUIRE_GPU_OR_SKIP();
  SpmvOptions spmv_options = options();
  spmv_options.hyb_width = 0;
  check_both(generate_poisson2d(60), "hyb_width 0 (all COO)", spmv_options);
  check_both(lengths_matrix(
                 1, 5, [](index_t) { return 3; }, rng_),
             "1x5, all COO", spmv_options);
}

TEST_P(HybOverflow, RowOfOneHundredThousandOverflowEntries) {
  SPK_REQUIRE_GPU_OR_SKIP();
  SpmvOptions spmv_options = options();
  spmv_options.hyb_width = 2;
  // ~100k COO entries of one row span ~390 warps' chunks, each ending in one atomicAdd;
  // the rows before and after it overflow too
  check_both(lengths_matrix(
                 64, 100002, [](index_t row) { return row == 40 ? 100002 : 3 + row % 5; }, rng_),
             "a row of 100000 overflow entries", spmv_options);
}

TEST_P(HybOverflow, DetailsReportTheSplit) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const CsrMatrix<double> matrix = read_matrix_market(test::data_path("rajat01.mtx"));
  SpmvOptions spmv_options = options();
  const auto backend = make_spmv_backend(matrix, spmv_options, stream_->get());
  const std::int64_t ell = std::stoll(detail(*backend, "ell_entries"));
  const std::int64_t coo = std::stoll(detail(*backend, "coo_entries"));
  EXPECT_EQ(ell + coo, matrix.nnz());
  EXPECT_GT(std::stoi(detail(*backend, "ell_width")), 0);
  EXPECT_GT(coo, 1442 - std::stoi(detail(*backend, "ell_width")) - 1);
  EXPECT_NE(detail(*backend, "width_rule").find("histogram"), std::string::npos);
  spmv_options.hyb_width = 4;
  const auto fixed = make_spmv_backend(matrix, spmv_options, stream_->get());
  EXPECT_EQ(detail(*fixed, "ell_width"), "4");
  EXPECT_EQ(detail(*fixed, "width_rule"), "spmv.hyb_width = 4");
  spmv_options.hyb_width = -7;
  EXPECT_THROW((void)make_spmv_backend(matrix, spmv_options, stream_->get()), BadInput);
}

INSTANTIATE_TEST_SUITE_P(Hyb, HybOverflow,
                         ::testing::Values(BackendCase{Format::hyb, XCache::none},
                                           BackendCase{Format::hyb, XCache::ldg},
                                           BackendCase{Format::hyb, XCache::texture}),
                         case_name);

// ---------------------------------------------------------------------------------------
// Byte models and refusals (one x_cache: they do not depend on it)

// 70 x 50, row r has r % 6 entries (rows 0, 6, 12, ... empty), longest row 5.
CsrMatrix<double> byte_model_matrix() {
  std::mt19937_64 rng(77);
  return test::random_pattern_matrix(
      70, 50, [](index_t row) { return row % 6; }, rng);
}

TEST(EllByteModel, EllpackCountsEverySlotOfTheRows) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const CsrMatrix<double> matrix = byte_model_matrix();
  SpmvOptions options;
  options.format = Format::ellpack;
  const auto backend = make_spmv_backend(matrix, options, nullptr);
  // pitch 96, width 5; + the CSR row offsets the update_values scatter walks (71 of them)
  EXPECT_EQ(backend->device_bytes(), 96u * 5 * (8 + 4) + 71 * 4);
  EXPECT_EQ(backend->bytes_per_spmv(), 70u * 5 * (8 + 4) + 50 * 8 + 70 * 8);
  EXPECT_EQ(detail(*backend, "pitch"), "96");
  EXPECT_EQ(detail(*backend, "padded_slots"), "350");
}

TEST(EllByteModel, EllpackRCountsOnlyTheStoredEntriesAndRowLengths) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const CsrMatrix<float> matrix = convert_values<float>(byte_model_matrix());
  SpmvOptions options;
  options.format = Format::ellpack_r;
  const auto backend = make_spmv_backend(matrix, options, nullptr);
  const std::size_t nnz = static_cast<std::size_t>(matrix.nnz());
  EXPECT_EQ(backend->device_bytes(), 96u * 5 * (4 + 4) + 70 * 4 + 71 * 4);  // + row offsets
  EXPECT_EQ(backend->bytes_per_spmv(), nnz * (4 + 4) + 70 * 4 + 50 * 4 + 70 * 4);
}

TEST(EllByteModel, HybCountsEllSlotsCooTriplesAndAtomicRows) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const CsrMatrix<double> matrix = byte_model_matrix();
  SpmvOptions options;
  options.format = Format::hyb;
  options.hyb_width = 2;
  const auto backend = make_spmv_backend(matrix, options, nullptr);
  std::size_t coo_entries = 0, coo_rows = 0;
  for (index_t row = 0; row < matrix.rows; ++row) {
    const index_t length = matrix.row_length(row);
    coo_entries += static_cast<std::size_t>(std::max(0, length - 2));
    coo_rows += length > 2;
  }
  // + the scatter's CSR row offsets (71) and each row's COO tail start (70, 8 bytes each)
  EXPECT_EQ(backend->device_bytes(),
            96u * 2 * (8 + 4) + coo_entries * (8 + 4 + 4) + 71 * 4 + 70 * 8);
  EXPECT_EQ(backend->bytes_per_spmv(),
            70u * 2 * (8 + 4) + coo_entries * (8 + 4 + 4) + 50 * 8 + 70 * 8 + coo_rows * 2 * 8);
  EXPECT_EQ(detail(*backend, "coo_entries"), std::to_string(coo_entries));
  EXPECT_EQ(detail(*backend, "coo_rows"), std::to_string(coo_rows));
}

TEST(EllRefusal, EllpackRefusesExcessiveFillThroughTheRegistry) {
  SPK_REQUIRE_GPU_OR_SKIP();
  std::mt19937_64 rng(5);
  const CsrMatrix<double> matrix = test::random_pattern_matrix(
      5000, 5000, [](index_t row) { return row == 9 ? 2000 : 3; }, rng);
  SpmvOptions options;
  options.format = Format::ellpack;
  try {
    (void)make_spmv_backend(matrix, options, nullptr);
    ADD_FAILURE() << "no exception";
  } catch (const BadInput& error) {
    const std::string what = error.what();
    EXPECT_NE(what.find("fill ratio"), std::string::npos) << what;
    EXPECT_NE(what.find("hyb or ellpack-r"), std::string::npos) << what;
  }
  options.format = Format::ellpack_r;  // no fill rule
  EXPECT_NO_THROW((void)make_spmv_backend(matrix, options, nullptr));
  options.format = Format::ellpack;
  for (const double bad : {0.5, -1.0, std::numeric_limits<double>::quiet_NaN()}) {
    options.max_ell_fill = bad;
    EXPECT_THROW((void)make_spmv_backend(generate_poisson2d(5), options, nullptr), BadInput);
  }
}

// x_cache: shared is csr-vector's: the ELL family refuses it with one line naming the format
// and the key, before any conversion, in both precisions.
TEST(EllRefusal, SharedXCacheIsRefused) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const CsrMatrix<double> matrix = generate_poisson2d(8);
  for (const Format format : {Format::ellpack, Format::ellpack_r, Format::hyb}) {
    SpmvOptions options;
    options.format = format;
    options.x_cache = XCache::shared;
    const std::string prefix =
        std::string("spmv.x_cache: shared is not supported by format '") + to_string(format) + "'";
    test::expect_error<BadInput>([&] { (void)make_spmv_backend(matrix, options, nullptr); }, prefix,
                                 "csr-vector");
    test::expect_error<BadInput>(
        [&] { (void)make_spmv_backend(convert_values<float>(matrix), options, nullptr); }, prefix,
        "csr-vector");
  }
}

}  // namespace
}  // namespace spk
