#pragma once
// DeviceDistributedProlongator: the smoothed prolongator of a distributed AMG level on the GPU
// (Vanek, Mandel & Brezina 1996; distributed_prolongator.hpp is the host's form, which this
// equals entry for entry up to rounding),
//
//   P = (I - w / lambda_max(D^-1 A) D^-1 A) T,
//
// on this process's rows, with A = [A_local | A_halo] in the whole form (whole_rows.hpp).
// Aggregates never cross processes, so T is local (after agglomeration a process that gave its
// coarse rows away sees its columns as T's halo, which joins P's); A's halo columns reach the
// rows of T that other processes own. Those ghost rows are fetched once, GPU to GPU
// (fetch_rows_on_device: T does not change), numbered [own aggregates | the other processes'
// aggregates they name, ascending] on the device, and stacked under T's own rows:
//
//   T_ext = [T_own; T_ghost]        (rows: A's whole columns, own then halo slots)
//   P = T_own - (w / lambda) D^-1 (A_whole T_ext)
//
// which is the one-GPU smoothed prolongator (solver/amg/device_smoothed_prolongator.hpp: one
// cuSPARSE SpGEMM, its symbolic phase once, then a kernel per row) applied to A's whole rows
// and T_ext. P's columns come out in the whole form of the coarse partition: own aggregates,
// then the other processes' (P's halo). No entry is dropped, so a re-setup (new values of A)
// keeps P's pattern, and compute() is local.
#include <memory>
#include <string>

#include "distributed/amg/device_distributed_level.hpp"
#include "solver/amg/device_smoothed_prolongator.hpp"

namespace spk {

class NcclCommunicator;

class DeviceDistributedProlongator {
 public:
  // a: A_l; tentative: T_l (a's rows, the coarse partition's columns; a halo only after
  // agglomeration); nccl: the communicator of the setup's NCCL calls (on setup's stream), or
  // null (the ghost rows staged through the host over MPI). Collective.
  DeviceDistributedProlongator(FaultWatch& watch, const DeviceDistributedLevel& a,
                               DeviceDistributedLevel tentative, double weight,
                               const DeviceSetupContext& setup,
                               const NcclCommunicator* nccl = nullptr);

  // P's values for A's values, D^-1 (this process's rows) and lambda_max(D^-1 A) > 0. Local,
  // asynchronous on the setup's stream.
  void compute(const DeviceDistributedLevel& a, const DeviceBuffer<double>& inverse_diagonal,
               double lambda_max);

  const DeviceDistributedLevel& matrix() const {
    return weight_ == 0.0 ? tentative_ : prolongator_;
  }
  std::string algorithm() const { return smoothed_ ? smoothed_->algorithm() : "none"; }
  // Frees T_ext and A T's plan, keeping P (AmgResetup::rebuild); compute() is then an error.
  void release_resetup_state() {
    if (smoothed_) smoothed_->release_resetup_state();
  }

 private:
  double weight_;
  DeviceDistributedLevel tentative_;  // P = T (weight 0); else its arrays are T_ext's
  std::unique_ptr<DeviceSmoothedProlongator> smoothed_;
  DeviceDistributedLevel prolongator_;  // shows smoothed_'s P
};

}  // namespace spk
