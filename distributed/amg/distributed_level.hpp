#pragma once
// DistributedLevel: one matrix of the distributed AMG hierarchy (A_l, P_l, R_l, A_c^-1) as
// this process holds it: its rows of a global_rows x global_cols matrix, in the two forms the
// setup reads:
//
//   block   the rows with global column ids (the distributed products read these:
//           row_exchange.hpp, distributed_galerkin.hpp, distributed_prolongator.hpp);
//   split   the same rows split into the local block (the columns this process owns, by the
//           column partition) and the halo block (local_halo_split.hpp). split.pattern is the
//           whole rows (own columns, then halo slots), which D^-1 and the Gershgorin bound
//           read and the level operators are built from.
//
// Rows follow row_partition, columns column_partition (the same one for A_l; P_l's columns
// are the coarse level's rows, R_l's the fine level's). The global nonzero count is summed
// once, when the level is made, so that every decision taken from it is the same on every
// process.
#include <mpi.h>

#include <vector>

#include "distributed/local_halo_split.hpp"
#include "distributed/row_partition.hpp"
#include "solver/amg/amg_build.hpp"
#include "spmv/host/row_block.hpp"

namespace spk {

class FaultWatch;

struct DistributedLevel {
  RowPartition row_partition, column_partition;
  RowBlock<double> block;
  SplitRows<double> split;
  index_t rows = 0;  // this process's rows
  index_t cols = 0;  // the columns it owns (the local block's)
  global_index_t global_nnz = 0;

  global_index_t global_rows() const { return row_partition.global_rows(); }
  global_index_t global_cols() const { return column_partition.global_rows(); }
};

// The partition whose block p has `mine` rows on process p (collective: one allgather).
RowPartition gather_partition(FaultWatch& watch, global_index_t mine);

// Rows of equal width (values row-major: a level's coarse near-null-space candidates) moved
// from the processes of `from` to those of `to`, the same global rows (agglomeration, on
// either path). Collective.
std::vector<double> moved_rows(FaultWatch& watch, const std::vector<double>& values,
                               const RowPartition& from, const RowPartition& to);

// The fewest and most rows of a process, and how many processes hold any, for a level whose
// rows on this process are `mine` (collective: two allreduces).
ProcessRows spread_over_processes(FaultWatch& watch, index_t mine);

// The level of `block` (this process's rows by `rows`, global column ids in `columns`'
// range). Collective (the global nonzero count).
DistributedLevel make_level(FaultWatch& watch, RowBlock<double> block, RowPartition rows,
                            RowPartition columns);

// New values of the same pattern, in the block's order: into the block and the split.
void set_level_values(DistributedLevel& level, const std::vector<double>& values);

// Every process's rows (`mine`: this process's, global columns), in rank order, on every
// process: the whole rows x cols matrix (the distributed AMG's coarsest level, for its dense
// factorization). Collective: MPI_Allgatherv of the row lengths, columns and values. BadInput
// (on every process) past 2^20 rows or 2^31 - 1 entries.
CsrMatrix<double> gather_rows_everywhere(FaultWatch& watch, const RowBlock<double>& mine,
                                         global_index_t rows, global_index_t cols);

// A host CsrMatrix with this process's first_column as column 0, columns offset to global ids:
// the rows [first_row, first_row + local.rows) of a matrix of global_rows rows.
RowBlock<double> to_global_rows(const CsrMatrix<double>& local, global_index_t first_row,
                                global_index_t global_rows, global_index_t first_column);

}  // namespace spk
