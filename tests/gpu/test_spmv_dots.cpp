// GPU tests of LinearOperator::apply_dots: y = A x with sums[0] = (w, y) and sums[1] = (y, y)
// folded into the SpMV's kernel (spmv/formats/dot_output.cuh), for the formats that fold them
// (ellpack-r; ellpack with fp32 values) under every x cache and value precision,
// both grid shapes and the block-size range. Every call runs on fresh random x and w with y
// and the sums poisoned by NaN, and is checked against the fp64 CPU reference by relative
// error; the sums must have the same bits on every call (no atomics in any sum), also when
// the call is replayed from a CUDA graph. Formats that do not fold them, and rectangular
// matrices, must return false and write nothing.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "spmv/host/reference_spmv.hpp"
#include "spmv/registry.hpp"
#include "tests/gpu/spmv_test_support.hpp"

namespace spk {
namespace {

// rows x rows, row r with row_length(r) distinct random columns (sorted), values in [-1, 1):
// drawn per entry, so a large matrix with short rows is quick to make (random_pattern_matrix
// walks every column of every row).
CsrMatrix<double> short_rows_matrix(index_t rows, const std::function<index_t(index_t)>& row_length,
                                    std::mt19937_64& rng) {
  std::uniform_int_distribution<index_t> column(0, rows - 1);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  CsrMatrix<double> matrix;
  matrix.rows = matrix.cols = rows;
  matrix.row_offsets.assign(static_cast<std::size_t>(rows) + 1, 0);
  std::vector<index_t> columns;
  for (index_t row = 0; row < rows; ++row) {
    const auto wanted = static_cast<std::size_t>(std::min(row_length(row), rows));
    columns.clear();
    while (columns.size() < wanted) {
      columns.push_back(column(rng));
      std::sort(columns.begin(), columns.end());
      columns.erase(std::unique(columns.begin(), columns.end()), columns.end());
    }
    for (const index_t c : columns) {
      matrix.columns.push_back(c);
      matrix.values.push_back(value(rng));
    }
    matrix.row_offsets[static_cast<std::size_t>(row) + 1] =
        static_cast<index_t>(matrix.columns.size());
  }
  return matrix;
}

struct DotsResult {
  std::vector<double> y;
  double sums[2];
  bool folded;
};

// One apply_dots(x, y, w, sums, count) on device copies of x and w; y and sums poisoned first.
DotsResult apply_dots_once(const SpmvBackend<double>& backend, const std::vector<double>& x,
                           const std::vector<double>& w, int count,
                           const test::TestStream& stream) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  DeviceBuffer<double> x_device(x), w_device(w);
  DeviceBuffer<double> y_device(std::vector<double>(w.size(), nan));
  DeviceBuffer<double> sums_device(std::vector<double>{nan, nan});
  DotsResult result{};
  result.folded = backend.apply_dots(x_device.data(), y_device.data(), w_device.data(),
                                     sums_device.data(), count);
  SPK_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
  SPK_CUDA_CHECK(cudaGetLastError());
  result.y = y_device.to_host();
  const std::vector<double> sums = sums_device.to_host();
  result.sums[0] = sums[0];
  result.sums[1] = sums[1];
  return result;
}

struct DotsCase {
  Format format;
  XCache x_cache;
  MatrixValues values;
};

std::string case_name(const ::testing::TestParamInfo<DotsCase>& info) {
  std::string name = std::string(to_string(info.param.format)) + "_" +
                     to_string(info.param.x_cache) +
                     (info.param.values == MatrixValues::single ? "_fp32values" : "_fp64values");
  for (char& c : name)
    if (c == '-') c = '_';
  return name;
}

class SpmvDotsGpu : public ::testing::TestWithParam<DotsCase> {
 protected:
  void SetUp() override {
    if (device_available()) stream_ = std::make_unique<test::TestStream>();
  }

  SpmvOptions options(int block_size = 256, GridShape grid = GridShape::exact) const {
    SpmvOptions options;
    options.format = GetParam().format;
    options.x_cache = GetParam().x_cache;
    options.matrix_values = GetParam().values;
    options.block_size = block_size;
    options.grid = grid;
    return options;
  }

