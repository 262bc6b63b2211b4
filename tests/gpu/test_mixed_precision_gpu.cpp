// Precision mixed on the GPU (spmv.matrix_values single): every hand-written format stores
// fp32 values under fp64 vectors. Each apply on a fresh random x with y poisoned by NaN is
// checked against the fp64 CPU product of the fp32-rounded matrix (so a kernel that summed in
// fp32 would fail by 1e-7); the [1, 2^-24] row proves the fp64 sum exactly. Solves meet the
// fp64 tolerance by the true residual; cusparse and out-of-range values are refused.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "spkrylov/errors.hpp"
#include "spmv/host/generators.hpp"
#include "spmv/host/matrix_market.hpp"
#include "spmv/registry.hpp"
#include "tests/cpu/host_matrix_testing.hpp"
#include "tests/gpu/spmv_test_support.hpp"
#include "tests/solver_test_support.hpp"

namespace spk {
namespace {

const Format hand_written_formats[] = {Format::csr_scalar, Format::csr_vector, Format::aligned_csr,
                                       Format::ellpack,    Format::ellpack_r,  Format::hyb,
                                       Format::csr_merge,  Format::sell};

SpmvOptions fp32_values_options(Format format, XCache cache = XCache::ldg) {
  SpmvOptions options;
  options.format = format;
  options.x_cache = cache;
  options.max_ell_fill = 1e9;
  options.matrix_values = MatrixValues::single;
  return options;
}

// The matrix the fp32-values backend really multiplies: each value rounded to fp32, in fp64.
CsrMatrix<double> rounded_to_fp32(const CsrMatrix<double>& matrix) {
  return convert_values<double>(convert_values<float>(matrix));
}

// Random values, a few long rows (hyb's COO part, csr-vector's long-row split) and empty rows.
CsrMatrix<double> irregular_matrix(std::mt19937_64& rng) {
  return test::random_pattern_matrix(
      3000, 2500,
      [](index_t row) -> index_t {
        if (row % 997 == 5) return 1500;
        if (row % 13 == 0) return 0;
        return 1 + row % 40;
      },
      rng);
}

TEST(MixedPrecisionGpu, EveryFormatSumsFp32ValuesInFp64) {
  SPK_REQUIRE_GPU_OR_SKIP();
  std::mt19937_64 rng(20261124);
  const test::TestStream stream;
  const CsrMatrix<double> matrix = irregular_matrix(rng);
  const CsrMatrix<double> rounded = rounded_to_fp32(matrix);
  for (const Format format : hand_written_formats)
    for (const XCache cache : {XCache::none, XCache::ldg, XCache::texture}) {
      SCOPED_TRACE(std::string(to_string(format)) + "/" + to_string(cache));
      const auto backend =
          make_spmv_backend(matrix, fp32_values_options(format, cache), stream.get());
      EXPECT_NE(backend->name().find("/fp32-values"), std::string::npos) << backend->name();
      EXPECT_LE(test::spmv_relative_error(*backend, rounded, rng, stream), 1e-13);
      // fp32 sums would be ~1e-7 off the fp64 product of the rounded matrix.
      EXPECT_GT(test::spmv_relative_error(*backend, matrix, rng, stream), 1e-10);
      EXPECT_LE(
          test::spmv_scaled_relative_error<double>(*backend, rounded, 0.75, -1.5, rng, stream),
          1e-13);
      EXPECT_LE(test::spmv_scaled_relative_error<double>(*backend, rounded, 2.0, 0.0, rng, stream),
                1e-13);
      // The fp64 backend of the same format moves 4 bytes more per nonzero.
      SpmvOptions fp64 = fp32_values_options(format, cache);
      fp64.matrix_values = MatrixValues::solver;
      const auto reference = make_spmv_backend(matrix, fp64, stream.get());
      EXPECT_LT(backend->bytes_per_spmv(), reference->bytes_per_spmv());
      EXPECT_LT(backend->device_bytes(), reference->device_bytes());
    }
}

TEST(MixedPrecisionGpu, ARowOfOneAndHalfAnFp32UlpSumsExactly) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const test::TestStream stream;
  CsrMatrix<double> row;
  row.rows = 1;
  row.cols = 2;
  row.row_offsets = {0, 2};
  row.columns = {0, 1};
  row.values = {1.0, std::ldexp(1.0, -24)};
  for (const Format format : hand_written_formats) {
    SCOPED_TRACE(to_string(format));
    const auto backend = make_spmv_backend(row, fp32_values_options(format), stream.get());
    const std::vector<double> y = test::device_product<double>(
        {1.0, 1.0}, {std::nan("")}, 0, stream,
        [&](const double* x, double* y_device) { backend->apply(x, y_device); });
    EXPECT_EQ(y[0], 1.0 + std::ldexp(1.0, -24));
  }
}

TEST(MixedPrecisionGpu, UpdateValuesRoundsOnTheDevice) {
  SPK_REQUIRE_GPU_OR_SKIP();
  std::mt19937_64 rng(7);
  const test::TestStream stream;
  const CsrMatrix<double> matrix = irregular_matrix(rng);
  for (const Format format : hand_written_formats) {
    SCOPED_TRACE(to_string(format));
    auto backend = make_spmv_backend(matrix, fp32_values_options(format), stream.get());
    const CsrMatrix<double> updated = test::with_random_values(matrix, rng);
    const DeviceBuffer<double> values(updated.values, "test values");
    DeviceBuffer<index_t> first_bad(std::vector<index_t>{updated.nnz()}, "test check");
    backend->update_values(values.data(), first_bad.data());
    stream.synchronize();
    EXPECT_EQ(first_bad.to_host()[0], updated.nnz());
    EXPECT_LE(test::spmv_relative_error(*backend, rounded_to_fp32(updated), rng, stream), 1e-13);
    // A value past fp32's range becomes Inf in the scatter and is reported.
    std::vector<double> bad = updated.values;
    bad[42] = 1e39;
    const DeviceBuffer<double> bad_values(bad, "test values");
    DeviceBuffer<index_t> first_bad2(std::vector<index_t>{updated.nnz()}, "test check");
    backend->update_values(bad_values.data(), first_bad2.data());
    stream.synchronize();
    EXPECT_EQ(first_bad2.to_host()[0], 42);
  }
}

TEST(MixedPrecisionGpu, RefusalsNameTheCause) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const test::TestStream stream;
  CsrMatrix<double> matrix = test::generated("poisson2d", 8);
  try {
    (void)make_spmv_backend(matrix, fp32_values_options(Format::cusparse), stream.get());
    FAIL() << "cusparse accepted fp32 values";
  } catch (const BadInput& error) {
    EXPECT_NE(std::string(error.what()).find("fp64 values only"), std::string::npos)
        << error.what();
  }
  matrix.values[7] = 5e38;  // row 2 (0-based 1), column 2
  try {
    (void)make_spmv_backend(matrix, fp32_values_options(Format::ellpack), stream.get());
    FAIL() << "5e38 accepted";
  } catch (const BadInput& error) {
    EXPECT_NE(std::string(error.what()).find("overflows fp32"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("at row "), std::string::npos) << error.what();
  }
  const CsrMatrix<float> single = convert_values<float>(test::generated("poisson2d", 8));
  EXPECT_THROW((void)make_spmv_backend(single, fp32_values_options(Format::ellpack), stream.get()),
               BadInput);
}

// The solver: true residual with the fp64 operator meets the tolerance; counts close to
// double's.
void expect_mixed_solve(const CsrMatrix<double>& a, Method method, Preconditioner preconditioner,
                        Format format, VectorOps vector_ops, double tolerance) {
  const auto b = test::random_vector(a.rows, 5);
  SolverOptions options;
  options.method = method;
  options.preconditioner = preconditioner;
  options.tolerance = tolerance;
  options.vector_ops = vector_ops;
  options.max_iterations = 50000;
  SpmvOptions spmv;
  spmv.format = format;
  Solver<double> fp64(arrays_of(a), Options{options, spmv, Device::gpu});
  spmv.matrix_values = MatrixValues::single;
  Solver<double> mixed(arrays_of(a), Options{options, spmv, Device::gpu});
  std::vector<double> x64(a.rows, 0.0), x32(a.rows, 0.0);
  const SolveResult r64 = fp64.solve(b, x64);
  const SolveResult r32 = mixed.solve(b, x32);
  ASSERT_EQ(r64.status, SolveStatus::converged) << r64.message;
  ASSERT_EQ(r32.status, SolveStatus::converged) << r32.message;
  EXPECT_LE(test::true_relative_residual(a, b, x32), tolerance);
  EXPECT_LE(r32.iterations, 2 * r64.iterations + 20);
  EXPECT_NE(mixed.setup_info().operator_name.find("fp32-values"), std::string::npos);
}

TEST(MixedPrecisionGpu, SolvesMeetTheFp64Tolerance) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const auto shifted = test::with_random_diagonal_shift(test::generated("poisson3d", 24), 0.5, 3);
  for (const VectorOps ops : {VectorOps::cublas, VectorOps::fused}) {
    SCOPED_TRACE(to_string(ops));
    expect_mixed_solve(shifted, Method::cg, Preconditioner::none, Format::ellpack, ops, 1e-10);
    expect_mixed_solve(shifted, Method::cg, Preconditioner::jacobi, Format::csr_vector, ops, 1e-8);
    expect_mixed_solve(test::generated("elasticity3d", 8), Method::cg, Preconditioner::jacobi,
                       Format::ellpack_r, ops, 1e-8);
    GeneratorSpec spec;
    spec.kind = "convdiff3d";
    spec.n = 16;
    spec.peclet = 0.5;
    expect_mixed_solve(test::with_random_diagonal_shift(generate_matrix(spec), 0.3, 5),
                       Method::bicgstab, Preconditioner::jacobi, Format::hyb, ops, 1e-10);
  }
}

