#pragma once
// The arithmetic of one aggregate's thin QR in fit_candidates (solver/amg/candidate_fit.hpp),
// written once for the host's loop and the device's batched kernel
// (solver/amg/device_candidate_fit.hpp), with the rounding of prolongator_rules.hpp (no fused
// multiply-adds on either side), so both paths give the same T and B_c.
//
// For aggregate j with m dofs (rows d_0 < d_1 < ... of B) and k vectors: B_j = Q_j R_j by
// modified Gram-Schmidt applied twice. Q_j is written in place into T's values: row d_i of T
// holds its k entries (columns j k .. j k + k - 1) at t_values[t_offsets[d_i] + c].
//
// A dependent column (its norm after the two passes at most drop_tolerance times its norm
// before, or zero: B_j is rank-deficient, e.g. the rotations of 2 nodes) keeps R_pc (p < c)
// and R_cc = 0, so T B_c = B still holds, and its Q column is completed to an orthonormal basis:
// the unit vector e_i (i a dof of the aggregate) farthest from span(q_0 .. q_c-1), that is the i
// with the largest 1 - sum_p q_p[i]^2 (the first on ties), orthogonalised twice. T keeps k
// orthonormal columns per aggregate, so the coarse matrix T^T A T keeps a positive diagonal for
// an SPD A. That fails only where the aggregate has fewer than k dofs.
#include <cmath>
#include <cstddef>

#include "solver/amg/prolongator_rules.hpp"

namespace spk::candidate_fit_rules {

constexpr int max_candidates = 16;
// Returned by fit_aggregate when the aggregate has fewer than k independent dofs.
constexpr int too_few_dofs = -1;

// The dofs of an aggregate: dof i is row nodes[i / block_size] * block_size + i % block_size
// (the aggregate's nodes increasing, so the rows are too).
struct AggregateDofs {
  const index_t* nodes;
  index_t node_count;
  int block_size;
  SPK_HOST_DEVICE index_t count() const { return node_count * block_size; }
  SPK_HOST_DEVICE index_t row(index_t i) const {
    return nodes[i / block_size] * block_size + i % block_size;
  }
};

// The entry of column c at dof i in T's values.
SPK_HOST_DEVICE inline double& entry(double* t_values, const index_t* t_offsets,
                                     const AggregateDofs& dofs, index_t i, int c) {
  return t_values[t_offsets[dofs.row(i)] + c];
}

// (q_p, q_c) over the aggregate's dofs, in dof order.
SPK_HOST_DEVICE inline double column_dot(const double* t_values, const index_t* t_offsets,
                                         const AggregateDofs& dofs, int p, int c) {
  double sum = 0.0;
  for (index_t i = 0; i < dofs.count(); ++i) {
    const index_t at = t_offsets[dofs.row(i)];
    sum = rounded_sum(sum, rounded_product(t_values[at + p], t_values[at + c]));
  }
  return sum;
}

// q_c -= h q_p
SPK_HOST_DEVICE inline void subtract_multiple(double* t_values, const index_t* t_offsets,
                                              const AggregateDofs& dofs, int p, int c, double h) {
  for (index_t i = 0; i < dofs.count(); ++i) {
    const index_t at = t_offsets[dofs.row(i)];
    t_values[at + c] = rounded_sum(t_values[at + c], -rounded_product(h, t_values[at + p]));
  }
}

// Column c orthogonalised against q_0 .. q_c-1, `passes` times (modified Gram-Schmidt); the
// coefficients added to r[p * k + c] when r is given.
SPK_HOST_DEVICE inline void orthogonalise(double* t_values, const index_t* t_offsets,
                                          const AggregateDofs& dofs, int c, int k, int passes,
                                          double* r) {
  for (int pass = 0; pass < passes; ++pass)
    for (int p = 0; p < c; ++p) {
      const double h = column_dot(t_values, t_offsets, dofs, p, c);  // h = (q_p, q_c)
      subtract_multiple(t_values, t_offsets, dofs, p, c, h);         // q_c -= h q_p
      if (r != nullptr) r[p * k + c] = rounded_sum(r[p * k + c], h);
    }
}

SPK_HOST_DEVICE inline void scale_column(double* t_values, const index_t* t_offsets,
                                         const AggregateDofs& dofs, int c, double divisor) {
  for (index_t i = 0; i < dofs.count(); ++i) {
    double& value = entry(t_values, t_offsets, dofs, i, c);
    value = value / divisor;
  }
}

// Column c (dependent) replaced by the unit vector of the dof farthest from span(q_0 .. q_c-1),
// orthogonalised and normalised. False when every dof is within that span (too few dofs).
SPK_HOST_DEVICE inline bool complete_column(double* t_values, const index_t* t_offsets,
                                            const AggregateDofs& dofs, int c, int k) {
  index_t best = -1;
  double best_distance = 1e-6;  // squared distance of e_i from the span, below: none
  for (index_t i = 0; i < dofs.count(); ++i) {
    double inside = 0.0;  // sum_p q_p[i]^2
    for (int p = 0; p < c; ++p) {
      const double q = entry(t_values, t_offsets, dofs, i, p);
      inside = rounded_sum(inside, rounded_product(q, q));
    }
    const double distance = 1.0 - inside;
    if (distance > best_distance) {
      best_distance = distance;
      best = i;
    }
  }
  if (best < 0) return false;
  for (index_t i = 0; i < dofs.count(); ++i)
    entry(t_values, t_offsets, dofs, i, c) = i == best ? 1.0 : 0.0;  // e_best
  orthogonalise(t_values, t_offsets, dofs, c, k, 2, nullptr);
  scale_column(t_values, t_offsets, dofs, c, sqrt(column_dot(t_values, t_offsets, dofs, c, c)));
  return true;
}

// The thin QR of aggregate j's block of B (rows x k, row-major): Q into T's values (its
// entries at the aggregate's rows: their columns are set by the caller), R (k x k, row-major)
// into r. Returns the number of dependent columns completed, or too_few_dofs.
SPK_HOST_DEVICE inline int fit_aggregate(const AggregateDofs& dofs, const double* b, int k,
                                         const index_t* t_offsets, double* t_values, double* r,
                                         double drop_tolerance) {
  for (int p = 0; p < k * k; ++p) r[p] = 0.0;
  for (index_t i = 0; i < dofs.count(); ++i)  // Q = B_j, to be orthonormalised in place
    for (int c = 0; c < k; ++c)
      entry(t_values, t_offsets, dofs, i, c) = b[static_cast<std::size_t>(dofs.row(i)) * k + c];
  int completed = 0;
  for (int c = 0; c < k; ++c) {
    const double before = sqrt(column_dot(t_values, t_offsets, dofs, c, c));  // ||b_c||
    // q_c = b_c - sum_{p<c} (q_p, q_c) q_p, twice; R_pc gathers both passes' coefficients
    orthogonalise(t_values, t_offsets, dofs, c, k, 2, r);
    const double after = sqrt(column_dot(t_values, t_offsets, dofs, c, c));
    if (after <= drop_tolerance * before || after == 0.0) {
      // dependent: R_cc = 0, and q_c completes the basis
      if (!complete_column(t_values, t_offsets, dofs, c, k)) return too_few_dofs;
      ++completed;
      continue;
    }
    r[c * k + c] = after;  // R_cc = ||q_c||, q_c /= R_cc
    scale_column(t_values, t_offsets, dofs, c, after);
  }
  return completed;
}

}  // namespace spk::candidate_fit_rules
