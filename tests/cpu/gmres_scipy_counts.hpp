#pragma once
// SciPy's GMRES(30) iteration counts on the systems the GMRES tests share
// (test_gmres_cpu.cpp, test_gmres_orthogonalization.cpp), and the generator they come from.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>

#include "spmv/host/csr_matrix.hpp"
#include "spmv/host/generators.hpp"

namespace spk::test {

inline CsrMatrix<double> convdiff(const std::string& kind, int n, double peclet,
                                  const std::string& convection) {
  GeneratorSpec spec;
  spec.kind = kind;
  spec.n = n;
  spec.peclet = peclet;
  spec.convection = convection;
  return generate_matrix(spec);
}

// SciPy 1.17.1's scipy.sparse.linalg.gmres(A, ones, rtol=1e-8, atol=0, restart=30) from x0 = 0,
// no preconditioner: its INNER iterations (Arnoldi steps: the calls of a callback_type='pr_norm'
// callback). Made by
//   python3 tools/gmres_reference.py --spkrylov build/apps/spkrylov
// (the same generated matrices, written by `spkrylov info --generate`).
struct ScipyCount {
  const char* kind;
  int n;
  double peclet;
  const char* convection;
  int iterations;
};
constexpr ScipyCount kConvectionDiffusion[] = {
    {"convdiff2d", 48, 1.0, "central", 188},  {"convdiff2d", 48, 10.0, "central", 339},
    {"convdiff2d", 48, 50.0, "central", 958}, {"convdiff2d", 48, 1.0, "upwind", 275},
    {"convdiff2d", 48, 10.0, "upwind", 206},  {"convdiff2d", 48, 50.0, "upwind", 209},
    {"convdiff3d", 16, 1.0, "central", 57},   {"convdiff3d", 16, 10.0, "central", 266},
    {"convdiff3d", 16, 1.0, "upwind", 89},    {"convdiff3d", 16, 10.0, "upwind", 90},
    {"convdiff3d", 16, 50.0, "upwind", 83},
};
// watt_2 (SuiteSparse HB/watt_2, 1856 rows): SciPy converges in 4967 (true 1.0e-8). On
// west0479, rajat01 and Pd SciPy does not converge in 20010 iterations (true relative
// residuals 0.97, 0.032 and 0.98).
constexpr int kScipyWatt2 = 4967;

inline std::string label_of(const ScipyCount& reference) {
  return std::string(reference.kind) + " n=" + std::to_string(reference.n) + " " +
         reference.convection + " Pe=" + std::to_string(reference.peclet);
}

// Within 5% of SciPy's count (at least 1 iteration either way).
inline void expect_within_five_percent(int ours, int scipy, const std::string& label) {
  const int slack = std::max(1, static_cast<int>(std::ceil(0.05 * scipy)));
  EXPECT_LE(std::abs(ours - scipy), slack) << label << ": spkrylov " << ours << ", SciPy " << scipy;
}

}  // namespace spk::test
