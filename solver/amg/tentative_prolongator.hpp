#pragma once
// The tentative prolongator of smoothed aggregation for one near-null-space vector B
// (Vanek, Mandel & Brezina 1996, sec. 3; PyAMG's fit_candidates and CUSP's for one
// candidate): T (fine rows x aggregates) holds, in row i, the single entry
//   T_i,agg(i) = B_i / ||B restricted to agg(i)||,
// so its columns are orthonormal (T^T T = I), and T B_c = B with the coarse vector
//   (B_c)_j = ||B restricted to aggregate j||.
// B = ones on the finest level (T piecewise constant, 1 / sqrt(|agg|)); each coarser level
// uses the B_c of the level above, so the hierarchy keeps B in the range of every P (for a
// Laplacian with natural boundaries, the constants stay the null space of every level).
// The GPU's version (solver/amg/device_tentative_prolongator.hpp) sums each norm in the same
// order with the same rounding (solver/amg/prolongator_rules.hpp): the same T and B_c.
#include <vector>

#include "solver/amg/aggregation.hpp"
#include "spmv/host/csr_matrix.hpp"

namespace spk {

struct TentativeProlongator {
  CsrMatrix<double> matrix;               // T
  std::vector<double> coarse_candidates;  // B_c, one entry per aggregate
};

// T and B_c for `aggregates` and the fine vector `candidates` (B, nonzero entries).
TentativeProlongator tentative_prolongator(const Aggregates& aggregates,
                                           const std::vector<double>& candidates);

}  // namespace spk
