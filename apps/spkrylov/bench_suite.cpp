#include "bench_suite.hpp"

#include "spkrylov/errors.hpp"

namespace spk::app {

namespace {

BenchMatrix generated(const std::string& label, const std::string& kind, int n, int stencil = 7,
                      double avg_row_length = 8.0) {
  GeneratorSpec spec;
  spec.kind = kind;
  spec.n = n;
  spec.stencil = stencil;
  spec.avg_row_length = avg_row_length;
  spec.exponent = 2.0;
  BenchMatrix matrix{label, MatrixSpec{}};
  matrix.spec.generate = spec;
  return matrix;
}

// The R-MAT graph Laplacian (Graph500 parameters): skewed rows, no column locality.
BenchMatrix rmat(const std::string& label, int scale, int edge_factor) {
  BenchMatrix matrix = generated(label, "rmat", 1);
  matrix.spec.generate->scale = scale;
  matrix.spec.generate->edge_factor = edge_factor;
  return matrix;
}

// The circuit-like matrix: short local rows plus 4 power/ground nets over 5% of the nodes.
BenchMatrix circuit(const std::string& label, int n) {
  BenchMatrix matrix = generated(label, "circuit", n);
  matrix.spec.generate->dense_rows = 4;
  matrix.spec.generate->dense_fraction = 0.05;
  return matrix;
}

// The generator's Peclet number is per cell, so the global Peclet number grows with n. On a
// 160^3 grid, cell Peclet 1 (global 160) already makes BiCGSTAB break down or diverge, the
// NVIDIA-sample-style baseline included (measured on an H100); cell Peclet 0.1 converges
// cleanly in a few hundred iterations, which is what a timing comparison needs.
BenchMatrix convection_diffusion(const std::string& label, int n, double peclet,
                                 const std::string& convection) {
  BenchMatrix matrix = generated(label, "convdiff3d", n);
  matrix.spec.generate->peclet = peclet;
  matrix.spec.generate->convection = convection;
  return matrix;
}

}  // namespace

std::vector<SolverBenchMatrix> solver_bench_suite(const std::string& name) {
  if (name == "default")
    return {
        {generated("poisson3d-7pt n=160 (4.1M rows)", "poisson3d", 160), Method::cg},
        {generated("poisson3d-27pt n=100 (1M rows)", "poisson3d", 100, 27), Method::cg},
        {generated("elasticity3d n=50 (375k rows)", "elasticity3d", 50), Method::cg},
        {convection_diffusion("convdiff3d upwind Pe=0.1 n=160 (4.1M rows)", 160, 0.1, "upwind"),
         Method::bicgstab},
        {convection_diffusion("convdiff3d central Pe=0.1 n=128 (2.1M rows)", 128, 0.1, "central"),
         Method::bicgstab}};
  if (name == "small")
    return {
        {generated("poisson3d-7pt n=40", "poisson3d", 40), Method::cg},
        {generated("elasticity3d n=12", "elasticity3d", 12), Method::cg},
        {convection_diffusion("convdiff3d upwind Pe=1 n=40", 40, 1.0, "upwind"), Method::bicgstab}};
  throw BadInput("bench --solvers: unknown --suite '" + name + "' (valid: default, small)");
}

std::vector<BenchMatrix> bench_suite(const std::string& name,
                                     const std::vector<std::string>& matrix_files) {
  std::vector<BenchMatrix> suite;
  if (name == "default") {
    suite.push_back(generated("poisson3d-7pt n=160 (4.1M rows)", "poisson3d", 160));
    suite.push_back(generated("poisson3d-27pt n=100 (1M rows)", "poisson3d", 100, 27));
    suite.push_back(generated("elasticity3d n=50 (375k rows)", "elasticity3d", 50));
    suite.push_back(generated("powerlaw 2M rows avg 8", "powerlaw", 2000000, 7, 8.0));
    suite.push_back(rmat("rmat scale 20 edge factor 16 (1M rows)", 20, 16));
    suite.push_back(circuit("circuit 6M rows 4 dense nets", 6000000));
  } else if (name == "small") {
    suite.push_back(generated("poisson3d-7pt n=40", "poisson3d", 40));
    suite.push_back(generated("poisson3d-27pt n=24", "poisson3d", 24, 27));
    suite.push_back(generated("elasticity3d n=12", "elasticity3d", 12));
    suite.push_back(generated("powerlaw 50k rows avg 8", "powerlaw", 50000, 7, 8.0));
    suite.push_back(rmat("rmat scale 14 edge factor 16", 14, 16));
    suite.push_back(circuit("circuit 50k rows 4 dense nets", 50000));
  } else if (name != "none") {
    throw BadInput("bench: unknown --suite '" + name + "' (valid: default, small, none)");
  }
  for (const auto& file : matrix_files) {
    BenchMatrix matrix{file, MatrixSpec{}};
    matrix.spec.file = file;
    suite.push_back(matrix);
  }
  return suite;
}

}  // namespace spk::app
