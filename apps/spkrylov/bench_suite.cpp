#include "bench_suite.hpp"

#include "spmv/base/error.hpp"

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

// Peclet 10 makes BiCGSTAB's residual grow by 1e10 before it could recover (it is reported
// as diverged), which is no basis for timing; Peclet 1 and 0.5 converge cleanly.
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
        {convection_diffusion("convdiff3d upwind Pe=1 n=160 (4.1M rows)", 160, 1.0, "upwind"),
         Method::bicgstab},
        {convection_diffusion("convdiff3d central Pe=0.5 n=128 (2.1M rows)", 128, 0.5, "central"),
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
  } else if (name == "small") {
    suite.push_back(generated("poisson3d-7pt n=40", "poisson3d", 40));
    suite.push_back(generated("poisson3d-27pt n=24", "poisson3d", 24, 27));
    suite.push_back(generated("elasticity3d n=12", "elasticity3d", 12));
    suite.push_back(generated("powerlaw 50k rows avg 8", "powerlaw", 50000, 7, 8.0));
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
