#pragma once
// The AMG level operators of the CPU path (solver/amg/level_operator.hpp): a host CSR copy in
// the solver's T and the reference SpMV. Every format is "cpu-csr" here; level_formats applies
// on the GPU.
#include <cstddef>
#include <memory>

#include "solver/amg/level_operator.hpp"
#include "spmv/host/reference_spmv.hpp"

namespace spk {

template <class T>
class HostLevelOperator final : public LevelOperator<T, CsrMatrix<double>> {
 public:
  explicit HostLevelOperator(const CsrMatrix<double>& matrix)
      : matrix_(convert_values<T>(matrix)) {}
  void apply_scaled(T alpha, const T* x, T beta, T* y) const override {
    reference_spmv_scaled(matrix_, alpha, x, beta, y);  // y = alpha A x + beta y
  }
  index_t rows() const override { return matrix_.rows; }
  index_t cols() const override { return matrix_.cols; }
  std::string name() const override { return "cpu-csr"; }
  void update_values(const CsrMatrix<double>& matrix) override {
    for (std::size_t k = 0; k < matrix_.values.size(); ++k)
      matrix_.values[k] = static_cast<T>(matrix.values[k]);
  }

 private:
  CsrMatrix<T> matrix_;
};

template <class T>
LevelOperatorFactory<T, CsrMatrix<double>> host_level_operators() {
  LevelOperatorFactory<T, CsrMatrix<double>> factory;
  factory.formats_apply = false;
  factory.make = [](const CsrMatrix<double>& matrix, Format) {
    return std::unique_ptr<LevelOperator<T, CsrMatrix<double>>>(
        std::make_unique<HostLevelOperator<T>>(matrix));
  };
  return factory;
}

// Both precisions' host factories (the CPU path's AMG levels, single-process and
// distributed).
inline LevelOperatorFactories<CsrMatrix<double>> host_level_operator_factories() {
  return {host_level_operators<double>(), host_level_operators<float>()};
}

}  // namespace spk
