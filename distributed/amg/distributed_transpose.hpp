#pragma once
// The transpose of a distributed matrix M (rows split by `rows`, columns by `columns`): this
// process's rows of M^T, the block of `columns`, with the global row ids of M as columns. The
// product restriction R = P^T of the distributed AMG setup.
//
// Each process transposes its own rows locally (the counting sort of
// solver/amg/sparse_product.hpp, over M's distinct columns renumbered 0..c-1): row j of the
// result holds the entries (i, j) of its rows i. The rows j owned elsewhere go to their owners
// (row_exchange.hpp: send_rows_to_owners), where the pieces of row j from all processes are
// merged by column. No entry is dropped (explicit zeros stay), so the pattern depends on M's
// pattern only: a re-setup with new values gives the same pattern.
#include <mpi.h>

#include "distributed/row_partition.hpp"
#include "spmv/host/row_block.hpp"

namespace spk {

// m: this process's rows of M by `rows` (global columns in [0, columns.global_rows())).
// Returns this process's rows of M^T by `columns` (global_rows = columns.global_rows(),
// columns sorted per row). Collective. BadInput (on every process) for a block that is not
// this process's or a column out of range.
RowBlock<double> transpose_rows(MPI_Comm comm, const RowBlock<double>& m, const RowPartition& rows,
                                const RowPartition& columns);

}  // namespace spk
