// spk::Solver built from device arrays (CsrArrays with on_device) against the same arrays
// on the host: the device path checks and builds everything on the device, the host path
// uploads once and takes the same builders, so every format must give bit for bit the same
// solve, and every bad input the same one-line error. Matrices are fresh random ones (the
// seed is printed on failure); each solution comes back into a NaN-poisoned host vector.
#include <cuda_runtime.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <functional>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/cuda_check.hpp"
#include "core/device_buffer.hpp"
#include "spkrylov/solver.hpp"
#include "tests/gpu/spmv_test_support.hpp"
#include "tests/solver_test_support.hpp"

namespace spk {
namespace {

// n x n, diagonally dominant by rows (so Jacobi-preconditioned BiCGSTAB converges): row r gets
// row_length(r) - 1 distinct random off-diagonal columns, sorted, plus its diagonal entry
// sum |a_rj| + 1. With `symmetric`, every off-diagonal entry is mirrored (a_jr = a_rj), which
// makes the matrix SPD (for CG).
CsrMatrix<double> dominant_matrix(index_t n, const std::function<index_t(index_t)>& row_length,
                                  bool symmetric, std::mt19937_64& rng) {
  std::vector<std::map<index_t, double>> rows(static_cast<std::size_t>(n));
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  std::uniform_int_distribution<index_t> column(0, n - 1);
  for (index_t row = 0; row < n; ++row) {
    const index_t wanted = std::min(row_length(row) - 1, n - 1);
    std::set<index_t> picked;
    while (static_cast<index_t>(picked.size()) < wanted) {
      const index_t c = column(rng);
      if (c != row) picked.insert(c);
    }
    for (const index_t c : picked) {
      const double a = value(rng);
      rows[row][c] = a;
      if (symmetric) rows[c][row] = a;
    }
  }
  CsrMatrix<double> matrix;
  matrix.rows = matrix.cols = n;
  for (index_t row = 0; row < n; ++row) {
    double off_diagonal = 0.0;
    for (const auto& [c, a] : rows[row]) off_diagonal += std::abs(a);
    rows[row][row] = off_diagonal + 1.0;
    for (const auto& [c, a] : rows[row]) {
      matrix.columns.push_back(c);
      matrix.values.push_back(a);
    }
    matrix.row_offsets.push_back(static_cast<index_t>(matrix.columns.size()));
  }
  return matrix;
}

// The CSR arrays of a matrix, copied to the device, and the CsrArrays that name them.
template <class T>
struct DeviceArrays {
  explicit DeviceArrays(const CsrMatrix<T>& matrix)
      : offsets(matrix.row_offsets, "test row offsets"),
        columns(matrix.columns, "test columns"),
        values(matrix.values, "test values"),
        arrays{matrix.rows, matrix.cols, offsets.data(), columns.data(), values.data(), true} {}
  DeviceBuffer<index_t> offsets;
  DeviceBuffer<index_t> columns;
  DeviceBuffer<T> values;
  CsrArrays<T> arrays;
};

// What constructing a solver and solving gave: the exception (its type and one line), or the
// result of a solve, of an update_values with `new_values` and a second solve.
template <class T>
struct Outcome {
  std::string error;
  std::vector<SolveResult> results;
  std::vector<std::vector<T>> solutions;
};

template <class T>
void expect_same_outcome(const Outcome<T>& device, const Outcome<T>& host) {
  EXPECT_EQ(device.error, host.error);
  ASSERT_EQ(device.results.size(), host.results.size());
  for (std::size_t solve = 0; solve < host.results.size(); ++solve) {
    SCOPED_TRACE("solve " + std::to_string(solve));
    const SolveResult &got = device.results[solve], &want = host.results[solve];
    EXPECT_EQ(got.status, want.status) << got.message << " / " << want.message;
    EXPECT_EQ(got.iterations, want.iterations);
    EXPECT_EQ(got.iterations_executed, want.iterations_executed);
    EXPECT_EQ(std::memcmp(&got.true_residual, &want.true_residual, sizeof(double)), 0)
        << got.true_residual << " vs " << want.true_residual;
    const std::vector<T>&x = device.solutions[solve], &y = host.solutions[solve];
    ASSERT_EQ(x.size(), y.size());
    EXPECT_TRUE(x.empty() || std::memcmp(x.data(), y.data(), x.size() * sizeof(T)) == 0)
        << "x differs";
  }
}

// One solve with b, x on the device; x is returned through a NaN-poisoned host copy.
template <class T>
void solve_into(Solver<T>& solver, const std::vector<T>& b, Outcome<T>& outcome) {
  const DeviceBuffer<T> b_device(b, "test b");
  DeviceBuffer<T> x_device(std::vector<T>(b.size(), T(0)), "test x");
  outcome.results.push_back(solver.solve(b_device.data(), x_device.data()));
  std::vector<T> x(b.size(), std::numeric_limits<T>::quiet_NaN());
  if (!x.empty())
    SPK_CUDA_CHECK(
        cudaMemcpy(x.data(), x_device.data(), x.size() * sizeof(T), cudaMemcpyDeviceToHost));
  outcome.solutions.push_back(std::move(x));
}

template <class T>
Outcome<T> run(const CsrArrays<T>& arrays, const Options& options, const std::vector<T>& b,
               const std::vector<T>& new_values) {
  Outcome<T> outcome;
  try {
    Solver<T> solver(arrays, options);
    if (solver.device() == Device::cpu) {  // the CPU path: host vectors
      std::vector<T> x(b.size(), T(0));
      outcome.results.push_back(solver.solve(b, x));
      outcome.solutions.push_back(x);
      return outcome;
    }
    solve_into(solver, b, outcome);
    if (new_values.empty()) return outcome;
    const DeviceBuffer<T> values(new_values, "test new values");
    solver.update_values(values.data());
    solve_into(solver, b, outcome);
  } catch (const BadDiagonal& error) {
    outcome.error = std::string("BadDiagonal: ") + error.what();
  } catch (const BadInput& error) {
    outcome.error = std::string("BadInput: ") + error.what();
  } catch (const Error& error) {
    outcome.error = std::string("Error: ") + error.what();
  }
  return outcome;
}

// An ELL width that keeps HYB deterministic: only the longest row spills into the COO part
// when it spills at most 256 entries (they fall in one warp's chunk: one atomicAdd per row),
// otherwise nothing spills. Two HYB solves can then be compared bit for bit; the device-built
// COO part itself is compared with the host's on every shape in test_device_layouts.cpp.
index_t deterministic_hyb_width(const CsrMatrix<double>& matrix) {
  std::vector<index_t> lengths{0, 0};
  for (index_t row = 0; row < matrix.rows; ++row) lengths.push_back(matrix.row_length(row));
  std::sort(lengths.begin(), lengths.end());
  const index_t longest = lengths.back(), second = lengths[lengths.size() - 2];
  return longest - second <= 256 ? second : longest;
}

std::string temp_cache_path() {
  return (std::filesystem::temp_directory_path() /
          ("spk-devarrays-" + std::to_string(::getpid()) + "-" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".txt"))
      .string();
}

// Every format, built from device arrays and from the same host arrays: the same iterations,
// the same x and residual, bit for bit, before and after an update_values. csr-vector also at
// 2 threads per row, where the long row takes the long-row path. cusparse runs alg2 (documented
// as deterministic); auto shares a tuning cache, so the second solver builds the first one's
// choice.
template <class T>
void expect_same_solves(const CsrMatrix<double>& source, Method method, std::mt19937_64& rng) {
  const CsrMatrix<T> matrix = convert_values<T>(source);
  const DeviceArrays<T> device(matrix);
  std::vector<T> b(static_cast<std::size_t>(matrix.rows));
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  for (T& value : b) value = static_cast<T>(uniform(rng));
  std::vector<T> new_values = matrix.values;  // same pattern, values scaled by 1 +- 10%
  for (T& value : new_values) value *= static_cast<T>(1.0 + 0.1 * uniform(rng));
  const std::string cache = temp_cache_path();
  for (const char* format : {"csr-scalar", "csr-vector", "csr-vector/2", "aligned-csr", "ellpack",
                             "ellpack-r", "hyb", "cusparse", "auto"}) {
    SCOPED_TRACE(format);
    Options options;
    options.device = Device::gpu;
    options.solver.method = method;
    options.solver.preconditioner = Preconditioner::jacobi;
    options.solver.tolerance = sizeof(T) == 8 ? 1e-10 : 1e-5;
    const std::string name = format;
    options.spmv.format = parse_format(name == "csr-vector/2" ? "csr-vector" : name);
    if (name == "csr-vector/2") options.spmv.threads_per_row = 2;
    options.spmv.hyb_width = deterministic_hyb_width(source);
    options.spmv.max_ell_fill = 1e9;  // ellpack on the long-row matrices: values, not the rule
    options.spmv.cusparse_algorithm = "alg2";
    options.spmv.tune_cache = cache;
    const Outcome<T> from_host = run(arrays_of(matrix), options, b, new_values);
    const Outcome<T> from_device = run(device.arrays, options, b, new_values);
    ASSERT_TRUE(from_host.error.empty()) << from_host.error;
    ASSERT_FALSE(from_host.results.empty());
    EXPECT_TRUE(from_host.results[0].converged()) << from_host.results[0].message;
    if (name == "auto") {
      // auto may choose a candidate whose sums use atomics (hyb's COO part, at the tuner's own
      // width): the same choice, but the last bits of a solve may differ.
      ASSERT_TRUE(from_device.error.empty()) << from_device.error;
      ASSERT_EQ(from_device.results.size(), from_host.results.size());
      for (std::size_t k = 0; k < from_host.results.size(); ++k) {
        EXPECT_TRUE(from_device.results[k].converged()) << from_device.results[k].message;
        EXPECT_LE(std::abs(from_device.results[k].iterations - from_host.results[k].iterations),
                  std::max(2, from_host.results[k].iterations / 50));
      }
      continue;
    }
    expect_same_outcome(from_device, from_host);
  }
  std::filesystem::remove(cache);
}

// The two matrices of the bitwise comparisons: nonsymmetric with rows of 2..9 entries (for
// BiCGSTAB), and SPD with rows of about 2..17 (for CG); with `long_rows`, the nonsymmetric one
// has a row of 200 entries and the SPD one a row of about 150.
struct SolveMatrices {
  CsrMatrix<double> nonsymmetric;
  CsrMatrix<double> spd;
};

SolveMatrices solve_matrices(std::mt19937_64& rng, bool long_rows) {
  auto lengths = std::uniform_int_distribution<index_t>(2, 9);
  const index_t long_row = long_rows ? 1234 : -1;
  SolveMatrices matrices;
  matrices.nonsymmetric = dominant_matrix(
      4000, [&](index_t row) { return row == long_row ? 200 : lengths(rng); }, false, rng);
  matrices.spd = dominant_matrix(
      3000, [&](index_t row) { return row == long_row ? 150 : lengths(rng); }, true, rng);
  return matrices;
}

TEST(SolverDeviceArraysGpu, EveryFormatSolvesBitwiseAsFromHostArrays) {
  SPK_REQUIRE_GPU_OR_SKIP();
  test::FreshRandom fresh;
  std::mt19937_64& rng = fresh.engine();
  const auto [nonsymmetric, spd] = solve_matrices(rng, true);
  {
    SCOPED_TRACE("BiCGSTAB, double");
    expect_same_solves<double>(nonsymmetric, Method::bicgstab, rng);
  }
  {
    SCOPED_TRACE("CG, double");
    expect_same_solves<double>(spd, Method::cg, rng);
  }
  {
    SCOPED_TRACE("BiCGSTAB, float");
    expect_same_solves<float>(nonsymmetric, Method::bicgstab, rng);
  }
}

// Every preconditioner reads the matrix's pattern and values in the space at setup (on the GPU
// the device arrays, or for IC(0)/ILU(0) a host copy of the pattern): the same solve, before
// and after an update_values, from device arrays as from host arrays (default format).
TEST(SolverDeviceArraysGpu, EveryPreconditionerSolvesBitwiseAsFromHostArrays) {
  SPK_REQUIRE_GPU_OR_SKIP();
  test::FreshRandom fresh;
  std::mt19937_64& rng = fresh.engine();
  const auto [nonsymmetric, spd] = solve_matrices(rng, false);
  struct Case {
    Preconditioner preconditioner;
    Method method;
    const CsrMatrix<double>* matrix;
  };
  for (const Case& c : {Case{Preconditioner::none, Method::cg, &spd},
                        Case{Preconditioner::jacobi, Method::cg, &spd},
                        Case{Preconditioner::chebyshev, Method::cg, &spd},
                        Case{Preconditioner::ic0, Method::cg, &spd},
                        Case{Preconditioner::ilu0, Method::bicgstab, &nonsymmetric}}) {
    SCOPED_TRACE(to_string(c.preconditioner));
    const CsrMatrix<double>& matrix = *c.matrix;
    const DeviceArrays<double> device(matrix);
    const std::vector<double> b = test::random_vector(static_cast<std::size_t>(matrix.rows), 7);
    // New values: each scaled on its own (BiCGSTAB), or all by one factor (CG: A stays SPD).
    std::vector<double> new_values = matrix.values;
    std::uniform_real_distribution<double> scale(0.9, 1.1);
    const double common = scale(rng);
    for (double& value : new_values) value *= c.method == Method::cg ? common : scale(rng);
    Options options;
    options.device = Device::gpu;
    options.solver.method = c.method;
    options.solver.preconditioner = c.preconditioner;
    options.solver.tolerance = 1e-10;
    const Outcome<double> from_host = run(arrays_of(matrix), options, b, new_values);
    const Outcome<double> from_device = run(device.arrays, options, b, new_values);
    ASSERT_TRUE(from_host.error.empty()) << from_host.error;
    EXPECT_TRUE(from_host.results[0].converged()) << from_host.results[0].message;
    expect_same_outcome(from_device, from_host);
  }
}

// A case of the bad-input comparison: arrays (possibly malformed) and the options to use.
struct ArraysCase {
  std::string name;
  index_t rows = 0;
  index_t cols = 0;
  std::vector<index_t> offsets;
  std::vector<index_t> columns;
  std::vector<double> values;
  Preconditioner preconditioner = Preconditioner::none;
  double tolerance = 1e-8;
  bool must_fail = true;
};

ArraysCase case_of(const std::string& name, const CsrMatrix<double>& matrix, bool must_fail,
                   Preconditioner preconditioner = Preconditioner::none) {
  ArraysCase c;
  c.name = name;
  c.rows = matrix.rows;
  c.cols = matrix.cols;
  c.offsets = matrix.row_offsets;
  c.columns = matrix.columns;
  c.values = matrix.values;
  c.preconditioner = preconditioner;
  c.must_fail = must_fail;
  return c;
}

std::vector<ArraysCase> bad_and_awkward_cases(std::mt19937_64& rng) {
  auto lengths = std::uniform_int_distribution<index_t>(1, 8);
  const CsrMatrix<double> good = dominant_matrix(
      500, [&](index_t) { return lengths(rng); }, false, rng);
  auto entry = std::uniform_int_distribution<index_t>(0, good.nnz() - 1);
  auto row = std::uniform_int_distribution<index_t>(1, good.rows - 2);
  std::vector<ArraysCase> cases;
  const auto changed = [&](const std::string& name, auto change) {
    ArraysCase c = case_of(name, good, true);
    change(c);
    cases.push_back(c);
  };
  changed("decreasing row offsets", [&](ArraysCase& c) {
    const index_t r = row(rng);
    c.offsets[r] = c.offsets[r + 1] + 1;
  });
  changed("row offsets starting at 1", [&](ArraysCase& c) { c.offsets[0] = 1; });
  changed("column past the last", [&](ArraysCase& c) { c.columns[entry(rng)] = c.cols; });
  changed("negative column", [&](ArraysCase& c) { c.columns[entry(rng)] = -7; });
  changed("NaN value",
          [&](ArraysCase& c) { c.values[entry(rng)] = std::numeric_limits<double>::quiet_NaN(); });
  changed("infinite value",
          [&](ArraysCase& c) { c.values[entry(rng)] = -std::numeric_limits<double>::infinity(); });
  changed("not square", [&](ArraysCase& c) { c.cols = c.rows + 3; });
  changed("tolerance 0", [&](ArraysCase& c) { c.tolerance = 0.0; });
  changed("zero diagonal with Jacobi", [&](ArraysCase& c) {
    c.preconditioner = Preconditioner::jacobi;
    const index_t r = row(rng);
    for (index_t k = c.offsets[r]; k < c.offsets[r + 1]; ++k)
      if (c.columns[k] == r) c.values[k] = 0.0;
  });
  ArraysCase empty;
  empty.name = "0 rows";
  empty.offsets = {0};
  cases.push_back(empty);

  // Valid but awkward: whatever the host arrays give (a solve or an error), the device arrays
  // must give the same.
  std::mt19937_64 shape_rng(rng());
  for (const Preconditioner preconditioner : {Preconditioner::none, Preconditioner::jacobi}) {
    const std::string suffix = preconditioner == Preconditioner::jacobi ? ", Jacobi" : "";
    CsrMatrix<double> no_entries;
    no_entries.rows = no_entries.cols = 100;
    no_entries.row_offsets.assign(101, 0);
    cases.push_back(case_of("nnz=0" + suffix, no_entries, false, preconditioner));
    cases.push_back(case_of("n=1" + suffix,
                            dominant_matrix(
                                1, [](index_t) { return 1; }, false, shape_rng),
                            false, preconditioner));
    CsrMatrix<double> with_empty_row = dominant_matrix(
        300, [&](index_t) { return lengths(shape_rng); }, false, shape_rng);
    const index_t empty_row = 123;  // drop row 123's entries
    const index_t begin = with_empty_row.row_offsets[empty_row];
    const index_t end = with_empty_row.row_offsets[empty_row + 1];
    with_empty_row.columns.erase(with_empty_row.columns.begin() + begin,
                                 with_empty_row.columns.begin() + end);
    with_empty_row.values.erase(with_empty_row.values.begin() + begin,
                                with_empty_row.values.begin() + end);
    for (index_t r = empty_row + 1; r <= with_empty_row.rows; ++r)
      with_empty_row.row_offsets[r] -= end - begin;
    cases.push_back(case_of("an empty row" + suffix, with_empty_row, false, preconditioner));
    cases.push_back(
        case_of("one row of 5000 entries" + suffix,
                dominant_matrix(
                    5000, [&](index_t r) { return r == 4321 ? 5000 : lengths(shape_rng); }, false,
                    shape_rng),
                false, preconditioner));
  }
  return cases;
}

// Bad arrays on the device give the host arrays' error, word for word, on the GPU path
// (checked on the device) and on the CPU path (downloaded first); awkward valid arrays give
// the same solve, for every format.
TEST(SolverDeviceArraysGpu, BadAndAwkwardArraysGiveWhatHostArraysGive) {
  SPK_REQUIRE_GPU_OR_SKIP();
  test::FreshRandom fresh;
  std::mt19937_64& rng = fresh.engine();
  for (const ArraysCase& c : bad_and_awkward_cases(rng)) {
    SCOPED_TRACE(c.name);
    CsrMatrix<double> host;
    host.rows = c.rows;
    host.cols = c.cols;
    host.row_offsets = c.offsets;
    host.columns = c.columns;
    host.values = c.values;
    const DeviceArrays<double> device(host);
    CsrArrays<double> host_arrays = arrays_of(host);
    const std::vector<double> b(static_cast<std::size_t>(std::max<index_t>(c.rows, 0)), 1.0);
    for (const Format format : all_formats()) {
      if (format == Format::automatic || format == Format::csr) continue;  // auto: tuned below
      SCOPED_TRACE(to_string(format));
      Options options;
      options.device = Device::gpu;
      options.solver.method = Method::bicgstab;
      options.solver.preconditioner = c.preconditioner;
      options.solver.tolerance = c.tolerance;
      options.solver.max_iterations = 200;
      options.spmv.format = format;
      options.spmv.hyb_width = deterministic_hyb_width(host);
      options.spmv.cusparse_algorithm = "alg2";
      options.spmv.tune_cache = "off";
      const Outcome<double> from_host = run(host_arrays, options, b, {});
      const Outcome<double> from_device = run(device.arrays, options, b, {});
      if (c.must_fail) {
        EXPECT_FALSE(from_host.error.empty());
        EXPECT_EQ(from_host.error.find('\n'), std::string::npos) << from_host.error;
      }
      expect_same_outcome(from_device, from_host);
      // The CPU path (device arrays downloaded, checked on the host) against the CPU path with
      // the host arrays: spmv.format does not apply there, so its refusals do not either.
      options.device = Device::cpu;
      EXPECT_EQ(run(device.arrays, options, b, {}).error, run(host_arrays, options, b, {}).error);
    }
  }
}

// Null and host pointers with on_device: the null pointer message of host arrays; a host
// pointer is refused before any kernel reads it, and the device stays usable.
TEST(SolverDeviceArraysGpu, NullAndHostPointersWithOnDeviceAreRefused) {
  SPK_REQUIRE_GPU_OR_SKIP();
  test::FreshRandom fresh;
  std::mt19937_64& rng = fresh.engine();
  const CsrMatrix<double> matrix = dominant_matrix(
      50, [](index_t) { return 3; }, false, rng);
  const DeviceArrays<double> device(matrix);
  const std::vector<double> b(50, 1.0);
  Options options;
  options.device = Device::gpu;
  options.solver.method = Method::bicgstab;  // the matrix is nonsymmetric
  CsrArrays<double> host_arrays = arrays_of(matrix);
  host_arrays.columns = nullptr;
  CsrArrays<double> device_arrays = device.arrays;
  device_arrays.columns = nullptr;
  EXPECT_EQ(run(host_arrays, options, b, {}).error,
            "BadInput: CsrArrays: columns is a null pointer");
  EXPECT_EQ(run(device_arrays, options, b, {}).error,
            "BadInput: CsrArrays: columns is a null pointer");
  device_arrays = device.arrays;
  device_arrays.values = matrix.values.data();  // host memory
  EXPECT_EQ(run(device_arrays, options, b, {}).error,
            "BadInput: CsrArrays: values is host memory the GPU cannot read, but on_device is "
            "set");
  const Outcome<double> after = run(device.arrays, options, b, {});
  ASSERT_TRUE(after.error.empty()) << after.error;
  EXPECT_TRUE(after.results[0].converged()) << after.results[0].message;
}

}  // namespace
}  // namespace spk