TEST(MixedPrecisionGpu, Bcsstk13IsConvergedByTheTrueResidualOrSaysWhy) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const auto a = read_matrix_market(test::data_path("bcsstk13.mtx"));
  const std::vector<double> b(a.rows, 1.0);
  SolverOptions options;
  options.preconditioner = Preconditioner::jacobi;
  options.max_iterations = 20000;
  SpmvOptions spmv;
  spmv.format = Format::ellpack_r;
  spmv.matrix_values = MatrixValues::single;
  Solver<double> solver(arrays_of(a), Options{options, spmv, Device::gpu});
  std::vector<double> x(a.rows, 0.0);
  const SolveResult result = solver.solve(b, x);
  if (result.status == SolveStatus::converged) {
    EXPECT_LE(test::true_relative_residual(a, b, x), 1e-8);
  } else {
    EXPECT_EQ(result.status, SolveStatus::stagnated) << result.message;
    EXPECT_NE(result.message.find("fp32"), std::string::npos) << result.message;
  }
}

TEST(MixedPrecisionGpu, AutoTunesAmongFp32ValueFormats) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const auto a = test::with_random_diagonal_shift(test::generated("poisson3d", 20), 0.5, 8);
  SpmvOptions spmv;
  spmv.format = Format::automatic;
  spmv.tune_cache = "off";
  spmv.matrix_values = MatrixValues::single;
  Solver<double> solver(arrays_of(a), Options{SolverOptions{}, spmv, Device::gpu});
  EXPECT_NE(solver.setup_info().operator_name.find("fp32-values"), std::string::npos)
      << solver.setup_info().operator_name;
  const auto b = test::random_vector(a.rows, 2);
  std::vector<double> x(a.rows, 0.0);
  const SolveResult result = solver.solve(b, x);
  ASSERT_EQ(result.status, SolveStatus::converged) << result.message;
  EXPECT_LE(test::true_relative_residual(a, b, x), 1e-8);
}

TEST(MixedPrecisionGpu, SolverUpdateValuesKeepsBothOperators) {
  SPK_REQUIRE_GPU_OR_SKIP();
  auto a = test::with_random_diagonal_shift(test::generated("poisson3d", 16), 0.5, 4);
  const auto b = test::random_vector(a.rows, 9);
  SolverOptions options;
  options.tolerance = 1e-10;
  SpmvOptions spmv;
  spmv.format = Format::ellpack;
  spmv.matrix_values = MatrixValues::single;
  Solver<double> solver(arrays_of(a), Options{options, spmv, Device::gpu});
  for (double& value : a.values) value *= 3.1;
  solver.update_values(a.values);
  std::vector<double> x(a.rows, 0.0);
  const SolveResult result = solver.solve(b, x);
  ASSERT_EQ(result.status, SolveStatus::converged) << result.message;
  EXPECT_LE(test::true_relative_residual(a, b, x), 1e-10);
  EXPECT_NEAR(result.relative_true_residual, test::true_relative_residual(a, b, x), 1e-12);
}

}  // namespace
}  // namespace spk
