#pragma once
// Rows of a distributed matrix moved between processes: the two exchanges the distributed AMG
// setup is built from (PETSc's MatPtAP for MPIAIJ fetches the rows of P that A's off-process
// columns name, and sends the coarse rows it computed for other processes to their owners).
//
//   fetch_rows            the rows a process names, from their owners: it tells each owner the
//                         distinct rows it wants (MPI_Alltoall of counts, MPI_Alltoallv of the
//                         ids), the owners answer with those rows (their lengths, columns and
//                         values: MPI_Alltoallv each), and the answer is copied out in the
//                         order asked for (duplicates included).
//   send_rows_to_owners   rows a process computed for rows owned anywhere (a transpose's or
//                         P^T (A P)'s contributions) go to their owners (the same exchange),
//                         where each owned row gathers its pieces in (source rank, order sent),
//                         sorts them by column (stably) and sums equal columns in that order:
//                         the result does not depend on the thread count.
//
// Rows are matrices' rows with global 64-bit column ids; nothing is assumed of the columns
// beyond their range. Counts and displacements in MPI calls are int: a process that would
// send or receive more than 2^31 - 1 ids or entries refuses with BadInput. Every check is
// agreed on (agreed_errors.hpp): a bad argument on one process makes every process throw the
// same error, nobody is left in a collective call.
#include <mpi.h>

#include <functional>
#include <vector>

#include "distributed/row_partition.hpp"
#include "spmv/host/row_block.hpp"

namespace spk {

// Rows of a distributed matrix fetched from their owners (fetch_rows), in the order asked for:
// row r of the answer holds entries [row_offsets[r], row_offsets[r + 1]).
template <class T>
struct FetchedRows {
  std::vector<index_t> row_offsets{0};
  std::vector<global_index_t> columns;
  std::vector<T> values;
};

// Rows by global id, in any order, a row id possibly several times: row r is global row ids[r]
// with entries [row_offsets[r], row_offsets[r + 1]) (global columns, any order, repeats
// allowed).
template <class T>
struct GlobalRows {
  std::vector<global_index_t> ids;
  std::vector<index_t> row_offsets{0};
  std::vector<global_index_t> columns;
  std::vector<T> values;
};

// The rows `wanted` (global ids in [0, rows.global_rows()); own rows, repeats and none
// allowed) of the matrix whose rows are split by `rows`, each process holding its block as
// `mine` (global column ids). Collective: every process of comm calls it. BadInput (on every
// process) when `mine` is not this process's block of `rows`, an id is out of range, or a count
// passes 2^31 - 1.
template <class T>
FetchedRows<T> fetch_rows(MPI_Comm comm, const RowBlock<T>& mine, const RowPartition& rows,
                          const std::vector<global_index_t>& wanted);

// The rows other processes asked of this one (ids it owns, grouped by the asking process in
// rank order, each group ascending; an id may recur in several groups), answered in that
// order: row r of the answer is row asked[r]. Runs on every process, inside an agreed step.
template <class T>
using RowAnswer = std::function<FetchedRows<T>(const std::vector<global_index_t>& asked)>;

// fetch_rows where the owners' rows are not host arrays (the GPU path's distributed AMG setup
// reads them from the device, only those asked): `answer` gives them. Collective; BadInput (on
// every process) for an id out of range or an answer of the wrong shape, and whatever
// `answer` throws on one process, on every process.
template <class T>
FetchedRows<T> fetch_rows(MPI_Comm comm, const RowPartition& rows,
                          const std::vector<global_index_t>& wanted, const RowAnswer<T>& answer);

// Each process's contributions (rows owned anywhere by `rows`, global columns in
// [0, global_columns)) summed on the rows' owners: returns this process's rows of the sum
// (the block of `rows`, every owned row present, maybe empty; columns sorted and unique,
// entries that cancel or were sent as zeros kept). Collective. BadInput (on every process)
// when a row id or column is out of range or a count passes 2^31 - 1.
template <class T>
class RowSumsPlan;

template <class T>
RowBlock<T> send_rows_to_owners(MPI_Comm comm, const RowPartition& rows,
                                global_index_t global_columns, const GlobalRows<T>& contributions,
                                RowSumsPlan<T>* plan = nullptr);

// send_rows_to_owners again for new values of the same contributions (the same ids, lengths
// and columns, in the same order), kept by the first call when it is given one: each process's
// values travel to the owners alone (one MPI_Alltoallv, counts known), and each owner adds them
// into its rows' entries as send_rows_to_owners did: the same sums in the same order, so the
// values are the same bit for bit. A re-setup's exchange of the GPU path's distributed Galerkin
// product (device_distributed_coarse_product.hpp).
template <class T>
class RowSumsPlan {
 public:
  // values: the contributions' values, in their order. Returns this process's rows' values in
  // the RowBlock's order. Collective.
  std::vector<T> sum(MPI_Comm comm, const std::vector<T>& values) const;

  // Filled by send_rows_to_owners.
  std::size_t contribution_entries = 0;
  std::vector<std::int64_t> send_order;  // send buffer slot -> contribution entry
  std::vector<int> send_counts, send_displacements, receive_counts, receive_displacements;
  // The terms of the sums in their order: those received from lower ranks, this process's
  // own contributions, those from higher ranks; each a source (received entry, or
  // contribution entry for the own ones) and a target (an entry of the rows).
  std::vector<std::int64_t> received_targets;  // received entry k -> target
  std::vector<std::int64_t> own_sources, own_targets;
  std::int64_t received_below = 0;  // received entries from lower ranks
  std::size_t row_entries = 0;
};

}  // namespace spk
