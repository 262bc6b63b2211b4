// The small-input sweep of the `sanitize` label (tests/gpu/sanitize_filter.txt, run under
// compute-sanitizer by tools/gpu-sanitize.sh): every kernel of the project launched on inputs
// of a few thousand rows, so that memcheck, racecheck, synccheck and initcheck finish the whole
// label in one device call. Each test still checks its results (fp64 CPU reference by relative
// error with the outputs poisoned first, or the solve's true residual): a sanitizer run that
// passes must also compute the right answer.
//
//   SanitizeSweep.EveryFormatCacheAndPrecision  every format x x_cache x value precision on a
//       skewed matrix (empty rows, rows past csr-vector's and sell's long-row thresholds, hyb's
//       COO overflow): apply, apply_scaled, apply_dots (the folding formats' epilogue),
//       update_values with its first-non-finite report, on both grid shapes
//   SanitizeSweep.AwkwardShapesEveryFormat      n = 1, nnz = 0, empty rows, rectangular shapes
//   SanitizeSweep.EverySolverPath               CG and BiCGSTAB with every preconditioner
//       (AMG's device setup kernels, IC/ILU's level kernels), through cuBLAS with graphs and
//       update_values, and through the fused passes; fp32, fp32 values under fp64 and AMG's
//       fp32 cycle
//   SanitizeSweep.AutoTunerOnASmallMatrix       the tuner's candidates and its timing loop
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "spkrylov/solver.hpp"
#include "spmv/host/reference_spmv.hpp"
#include "spmv/registry.hpp"
#include "tests/gpu/spmv_test_support.hpp"
#include "tests/solver_test_support.hpp"
#include "tests/vector_ops_comparison.hpp"

