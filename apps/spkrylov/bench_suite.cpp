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

}  // namespace

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
