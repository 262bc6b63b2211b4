#pragma once
// The AMG level operators of the CPU path (solver/amg/level_operator.hpp): a host CSR copy
// and the reference SpMV. Every format is "cpu-csr" here; level_formats applies on the GPU.
#include <algorithm>
#include <memory>
#include <vector>

#include "solver/amg/level_operator.hpp"
#include "spmv/host/reference_spmv.hpp"

namespace spk {

template <class T>
class HostLevelOperator final : public LevelOperator<T> {
 public:
  explicit HostLevelOperator(CsrMatrix<T> matrix) : matrix_(std::move(matrix)) {}
  void apply_scaled(T alpha, const T* x, T beta, T* y) const override {
    reference_spmv_scaled(matrix_, alpha, x, beta, y);  // y = alpha A x + beta y
  }
  index_t rows() const override { return matrix_.rows; }
  index_t cols() const override { return matrix_.cols; }
  std::string name() const override { return "cpu-csr"; }
  void update_values(const std::vector<T>& values) override {
    std::copy(values.begin(), values.end(), matrix_.values.begin());
  }

 private:
  CsrMatrix<T> matrix_;
};

template <class T>
LevelOperatorFactory<T> host_level_operators() {
  LevelOperatorFactory<T> factory;
  factory.formats_apply = false;
  factory.make = [](const CsrMatrix<T>& matrix, Format) {
    return std::unique_ptr<LevelOperator<T>>(std::make_unique<HostLevelOperator<T>>(matrix));
  };
  return factory;
}

}  // namespace spk
