#pragma once
// Systems shared by the CPU and GPU solver tests, and the one solve they make on either path.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "spkrylov/solver.hpp"
#include "spmv/host/csr_matrix.hpp"
#include "spmv/host/generators.hpp"
#include "spmv/host/matrix_market.hpp"
#include "spmv/host/reference_spmv.hpp"
#include "tests/test_support.hpp"

namespace spk::test {

inline CsrMatrix<double> generated(const std::string& kind, int n, int stencil = 7) {
  GeneratorSpec spec;
  spec.kind = kind;
  spec.n = n;
  spec.stencil = stencil;
  return generate_matrix(spec);
}

inline std::vector<double> random_vector(std::size_t n, unsigned seed) {
  std::mt19937 engine(seed);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  std::vector<double> v(n);
  for (auto& value : v) value = uniform(engine);
  return v;
}

// ||b - A x|| / ||b|| in fp64 on the host, independent of the solver's own report.
template <class T>
double true_relative_residual(const CsrMatrix<double>& matrix, const std::vector<T>& b,
                              const std::vector<T>& x) {
  std::vector<double> xd(x.begin(), x.end()), ax(b.size());
  reference_spmv(matrix, xd.data(), ax.data());
  double r2 = 0.0, b2 = 0.0;
  for (std::size_t i = 0; i < b.size(); ++i) {
    const double r = static_cast<double>(b[i]) - ax[i];
    r2 += r * r;
    b2 += static_cast<double>(b[i]) * static_cast<double>(b[i]);
  }
  return std::sqrt(r2 / b2);
}

// The same matrix with its diagonal entries multiplied by `factor` (update_values tests).
inline CsrMatrix<double> with_scaled_diagonal(CsrMatrix<double> a, double factor) {
  for (index_t row = 0; row < a.rows; ++row)
    for (index_t k = a.row_offsets[row]; k < a.row_offsets[row + 1]; ++k)
      if (a.columns[k] == row) a.values[k] *= factor;
  return a;
}

// The same matrix plus a random shift in [0, max_shift) on each diagonal entry: values not
// exact in fp32 (the stencils' -1, 6 and 26 convert exactly), still SPD for an SPD `a`.
inline CsrMatrix<double> with_random_diagonal_shift(CsrMatrix<double> a, double max_shift,
                                                    unsigned seed) {
  std::mt19937 engine(seed);
  std::uniform_real_distribution<double> uniform(0.0, max_shift);
  for (index_t row = 0; row < a.rows; ++row)
    for (index_t k = a.row_offsets[row]; k < a.row_offsets[row + 1]; ++k)
      if (a.columns[k] == row) a.values[k] += uniform(engine);
  return a;
}

// The points of an n x n x n grid (x fastest, as the grid generators number them), 3
// coordinates each: elasticity3d's node coordinates (AmgOptions::coordinates).
inline std::vector<double> grid_points(int n) {
  std::vector<double> points;
  for (int z = 0; z < n; ++z)
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x) points.insert(points.end(), {1.0 * x, 1.0 * y, 1.0 * z});
  return points;
}

// `a` with node `node`'s block rows and columns (block_size dofs per node) cut off from the
// other nodes: their entries set to explicit zeros, which are never a strong connection, so the
// node is isolated (a Dirichlet-like node) and the matrix stays symmetric.
inline CsrMatrix<double> with_node_decoupled(CsrMatrix<double> a, index_t node, int block_size) {
  for (index_t row = 0; row < a.rows; ++row)
    for (index_t k = a.row_offsets[row]; k < a.row_offsets[row + 1]; ++k)
      if ((row / block_size == node) != (a.columns[k] / block_size == node)) a.values[k] = 0.0;
  return a;
}

// One solve on `device` from x0 = 0 (x is resized); *setup, when given: what the setup built.
inline SolveResult solve_on(Device device, const CsrMatrix<double>& a, const std::vector<double>& b,
                            std::vector<double>& x, const SolverOptions& options,
                            const SpmvOptions& spmv = SpmvOptions{}, SetupInfo* setup = nullptr) {
  x.assign(a.rows, 0.0);
  Solver<double> solver(arrays_of(a), Options{options, spmv, device});
  const SolveResult result = solver.solve(b, x);
  if (setup != nullptr) *setup = solver.setup_info();
  return result;
}

// The GPU's count within max(2, 1%) of the CPU's: the device's reductions add in another order.
inline void expect_counts_close(const SolveResult& cpu, const SolveResult& gpu,
                                const std::string& label) {
  const int slack = std::max(2, cpu.iterations / 100);
  EXPECT_LE(std::abs(cpu.iterations - gpu.iterations), slack)
      << label << ": cpu " << cpu.iterations << " vs gpu " << gpu.iterations;
}

// One CPU-path solve from x0 = 0 with its answer and what the setup built.
struct CpuRun {
  SolveResult result;
  std::vector<double> x;
  SetupInfo setup;
};
inline CpuRun solve_cpu(const CsrMatrix<double>& a, const std::vector<double>& b,
                        const SolverOptions& options) {
  CpuRun run;
  run.result = solve_on(Device::cpu, a, b, run.x, options, SpmvOptions{}, &run.setup);
  return run;
}

// The value of a preconditioner's report detail `name` ("" when it has none).
inline std::string detail(const PreconditionerInfo& info, const std::string& name) {
  for (const auto& [key, value] : info.details)
    if (key == name) return value;
  return "";
}

inline bool all_finite(const std::vector<double>& x) {
  for (double value : x)
    if (!std::isfinite(value)) return false;
  return true;
}

}  // namespace spk::test
