#pragma once
// The smoothed prolongator on the GPU (the device counterpart of
// solver/amg/smoothed_prolongator.hpp): P = (I - (omega / lambda) D^-1 A) T, its pattern that
// of A T, found once by a cuSPARSE SpGEMM (solver/amg/device_sparse_product.hpp, the same
// memory fallbacks), with the position of T's entry in each row of P found once by a binary
// search (a thread per row). compute() refreshes the values: the product's numeric phase, then
// each row scaled and T added with the host's per-row rule (solver/amg/prolongator_rules.hpp).
// omega = 0 gives P = T.
#include <memory>

#include "solver/amg/device_sparse_product.hpp"

namespace spk {

class DeviceSmoothedProlongator {
 public:
  // The pattern of P for `a` (square, every a_ii stored; a must stay where it is) and
  // `tentative`. Throws Error if a row of A T lacks T's entry (a_ii not stored).
  DeviceSmoothedProlongator(const DeviceCsrMatrix<double>& a, DeviceCsrMatrix<double> tentative,
                            double weight, const DeviceSetupContext& context);
  DeviceSmoothedProlongator(const DeviceSmoothedProlongator&) = delete;
  DeviceSmoothedProlongator& operator=(const DeviceSmoothedProlongator&) = delete;

  // P's values for A's values (same matrix), D^-1 (rows(A) entries) and lambda_max(D^-1 A) > 0.
  // Asynchronous on the context's stream.
  void compute(const DeviceCsrMatrix<double>& a, const DeviceBuffer<double>& inverse_diagonal,
               double lambda_max);

  const DeviceCsrMatrix<double>& matrix() const {
    return weight_ == 0.0 ? tentative_ : prolongator_;
  }
  const DeviceCsrMatrix<double>& tentative() const { return tentative_; }
  // The SpGEMM algorithm of A T ("none" for omega = 0).
  std::string algorithm() const {
    return product_ ? product_->algorithm() : released_ ? released_algorithm_ : "none";
  }
  // Frees T, A T's plan and T's places in P, keeping P (AmgResetup::rebuild); compute() is
  // then an error. Nothing to free for omega = 0 (P is T).
  void release_resetup_state();

 private:
  const DeviceSetupContext& context_;
  DeviceCsrMatrix<double> tentative_;
  double weight_;
  DeviceCsrMatrix<double> prolongator_;           // pattern of A T (empty when weight_ == 0)
  std::unique_ptr<DeviceSparseProduct> product_;  // A T
  bool product_fresh_ = false;                    // the constructor's A T is still current
  DeviceBuffer<index_t> tentative_position_;      // per entry of T: where it sits in P
  bool released_ = false;
  std::string released_algorithm_;
};

}  // namespace spk