  // Checks y, sums[0] and sums[1] (count 2), then that count 1 leaves sums[1] alone, then that
  // a second call gives the same bits.
  void expect_dots(const CsrMatrix<double>& matrix, const SpmvOptions& spmv_options,
                   const std::string& what) {
    SCOPED_TRACE(what + ", block " + std::to_string(spmv_options.block_size) + ", grid " +
                 to_string(spmv_options.grid));
    std::mt19937_64& rng = random_.engine();
    const auto backend = make_spmv_backend(matrix, spmv_options, stream_->get());
    const auto n = static_cast<std::size_t>(matrix.rows);
    const std::vector<double> x = test::random_values<double>(n, rng);
    const std::vector<double> w = test::random_values<double>(n, rng);
    const test::DotsReference reference =
        test::dots_reference(test::as_stored(matrix, spmv_options.matrix_values), x, w);

    const DotsResult both = apply_dots_once(*backend, x, w, 2, *stream_);
    ASSERT_TRUE(both.folded);
    EXPECT_LE(test::relative_error(both.y, reference.y), 1e-12);
    // Any order of the n products errs by at most ~n u sum |w_i y_i|; 1e-12 of it is far above
    // that for these sizes and far below a lost or doubled block sum.
    EXPECT_LE(std::abs(both.sums[0] - reference.w_y), 1e-12 * reference.w_y_magnitude + 1e-300)
        << both.sums[0] << " against " << reference.w_y;
    EXPECT_LE(std::abs(both.sums[1] - reference.y_y), 1e-12 * reference.y_y + 1e-300)
        << both.sums[1] << " against " << reference.y_y;

    const DotsResult one = apply_dots_once(*backend, x, w, 1, *stream_);
    ASSERT_TRUE(one.folded);
    EXPECT_TRUE(std::isnan(one.sums[1])) << "count 1 wrote sums[1]";
    EXPECT_EQ(std::memcmp(&one.sums[0], &both.sums[0], sizeof(double)), 0)
        << "the same (w, y) bits on every call: " << one.sums[0] << " then " << both.sums[0];
    EXPECT_EQ(test::relative_error(one.y, both.y), 0.0);
  }