namespace spk {
namespace {

const Format every_format[] = {Format::csr_scalar, Format::csr_vector, Format::aligned_csr,
                               Format::ellpack,    Format::ellpack_r,  Format::hyb,
                               Format::csr_merge,  Format::sell,       Format::cusparse};
const XCache every_cache[] = {XCache::none, XCache::ldg, XCache::texture, XCache::shared};

// 3000 x 3000: every 13th row empty, rows 5, 1002, 1999 and 2996 of 1500 entries (past
// csr-vector's 32 w threshold for w <= 32, sell's long-row rule and hyb's ELL width), the rest
// 1..40 entries.
CsrMatrix<double> skewed_matrix(std::mt19937_64& rng) {
  return test::random_pattern_matrix(
      3000, 3000,
      [](index_t row) -> index_t {
        if (row % 997 == 5) return 1500;
        if (row % 13 == 0) return 0;
        return 1 + row % 40;
      },
      rng);
}

SpmvOptions spmv_options(Format format, XCache cache, MatrixValues values, GridShape grid) {
  SpmvOptions options;
  options.format = format;
  options.x_cache = cache;
  options.matrix_values = values;
  options.grid = grid;
  options.max_ell_fill = 1e9;  // ellpack takes the skewed matrix (small enough here)
  return options;
}

// apply_dots on fresh x and w, y and sums poisoned: when the backend folds the dots, y, (w, y)
// and (y, y) against the fp64 reference.
void expect_dots_match(const SpmvBackend<double>& backend, const CsrMatrix<double>& stored,
                       std::mt19937_64& rng, const test::TestStream& stream) {
  const auto n = static_cast<std::size_t>(stored.rows);
  const std::vector<double> x = test::random_values<double>(n, rng);
  const std::vector<double> w = test::random_values<double>(n, rng);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  DeviceBuffer<double> x_device(x, "sweep x"), w_device(w, "sweep w");
  DeviceBuffer<double> y_device(std::vector<double>(n, nan), "sweep y");
  DeviceBuffer<double> sums_device(std::vector<double>{nan, nan}, "sweep sums");
  const bool folded =
      backend.apply_dots(x_device.data(), y_device.data(), w_device.data(), sums_device.data(), 2);
  stream.synchronize();
  if (!folded) return;
  const test::DotsReference reference = test::dots_reference(stored, x, w);
  const std::vector<double> sums = sums_device.to_host();
  EXPECT_LT(test::relative_error(y_device.to_host(), reference.y), 1e-12) << backend.name();
  EXPECT_LE(std::abs(sums[0] - reference.w_y), 1e-12 * reference.w_y_magnitude) << backend.name();
  EXPECT_LE(std::abs(sums[1] - reference.y_y), 1e-12 * reference.y_y) << backend.name();
}

TEST(SanitizeSweep, EveryFormatCacheAndPrecision) {
  SPK_REQUIRE_GPU_OR_SKIP();
  test::FreshRandom random;
  std::mt19937_64& rng = random.engine();
  const test::TestStream stream;
  const CsrMatrix<double> matrix = skewed_matrix(rng);
  const CsrMatrix<float> single = convert_values<float>(matrix);
  for (const Format format : every_format)
    for (const XCache cache : every_cache) {
      if (!x_cache_refusal(format, cache).empty()) continue;  // shared: csr-vector only
      // The capped grid (grid-stride loops) once per format, with x through ldg.
      const bool both_grids = cache == XCache::ldg;
      for (const GridShape grid : {GridShape::exact, GridShape::capped}) {
        if (grid == GridShape::capped && !both_grids) continue;
        SCOPED_TRACE(std::string(to_string(format)) + "/" + to_string(cache) + "/" +
                     to_string(grid));
        for (const MatrixValues values : {MatrixValues::solver, MatrixValues::single}) {
          if (format == Format::cusparse && values == MatrixValues::single) continue;  // refused
          const CsrMatrix<double> stored = test::as_stored(matrix, values);
          const auto backend =
              make_spmv_backend(matrix, spmv_options(format, cache, values, grid), stream.get());
          const double tolerance =
              values == MatrixValues::single ? 1e-13 : test::spmv_tolerance<double>(1500);
          EXPECT_LT(test::spmv_relative_error(*backend, stored, rng, stream), tolerance);
          EXPECT_LT(
              test::spmv_scaled_relative_error<double>(*backend, stored, -1.5, 0.5, rng, stream),
              tolerance);
          expect_dots_match(*backend, stored, rng, stream);
          if (values == MatrixValues::solver && grid == GridShape::exact)
            test::expect_update_values_contract(*backend, matrix, rng, stream);
        }
        const auto float_backend = make_spmv_backend(
            single, spmv_options(format, cache, MatrixValues::solver, grid), stream.get());
        EXPECT_LT(test::spmv_relative_error(*float_backend, single, rng, stream),
                  test::spmv_tolerance<float>(1500));
        if (grid == GridShape::exact) {
          const std::vector<float> fresh = test::random_values<float>(single.values.size(), rng);
          EXPECT_EQ(test::update_values_from_host(*float_backend, fresh, stream), single.nnz());
        }
      }
    }
}

TEST(SanitizeSweep, AwkwardShapesEveryFormat) {
  SPK_REQUIRE_GPU_OR_SKIP();
  test::FreshRandom random;
  std::mt19937_64& rng = random.engine();
  const test::TestStream stream;
  for (const test::NamedShape& shape : test::awkward_shapes(rng)) {
    if (shape.matrix.nnz() > 20000) continue;  // the 100000-entry row: the full suite has it
    for (const Format format : every_format) {
      SCOPED_TRACE(shape.name + " / " + to_string(format));
      const auto backend = make_spmv_backend(
          shape.matrix, spmv_options(format, XCache::ldg, MatrixValues::solver, GridShape::exact),
          stream.get());
      test::expect_scaled_products_match(*backend, shape.matrix, rng, stream);
      test::expect_update_values_contract(*backend, shape.matrix, rng, stream);
    }
  }
}

struct SolverPath {
  Method method;
  Preconditioner preconditioner;
  VectorOps vector_ops = VectorOps::cublas;
  bool cuda_graph = false;
  MatrixValues values = MatrixValues::solver;
  AmgPrecision amg_precision = AmgPrecision::solver;
  EigenEstimate eigen_estimate = EigenEstimate::lanczos;  // chebyshev
  bool update_and_solve_again = false;
};

std::string name_of(const SolverPath& path) {
  return std::string(to_string(path.method)) + "/" + to_string(path.preconditioner) +
         (path.vector_ops == VectorOps::fused ? "/fused" : "/cublas") +
         (path.cuda_graph ? "/graph" : "/launches") +
         (path.values == MatrixValues::single ? "/fp32-values" : "") +
         (path.amg_precision == AmgPrecision::single ? "/fp32-cycle" : "") +
         (path.eigen_estimate == EigenEstimate::gershgorin ? "/gershgorin" : "");
}

// One solve to `tolerance` (judged by the true residual), and with update_and_solve_again new
// values (the diagonal scaled by 1.25) and a second solve from the last x.
template <class T>
void expect_solves(const CsrMatrix<double>& a, const SolverPath& path, double tolerance) {
  SCOPED_TRACE(name_of(path) + (sizeof(T) == 4 ? " (float)" : ""));
  Options options;
  options.device = Device::gpu;
  options.solver.method = path.method;
  options.solver.preconditioner = path.preconditioner;
  options.solver.preconditioner_options.amg.precision = path.amg_precision;
  options.solver.preconditioner_options.chebyshev.eigen_estimate = path.eigen_estimate;
  options.solver.vector_ops = path.vector_ops;
  options.solver.cuda_graph = path.cuda_graph;
  options.solver.check_every = 4;
  options.solver.tolerance = tolerance;
  options.solver.max_iterations = 500;
  options.spmv.matrix_values = path.values;
  const CsrMatrix<T> matrix = convert_values<T>(a);
  Solver<T> solver(arrays_of(matrix), options);
  const std::vector<double> b_double = test::random_vector(static_cast<std::size_t>(a.rows), 7);
  const std::vector<T> b(b_double.begin(), b_double.end());
  std::vector<T> x(b.size(), T(0));
  const SolveResult first = solver.solve(b, x);
  ASSERT_TRUE(first.converged()) << first.message;
  EXPECT_LT(test::true_relative_residual(a, b, x), 10 * tolerance);
  if (!path.update_and_solve_again) return;
  const CsrMatrix<double> shifted = test::with_scaled_diagonal(a, 1.25);
  const CsrMatrix<T> shifted_t = convert_values<T>(shifted);
  solver.update_values(shifted_t.values);
  const SolveResult second = solver.solve(b, x);
  ASSERT_TRUE(second.converged()) << second.message;
  EXPECT_LT(test::true_relative_residual(shifted, b, x), 10 * tolerance);
}

// Every preconditioner under CG (SPD) and BiCGSTAB (nonsymmetric), each through cuBLAS with
// graphs and through the fused passes without; fp32 and fp32 values under fp64 where their
// kernels differ (the fp32 instantiations, the mixed-precision SpMV and AMG's fp32 cycle).
TEST(SanitizeSweep, EverySolverPath) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const CsrMatrix<double> spd = test::generated("poisson3d", 8);  // 512 rows
  const CsrMatrix<double> nonsymmetric = test::convection_diffusion(8, 0.5, "upwind");
  for (const Method method : {Method::cg, Method::bicgstab}) {
    const CsrMatrix<double>& a = method == Method::cg ? spd : nonsymmetric;
    for (const Preconditioner preconditioner :
         {Preconditioner::none, Preconditioner::jacobi, Preconditioner::chebyshev,
          Preconditioner::ic0, Preconditioner::ilu0, Preconditioner::amg}) {
      if (method == Method::cg && preconditioner == Preconditioner::ilu0) continue;
      if (method == Method::bicgstab && preconditioner == Preconditioner::ic0) continue;
      SolverPath path{method, preconditioner};
      path.cuda_graph = true;
      path.update_and_solve_again = true;
      expect_solves<double>(a, path, 1e-8);
      path.vector_ops = VectorOps::fused;
      path.cuda_graph = false;
      expect_solves<double>(a, path, 1e-8);
    }
    SolverPath jacobi{method, Preconditioner::jacobi};
    expect_solves<float>(a, jacobi, 1e-4);
    jacobi.values = MatrixValues::single;
    jacobi.vector_ops = VectorOps::fused;
    expect_solves<double>(a, jacobi, 1e-8);
    SolverPath chebyshev{method, Preconditioner::chebyshev};
    chebyshev.eigen_estimate = EigenEstimate::gershgorin;
    expect_solves<double>(a, chebyshev, 1e-8);
    SolverPath amg{method, Preconditioner::amg};
    amg.amg_precision = AmgPrecision::single;
    expect_solves<double>(a, amg, 1e-8);
    expect_solves<float>(a, amg, 1e-4);
  }
}

TEST(SanitizeSweep, AutoTunerOnASmallMatrix) {
  SPK_REQUIRE_GPU_OR_SKIP();
  const CsrMatrix<double> a = test::generated("poisson3d", 12);
  Options options;
  options.device = Device::gpu;
  options.spmv.format = Format::automatic;
  options.spmv.tune_cache = "off";
  options.spmv.tune_budget_ms = 500;
  Solver<double> solver(arrays_of(a), options);
  EXPECT_TRUE(solver.setup_info().tuning.used);
  const std::vector<double> b = test::random_vector(static_cast<std::size_t>(a.rows), 3);
  std::vector<double> x(b.size(), 0.0);
  const SolveResult result = solver.solve(b, x);
  ASSERT_TRUE(result.converged()) << result.message;
  EXPECT_LT(test::true_relative_residual(a, b, x), 1e-7);
}

}  // namespace
}  // namespace spk
