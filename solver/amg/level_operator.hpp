#pragma once
// The seam between the AMG preconditioner (written once, on any vector space) and the place
// its level matrices live. Each solver hands the preconditioner a LevelOperatorFactory:
//   host (solver/amg/host_level_operator.hpp)    the CPU reference CSR product;
//   device (solver/amg/device_level_operator.hpp) an SpMV backend of spmv/registry.hpp in
//                                                  the level's format, on the solver's stream.
// The matrices (A_l, P_l, R_l, the coarsest inverse) are built on the host
// (solver/amg/hierarchy.hpp); update_values brings new host values of the same pattern.
#include <functional>
#include <memory>
#include <vector>

#include "spkrylov/options.hpp"
#include "spmv/host/csr_matrix.hpp"
#include "spmv/linear_operator.hpp"

namespace spk {

template <class T>
class LevelOperator : public LinearOperator<T> {
 public:
  // New values for the same pattern: nnz host values in the CSR order of the matrix the
  // operator was built from. Done when it returns (the host vector may go away).
  virtual void update_values(const std::vector<T>& values) = 0;
};

template <class T>
struct LevelOperatorFactory {
  // The operator of `matrix` (any shape: P and R are rectangular) in `format`; it keeps
  // what it needs, `matrix` may go away. Throws BadInput when the format refuses the matrix.
  std::function<std::unique_ptr<LevelOperator<T>>(const CsrMatrix<T>& matrix, Format format)> make;
  // The format of levels that AmgOptions::level_formats does not name: spmv.format.
  Format default_format = Format::csr;
  // Whether `make` heeds its format (false on the host, where every operator is cpu-csr).
  bool formats_apply = true;
};

}  // namespace spk
