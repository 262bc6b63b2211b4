#pragma once
// DeviceDistributedCoarseProduct: R_l = P_l^T and A_{l+1} = R_l A_l P_l of a distributed AMG
// level on the GPU, as PETSc's MatPtAP for MPIAIJ forms them (distributed_galerkin.hpp and
// distributed_transpose.hpp are the host's form; the patterns are the same, the values equal
// up to rounding). With A = [A_local | A_halo] and P in the whole form (whole_rows.hpp):
//
//   1. the ghost rows of P: the rows of P that A's halo columns name, fetched from their owners
//      (without a re-setup GPU to GPU, fetch_rows_on_device; with one through the host,
//      device_ghost_values.hpp, which keeps the plan that fetches their values again);
//   2. B = [P_own; P_ghost] on the device, its columns numbered [own aggregates | U], U the
//      other processes' aggregates that P or the ghost rows name, ascending (P's own rows
//      renumbered on the device, the ghost rows on the device or the host, then stacked);
//   3. R_local = P_own^T (in B's columns)      (device_transpose.hpp; before A B, so that its
//                                              sort's arrays are gone when A B is made)
//   4. A B = A_whole B                         (device_sparse_product.hpp: the row hash, or
//                                              cuSPARSE's SpGEMM)
//      P^T (A P) = R_local (A B)               (the same)
//      both have rows [own aggregates | U]: the first rows are this process's, the rows of U
//      belong to other processes;
//   5. the rows of U (few: the aggregates next to the partition's cuts) of R_local and of
//      R_local (A B) sent to their owners with global columns, where they are added to the
//      owner's own rows on the device (device_row_merge.hpp), giving R's and A_{l+1}'s rows in
//      the whole form: without a re-setup GPU to GPU (send_rows_to_owners_on_device, the pieces
//      summed on the device); with one downloaded, sent and summed on the host
//      (send_rows_to_owners), so that compute() sends the new values alone (row_exchange.hpp,
//      RowSumsPlan).
//
// Memory: B holds P's own rows a second time (P itself stays the prolongator of the cycle);
// the renumbered copy of P's rows is freed once B and R_local are built. Without a re-setup
// (keep_resetup_state false) B is freed after A B, and A B after R (A B).
//
// Every pattern is found once; compute() (a re-setup: new values of A and P, same patterns)
// fetches the ghost rows' values again (values only: device_ghost_values.hpp), refreshes B, reruns
// the transpose and the two products' numeric phases, and sends and adds the rows of U again. The
// ghost rows and the rows of U are the only data that cross to the host, and only when a re-setup
// is to follow.
#include <memory>
#include <string>
#include <vector>

#include "distributed/amg/device_distributed_level.hpp"
#include "distributed/amg/device_ghost_values.hpp"
#include "distributed/amg/device_row_merge.hpp"
#include "solver/amg/device_sparse_product.hpp"
#include "solver/amg/device_transpose.hpp"

namespace spk {

class NcclCommunicator;

class DeviceDistributedCoarseProduct {
 public:
  // a: A_l; p: P_l; coarse receives A_{l+1}. Collective. keep_resetup_state false (no re-setup
  // will follow: AmgResetup::rebuild): B and A B are freed as soon as they are used, and no plan
  // is made to move values again (P's ghost rows are fetched once and the rows of U sent once,
  // both GPU to GPU, with their values). nccl: the communicator of the
  // setup's NCCL calls (on setup's stream), or null (host-staged MPI).
  DeviceDistributedCoarseProduct(FaultWatch& watch, const DeviceDistributedLevel& a,
                                 const DeviceDistributedLevel& p, DeviceDistributedLevel& coarse,
                                 const DeviceSetupContext& setup, bool keep_resetup_state = true,
                                 const NcclCommunicator* nccl = nullptr);

  // R's and A_{l+1}'s values for new values of A and P (same patterns). Collective.
  void compute(const DeviceDistributedLevel& a, const DeviceDistributedLevel& p,
               DeviceDistributedLevel& coarse);

  const DeviceDistributedLevel& restriction() const { return restriction_; }
  std::string algorithms() const;
  // Frees everything but R (AmgResetup::rebuild): B, R_local, the products and their plans,
  // the ghost rows' plan, the merges' places and the rows of U. compute() is then an error.
  void release_resetup_state();

 private:
  // The ghost rows' new values, in B's order. Collective.
  std::vector<double> ghost_values(const DeviceDistributedLevel& p);
  // Rows of U of `product` (columns: first_column + c below own, union_[c - own] above; or
  // first_column + c for all when union_ is not used), sent to their owners. Collective.
  RowBlock<double> send_remote_rows(const DeviceCsrMatrix<double>& product, index_t own,
                                    global_index_t first_column, bool columns_in_union,
                                    const RowPartition& owners, global_index_t global_columns,
                                    RowSumsPlan<double>* plan);
  // A re-setup's send_remote_rows: the rows of U's new values to their owners by the kept plan
  // (values only), summed there; this process's received rows' values. Collective.
  std::vector<double> remote_sums(const DeviceCsrMatrix<double>& product, index_t own,
                                  const RowSumsPlan<double>& plan);
  // A view of product's first `rows` rows.
  DeviceCsr<double> own_rows(const DeviceCsrMatrix<double>& product, index_t rows) const;

  FaultWatch& watch_;
  const DeviceSetupContext& setup_;
  index_t own_coarse_ = 0;                           // P's own columns (this process's aggregates)
  std::vector<global_index_t> union_;                // U
  std::vector<index_t> ghost_order_;                 // ghost entry of each B entry below P's rows
  DeviceCsrMatrix<double> stacked_;                  // B
  DeviceCsrMatrix<double> transposed_;               // R_local
  DeviceCsrMatrix<double> product_ap_;               // A B
  DeviceCsrMatrix<double> product_rap_;              // R_local (A B)
  std::unique_ptr<DeviceGhostValues> ghost_values_;  // P's ghost rows: their values again
  std::unique_ptr<DeviceTranspose> transpose_;
  std::unique_ptr<DeviceSparseProduct> ap_, rap_;
  std::unique_ptr<DeviceRowMerge> coarse_merge_, restriction_merge_;
  RowSumsPlan<double> coarse_sums_, restriction_sums_;       // the rows of U again (re-setup)
  RowBlock<double> coarse_received_, restriction_received_;  // their pattern, the last values
  DeviceDistributedLevel restriction_;
  std::string released_algorithms_;  // algorithms() once the products are released
};

}  // namespace spk
