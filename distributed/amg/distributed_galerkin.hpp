#pragma once
// The Galerkin coarse operator of a distributed AMG level, A_c = P^T A P, as PETSc's MatPtAP
// for MPIAIJ forms it (the one-process form: solver/amg/galerkin_product.hpp). Each process
// holds its rows of A (fine partition, global columns) and of P (fine rows, global coarse
// columns) and gets its rows of A_c (coarse partition):
//
//   1. the ghost rows of P: the rows k of P that A's off-process columns name (A's halo
//      columns, local_halo_split.hpp), fetched from their owners (row_exchange.hpp);
//   2. (A P)_i = sum_k a_ik P_k for the own fine rows i, local: Gustavson's row product
//      (solver/amg/sparse_product.hpp) of A's rows (own columns, then halo slots) with P's own
//      rows stacked over the ghost rows, P's coarse columns renumbered densely;
//   3. P^T (A P) = sum_i P_i^T (A P)_i over the own fine rows i, local: the transpose of P's
//      own rows times A P, contributing to coarse rows owned anywhere;
//   4. the coarse rows owned elsewhere sent to their owners and added there to theirs
//      (send_rows_to_owners), columns sorted, pieces summed in rank order.
//
// Patterns are structural: no entry is dropped, so explicit zeros (entries that cancel) stay
// and A_c's pattern is the one-process product's. A re-setup (new values of A and P, same
// patterns) simply calls galerkin_rows again: the result has the same pattern in the same
// order, so its values can replace the old ones (DistributedCoarseProduct::compute). Rows in
// parallel (OpenMP); each entry's sum runs in a fixed order, for any thread count.
#include <mpi.h>

#include "distributed/row_partition.hpp"
#include "spmv/host/row_block.hpp"

namespace spk {

// a: this process's rows of A by `fine` (global columns in [0, fine.global_rows())); p: its
// rows of P by `fine` (global columns in [0, coarse.global_rows())). Returns this process's
// rows of P^T A P by `coarse` (global_rows = coarse.global_rows(), columns sorted per row).
// Collective. BadInput (on every process) for a block that is not this process's or a column
// out of range.
RowBlock<double> galerkin_rows(MPI_Comm comm, const RowBlock<double>& a, const RowPartition& fine,
                               const RowBlock<double>& p, const RowPartition& coarse);

}  // namespace spk