  std::unique_ptr<test::TestStream> stream_;
  test::FreshRandom random_;
};

TEST_P(SpmvDotsGpu, RandomMatricesEveryBlockSizeAndGrid) {
  SPK_REQUIRE_GPU_OR_SKIP();
  std::mt19937_64& rng = random_.engine();
  // 70,001 rows: 2,188 blocks of 32, 69 of 1024; the last block adds them all
  const CsrMatrix<double> matrix = short_rows_matrix(
      70001, [&](index_t) { return std::uniform_int_distribution<index_t>(0, 12)(rng); }, rng);
  for (const int block_size : {32, 96, 256, 1024})
    for (const GridShape grid : {GridShape::exact, GridShape::capped})
      expect_dots(matrix, options(block_size, grid), "70001 rows");
}

TEST_P(SpmvDotsGpu, AwkwardSquareShapes) {
  SPK_REQUIRE_GPU_OR_SKIP();
  std::mt19937_64& rng = random_.engine();
  const auto up_to = [&rng](index_t longest) {
    return std::uniform_int_distribution<index_t>(0, longest)(rng);
  };
  expect_dots(test::random_pattern_matrix(
                  1, 1, [](index_t) { return 1; }, rng),
              options(), "n=1");
  expect_dots(test::random_pattern_matrix(
                  1, 1, [](index_t) { return 0; }, rng),
              options(), "n=1, nnz=0");
  expect_dots(test::random_pattern_matrix(
                  100, 100, [](index_t) { return 0; }, rng),
              options(), "nnz=0");
  expect_dots(test::random_pattern_matrix(
                  500, 500, [&](index_t row) { return row % 3 == 0 ? 0 : up_to(40); }, rng),
              options(), "every third row empty");
  // One row of 3,000 entries among rows of 0-10 (ellpack pads to it: 4,000 x 3,000 slots)
  SpmvOptions wide = options();
  wide.max_ell_fill = 1e9;
  expect_dots(test::random_pattern_matrix(
                  4000, 4000, [&](index_t row) { return row == 7 ? 3000 : up_to(10); }, rng),
              wide, "one row of 3000 entries");
}

TEST_P(SpmvDotsGpu, ReplayedFromACudaGraph) {
  SPK_REQUIRE_GPU_OR_SKIP();
  std::mt19937_64& rng = random_.engine();
  const CsrMatrix<double> matrix = short_rows_matrix(
      20000, [&](index_t) { return std::uniform_int_distribution<index_t>(1, 9)(rng); }, rng);
  const auto backend = make_spmv_backend(matrix, options(), stream_->get());
  const std::vector<double> x = test::random_values<double>(20000, rng);
  const std::vector<double> w = test::random_values<double>(20000, rng);
  const DotsResult direct = apply_dots_once(*backend, x, w, 2, *stream_);
  ASSERT_TRUE(direct.folded);

  const double nan = std::numeric_limits<double>::quiet_NaN();
  DeviceBuffer<double> x_device(x), w_device(w), y_device(std::vector<double>(20000, nan));
  DeviceBuffer<double> sums_device(std::vector<double>{nan, nan});
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  SPK_CUDA_CHECK(cudaStreamBeginCapture(stream_->get(), cudaStreamCaptureModeGlobal));
  const bool folded =
      backend->apply_dots(x_device.data(), y_device.data(), w_device.data(), sums_device.data(), 2);
  SPK_CUDA_CHECK(cudaStreamEndCapture(stream_->get(), &graph));
  ASSERT_TRUE(folded);
  SPK_CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
  for (int replay = 0; replay < 3; ++replay) {  // the ticket is re-armed by every launch
    SPK_CUDA_CHECK(cudaMemcpyAsync(sums_device.data(), std::vector<double>{nan, nan}.data(),
                                   2 * sizeof(double), cudaMemcpyHostToDevice, stream_->get()));
    SPK_CUDA_CHECK(cudaGraphLaunch(exec, stream_->get()));
    SPK_CUDA_CHECK(cudaStreamSynchronize(stream_->get()));
    const std::vector<double> sums = sums_device.to_host();
    EXPECT_EQ(std::memcmp(sums.data(), direct.sums, 2 * sizeof(double)), 0)
        << "replay " << replay << ": " << sums[0] << ", " << sums[1];
  }
  EXPECT_EQ(test::relative_error(y_device.to_host(), direct.y), 0.0);
  SPK_CUDA_CHECK(cudaGraphExecDestroy(exec));
  SPK_CUDA_CHECK(cudaGraphDestroy(graph));
}

TEST_P(SpmvDotsGpu, RectangularMatricesAreNotFolded) {
  SPK_REQUIRE_GPU_OR_SKIP();
  std::mt19937_64& rng = random_.engine();
  const CsrMatrix<double> matrix = test::random_pattern_matrix(
      300, 200, [](index_t) { return 3; }, rng);
  const auto backend = make_spmv_backend(matrix, options(), stream_->get());
  const DotsResult result = apply_dots_once(*backend, test::random_values<double>(200, rng),
                                            test::random_values<double>(300, rng), 2, *stream_);
  EXPECT_FALSE(result.folded);
  for (const double value : result.y) EXPECT_TRUE(std::isnan(value)) << "y was written";
  EXPECT_TRUE(std::isnan(result.sums[0]) && std::isnan(result.sums[1])) << "sums were written";
}

INSTANTIATE_TEST_SUITE_P(
    Folding, SpmvDotsGpu,
    ::testing::Values(DotsCase{Format::ellpack, XCache::ldg, MatrixValues::single},
                      DotsCase{Format::ellpack, XCache::texture, MatrixValues::single},
                      DotsCase{Format::ellpack, XCache::none, MatrixValues::single},
                      DotsCase{Format::ellpack_r, XCache::ldg, MatrixValues::solver},
                      DotsCase{Format::ellpack_r, XCache::texture, MatrixValues::single},
                      DotsCase{Format::ellpack_r, XCache::none, MatrixValues::solver}),
    case_name);

// apply_dots on fresh x and w returns false and writes neither y nor the sums (both poisoned).
void expect_dots_left_to_the_caller(const SpmvBackend<double>& backend, std::mt19937_64& rng,
                                    const test::TestStream& stream) {
  const auto n = static_cast<std::size_t>(backend.rows());
  const DotsResult result = apply_dots_once(backend, test::random_values<double>(n, rng),
                                            test::random_values<double>(n, rng), 2, stream);
  EXPECT_FALSE(result.folded);
  for (const double value : result.y) ASSERT_TRUE(std::isnan(value)) << "y was written";
  EXPECT_TRUE(std::isnan(result.sums[0]) && std::isnan(result.sums[1]));
}

// Every other format leaves the dots to the caller (ellpack too with fp64 values, where its
// folding kernel loses occupancy: ellpack.cu): false, nothing written.
TEST(SpmvDotsOtherFormatsGpu, ReturnFalseAndWriteNothing) {
  SPK_REQUIRE_GPU_OR_SKIP();
  test::FreshRandom random;
  std::mt19937_64& rng = random.engine();
  test::TestStream stream;
  const CsrMatrix<double> matrix = test::random_pattern_matrix(
      1000, 1000, [](index_t row) { return 1 + row % 7; }, rng);
  for (const Format format :
       {Format::csr_scalar, Format::csr_vector, Format::aligned_csr, Format::ellpack, Format::hyb,
        Format::csr_merge, Format::sell, Format::cusparse}) {
    SCOPED_TRACE(to_string(format));
    SpmvOptions options;
    options.format = format;
    const auto backend = make_spmv_backend(matrix, options, stream.get());
    expect_dots_left_to_the_caller(*backend, rng, stream);
  }
}

// With long rows (sell's and csr-vector's long-row passes: a long row's y comes after the row
// kernel, so neither folds the dots): false, nothing written, and apply still right.
TEST(SpmvDotsOtherFormatsGpu, LongRowsAreNotFoldedEither) {
  SPK_REQUIRE_GPU_OR_SKIP();
  test::FreshRandom random;
  std::mt19937_64& rng = random.engine();
  test::TestStream stream;
  // rows of 1..7 entries, row 500 full and row 999 (the last) of 600: both long for sell
  // (max(256, 32 x 6)) and csr-vector
  const CsrMatrix<double> matrix = test::random_pattern_matrix(
      1000, 1000,
      [](index_t row) -> index_t {
        if (row == 500) return 1000;
        if (row == 999) return 600;
        return 1 + row % 7;
      },
      rng);
  for (const Format format : {Format::sell, Format::csr_vector}) {
    SCOPED_TRACE(to_string(format));
    SpmvOptions options;
    options.format = format;
    const auto backend = make_spmv_backend(matrix, options, stream.get());
    expect_dots_left_to_the_caller(*backend, rng, stream);
    EXPECT_LT(test::spmv_relative_error(*backend, matrix, rng, stream), 1e-12);
  }
}

}  // namespace
}  // namespace spk
