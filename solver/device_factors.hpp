#pragma once
// DeviceFactors<T>: IC(0)/ILU(0) factors on the GPU (solver/incomplete_factorization.hpp).
// factor(): one gather of the values into the factor's sorted storage (then the diagonal
// shift, when there is one), a kernel per level of the pattern (a thread per row, solver/
// factor_rows.hpp; replaced pivots counted by atomicAdd), for IC(0) a mirror of L into the
// upper triangle; then cusparseSpSV's analysis the first time and cusparseSpSV_updateMatrix
// after. solve(): two cusparseSpSV solves on the same CSR storage, the lower triangle (unit
// diagonal for ILU(0)) then the upper one. Everything runs on the space's stream; nothing
// synchronizes.
#include <cusparse.h>

#include <cstdint>
#include <vector>

#include "core/cusparse_objects.hpp"
#include "core/device_buffer.hpp"
#include "solver/device_space.hpp"
#include "solver/factor_pattern.hpp"
#include "solver/incomplete_factorization.hpp"

namespace spk {

struct CusparseSpSVDestroyer {
  void operator()(cusparseSpSVDescr_t descriptor) const {
    (void)cusparseSpSV_destroyDescr(descriptor);
  }
};
using CusparseSpSVPtr =
    std::unique_ptr<std::remove_pointer_t<cusparseSpSVDescr_t>, CusparseSpSVDestroyer>;

template <class T>
class DeviceFactors {
 public:
  DeviceFactors(DeviceSpace<T>& space, const FactorPattern& pattern);

  // status: factor_status::words in device memory (solver/factor_pattern.hpp).
  void factor(const T* csr_values, const FactorRequest& request, std::uint64_t* status);
  void solve(const T* r, T* z);
  std::size_t bytes() const;
  // The factor values in the pattern's sorted storage (device): for tests.
  const T* values() const { return values_.data(); }

 private:
  // One triangle's cuSPARSE objects: matrix descriptor, SpSV descriptor and buffer.
  struct Triangle {
    CusparseSpMatPtr matrix;
    CusparseSpSVPtr solve;
    DeviceBuffer<unsigned char> buffer;
  };
  Triangle make_triangle(cusparseFillMode_t fill, cusparseDiagType_t diag);
  void solve_triangle(Triangle& triangle, const T* x, T* y);

  DeviceSpace<T>& space_;
  FactorKind kind_;
  index_t rows_;
  std::vector<index_t> level_offsets_;  // on the host: one launch per level
  DeviceBuffer<index_t> row_offsets_, columns_, csr_position_, diagonal_;
  DeviceBuffer<index_t> mirror_lower_, mirror_upper_, level_rows_;
  DeviceBuffer<T> values_, forward_;
  CusparseHandlePtr handle_;
  CusparseDnVecPtr x_, y_;
  Triangle lower_, upper_;
  bool analysed_ = false;
};

template <class T>
struct FactorsOf<DeviceSpace<T>> {
  using type = DeviceFactors<T>;
};

}  // namespace spk
