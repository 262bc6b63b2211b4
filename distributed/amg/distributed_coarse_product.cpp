#include "distributed/amg/distributed_coarse_product.hpp"

#include <utility>

#include "distributed/amg/distributed_galerkin.hpp"
#include "distributed/amg/distributed_transpose.hpp"
#include "distributed/fault_watch.hpp"

namespace spk {

DistributedCoarseProduct::DistributedCoarseProduct(FaultWatch& watch, const DistributedLevel& a,
                                                   const DistributedLevel& p,
                                                   DistributedLevel& coarse)
    : watch_(watch) {
  const MPI_Comm comm = watch_.comm();
  restriction_ =
      make_level(watch_, transpose_rows(comm, p.block, p.row_partition, p.column_partition),
                 p.column_partition, p.row_partition);
  coarse =
      make_level(watch_, galerkin_rows(comm, a.block, a.row_partition, p.block, p.column_partition),
                 p.column_partition, p.column_partition);
}

void DistributedCoarseProduct::compute(const DistributedLevel& a, const DistributedLevel& p,
                                       DistributedLevel& coarse) {
  const MPI_Comm comm = watch_.comm();
  set_level_values(restriction_,
                   transpose_rows(comm, p.block, p.row_partition, p.column_partition).values);
  set_level_values(
      coarse, galerkin_rows(comm, a.block, a.row_partition, p.block, p.column_partition).values);
}

}  // namespace spk
