#pragma once
// DistributedOperator<T>: y = A x for this process's rows of a distributed matrix, from its
// local block, its halo block and the halo exchange (distributed/local_halo_split.hpp), with
// the exchange overlapped by the local product, as PETSc's MatMult_MPIAIJ does:
//
//   start the exchange (post receives, pack and send the entries neighbours need)
//   y = alpha A_local x + beta y          while the halo travels
//   wait for the halo
//   y = alpha A_halo x_halo + y           (the accumulating apply, beta = 1)
//
// Without overlap (to measure what it hides) the exchange finishes before the local product.
// y is this process's rows, x its block of the column partition (cols(), the local block's
// columns): for a square matrix both are its rows, so the Krylov methods see a square
// operator. The blocks are any LinearOperator in the exchange's memory: the CPU reference CSR,
// or any SpMV backend on the GPU (with the exchange on the backend's stream).
// Each apply is collective: every process of the communicator must call it.
#include <string>

#include "distributed/fault_injection.hpp"
#include "distributed/halo_plan.hpp"
#include "spmv/linear_operator.hpp"

namespace spk {

template <class T>
class DistributedOperator final : public LinearOperator<T> {
 public:
  // local: rows x rows; halo: rows x halo size. All three must outlive the operator.
  DistributedOperator(const LinearOperator<T>& local, const LinearOperator<T>& halo,
                      HaloExchange<T>& exchange, bool halo_has_entries, bool overlap = true)
      : local_(local),
        halo_(halo),
        exchange_(exchange),
        halo_has_entries_(halo_has_entries),
        overlap_(overlap) {}

  void apply_scaled(T alpha, const T* x, T beta, T* y) const override {
    fault_point(FaultPoint::halo_exchange);  // a test's failure (fault_injection.hpp)
    exchange_.start(x);                      // x's entries -> neighbours
    const T* x_halo = overlap_ ? nullptr : exchange_.finish();
    exchange_.before_local();
    local_.apply_scaled(alpha, x, beta, y);  // y = alpha A_local x + beta y
    exchange_.after_local();
    if (overlap_) x_halo = exchange_.finish();                          // neighbours' entries of x
    if (halo_has_entries_) halo_.apply_scaled(alpha, x_halo, T(1), y);  // y += alpha A_halo x_halo
  }

  bool overlap() const { return overlap_; }

  index_t rows() const override { return local_.rows(); }
  index_t cols() const override { return local_.cols(); }  // its columns: rows if square
  std::string name() const override { return local_.name() + " local + halo"; }

 private:
  const LinearOperator<T>& local_;
  const LinearOperator<T>& halo_;
  HaloExchange<T>& exchange_;
  bool halo_has_entries_;
  bool overlap_;
};

}  // namespace spk
