#pragma once
// The seam between the AMG preconditioner (written once, on any vector space) and the place
// its level matrices live. Each solver hands the preconditioner a LevelOperatorFactory:
//   host (solver/amg/host_level_operator.hpp)    the CPU reference CSR product;
//   device (solver/amg/device_level_operator.hpp) an SpMV backend of spmv/registry.hpp in
//                                                  the level's format, on the solver's stream.
// The matrices (A_l, P_l, R_l, the coarsest inverse) are the hierarchy's, in double, where its
// Build keeps them (solver/amg/amg_build.hpp: Matrix is a host CsrMatrix<double> on the CPU
// path, a DeviceCsrMatrix<double> on the GPU path); each operator converts them to the solver's T.
// update_values reads new values of the same matrix from where it lives (no host copy on the
// GPU).
#include <functional>
#include <memory>
#include <type_traits>

#include "spkrylov/options.hpp"
#include "spmv/host/csr_matrix.hpp"
#include "spmv/linear_operator.hpp"

namespace spk {

template <class T, class Matrix>
class LevelOperator : public LinearOperator<T> {
 public:
  // New values of the matrix the operator was built from (the same pattern). Ordered before
  // any later apply (asynchronous on the GPU); `matrix` must keep its values until then.
  virtual void update_values(const Matrix& matrix) = 0;
};

template <class T, class Matrix>
struct LevelOperatorFactory {
  // The operator of `matrix` (any shape: P and R are rectangular) in `format`; it keeps
  // what it needs, `matrix` may go away. Throws BadInput when the format refuses the matrix.
  std::function<std::unique_ptr<LevelOperator<T, Matrix>>(const Matrix& matrix, Format format)>
      make;
  // The format of levels that AmgOptions::level_formats does not name: spmv.format.
  Format default_format = Format::csr;
  // Whether `make` heeds its format (false on the host, where every operator is cpu-csr).
  bool formats_apply = true;
};

// A solver's factories in both precisions: an fp64 solver's mixed-precision cycle
// (AmgOptions::precision single) builds its level operators in fp32.
template <class Matrix>
struct LevelOperatorFactories {
  LevelOperatorFactory<double, Matrix> fp64;
  LevelOperatorFactory<float, Matrix> fp32;
  template <class T>
  const LevelOperatorFactory<T, Matrix>& of() const {
    if constexpr (std::is_same_v<T, float>)
      return fp32;
    else
      return fp64;
  }
};

}  // namespace spk
