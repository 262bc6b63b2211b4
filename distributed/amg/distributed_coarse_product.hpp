#pragma once
// DistributedCoarseProduct: R_l = P_l^T and A_{l+1} = R_l A_l P_l of a distributed AMG level,
// as the hierarchy's Galerkin step (solver/amg/hierarchy.hpp, step 7) over processes: the
// transpose and the product of distributed_transpose.hpp and distributed_galerkin.hpp (ghost
// rows of P fetched, A P and P^T (A P) local, the rows owned elsewhere sent to their owners
// and added there: PETSc's MatPtAP for MPIAIJ). No entry is dropped, so re-setup gives the
// same patterns and only the values change.
#include <string>

#include "distributed/amg/distributed_level.hpp"

namespace spk {

class DistributedCoarseProduct {
 public:
  // a: A_l; p: P_l; coarse receives A_{l+1}. Collective.
  DistributedCoarseProduct(FaultWatch& watch, const DistributedLevel& a, const DistributedLevel& p,
                           DistributedLevel& coarse);

  // R's and A_{l+1}'s values for new values of A and P (same patterns). Collective.
  void compute(const DistributedLevel& a, const DistributedLevel& p, DistributedLevel& coarse);

  const DistributedLevel& restriction() const { return restriction_; }
  static std::string algorithms() {
    return "host, distributed (ghost rows of P fetched, rows in parallel, coarse rows sent to "
           "their owners)";
  }

 private:
  FaultWatch& watch_;
  DistributedLevel restriction_;
};

}  // namespace spk
