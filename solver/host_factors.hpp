#pragma once
// HostFactors<T>: IC(0)/ILU(0) factors on the CPU path (solver/incomplete_factorization.hpp):
// the rows factored in order (every row's dependencies come first), forward and backward
// substitution on the factor's sorted CSR storage.
#include <cstdint>
#include <vector>

#include "solver/factor_pattern.hpp"
#include "solver/factor_rows.hpp"
#include "solver/host_space.hpp"
#include "solver/incomplete_factorization.hpp"

namespace spk {

template <class T>
class HostFactors {
 public:
  HostFactors(HostSpace<T>& /*space*/, const FactorPattern& pattern)
      : pattern_(pattern),
        values_(pattern.nnz()),
        forward_(static_cast<std::size_t>(pattern.rows)) {}

  // The factors of new values (CSR order of the matrix), shifted and with pivots replaced as
  // `request` says; status[factor_status::fault] = the first bad pivot's code,
  // status[factor_status::replaced] = the pivots replaced.
  void factor(const T* csr_values, const FactorRequest& request, std::uint64_t* status) {
    const FactorPattern& p = pattern_;
    for (std::size_t k = 0; k < values_.size(); ++k)  // an inserted diagonal entry is 0
      values_[k] = p.csr_position[k] < 0 ? T(0) : csr_values[p.csr_position[k]];
    if (request.shift != 0.0)  // A + shift diag(A)
      for (index_t row = 0; row < p.rows; ++row)
        values_[p.diagonal[row]] *= static_cast<T>(1.0 + request.shift);
    std::uint64_t fault = diagonal_fault::no_fault, replaced = 0;
    for (index_t row = 0; row < p.rows && fault == diagonal_fault::no_fault; ++row) {
      bool replaced_here = false;
      fault = factor_row(p.kind, row, p.row_offsets.data(), p.columns.data(), p.diagonal.data(),
                         values_.data(), request.replace_tiny_pivots, replaced_here);
      replaced += replaced_here ? 1 : 0;
    }
    for (std::size_t k = 0; k < p.mirror_lower.size(); ++k)  // IC(0): L^T above the diagonal
      values_[p.mirror_upper[k]] = values_[p.mirror_lower[k]];
    status[factor_status::fault] = fault;
    status[factor_status::replaced] = replaced;
  }

  // z = U^-1 L^-1 r (IC(0): U = L^T, L with its diagonal; ILU(0): L with a unit diagonal).
  void solve(const T* r, T* z) {
    const FactorPattern& p = pattern_;
    T* const y = forward_.data();
    for (index_t i = 0; i < p.rows; ++i) {  // L y = r
      T sum = r[i];
      for (index_t k = p.row_offsets[i]; k < p.diagonal[i]; ++k)
        sum -= values_[k] * y[p.columns[k]];
      y[i] = p.kind == FactorKind::ic0 ? sum / values_[p.diagonal[i]] : sum;
    }
    for (index_t i = p.rows - 1; i >= 0; --i) {  // U z = y
      T sum = y[i];
      for (index_t k = p.diagonal[i] + 1; k < p.row_offsets[i + 1]; ++k)
        sum -= values_[k] * z[p.columns[k]];
      z[i] = sum / values_[p.diagonal[i]];
    }
  }

  std::size_t bytes() const { return values_.size() * sizeof(T); }
  // The factor values in the pattern's sorted storage: for tests.
  const std::vector<T>& values() const { return values_; }

 private:
  const FactorPattern& pattern_;
  std::vector<T> values_;
  std::vector<T> forward_;
};

template <class T>
struct FactorsOf<HostSpace<T>> {
  using type = HostFactors<T>;
};

}  // namespace spk
