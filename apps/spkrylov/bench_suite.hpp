#pragma once
// The matrices `spkrylov bench` runs on.
#include <string>
#include <vector>

#include "frontend/config/run_config.hpp"
#include "spkrylov/options.hpp"

namespace spk::app {

struct BenchMatrix {
  std::string label;
  MatrixSpec spec;
};

struct SolverBenchMatrix {
  BenchMatrix matrix;
  Method method;  // cg for the SPD matrices, bicgstab for the nonsymmetric ones
};

// default: 10-50 million nonzeros each (several times the 50 MB L2 of an H100): poisson3d 7-
// and 27-point, elasticity3d, powerlaw (2M rows), rmat (scale 20, 32M nonzeros, 390 MB CSR),
// circuit (6M rows, 26M nonzeros, 340 MB CSR);
// small: the same kinds at a size for a quick check; none: only the given files.
std::vector<BenchMatrix> bench_suite(const std::string& name,
                                     const std::vector<std::string>& matrix_files);

// The systems `bench --solvers` solves: SPD stencils with CG, convection-diffusion with
// BiCGSTAB (default: millions of rows; small: a quick check).
std::vector<SolverBenchMatrix> solver_bench_suite(const std::string& name);

}  // namespace spk::app
