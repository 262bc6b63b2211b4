#include "distributed/amg/distributed_transpose.hpp"

#include <string>

#include "distributed/agreed_errors.hpp"
#include "distributed/amg/local_rows.hpp"
#include "distributed/amg/row_exchange.hpp"
#include "distributed/mpi_check.hpp"
#include "solver/amg/sparse_product.hpp"

namespace spk {

RowBlock<double> transpose_rows(MPI_Comm comm, const RowBlock<double>& m, const RowPartition& rows,
                                const RowPartition& columns) {
  int rank = 0, processes = 1;
  SPK_MPI_CHECK(MPI_Comm_rank(comm, &rank));
  SPK_MPI_CHECK(MPI_Comm_size(comm, &processes));
  GlobalRows<double> pieces;
  on_every_process(comm, [&] {
    check_rows_block(m, rows, rank, processes, columns.global_rows(), "transpose_rows");
    // M's own rows with their distinct columns numbered 0..c-1 (ascending), transposed: row c
    // holds the entries (i, column_ids[c]) of the local rows i, i ascending.
    const CompressedRows local = compress_columns(m);
    const CsrMatrix<double> t = transpose(local.matrix, nullptr);
    pieces.ids = local.column_ids;
    pieces.row_offsets = t.row_offsets;
    pieces.columns.resize(t.columns.size());
    for (std::size_t k = 0; k < t.columns.size(); ++k)
      pieces.columns[k] = m.first_row + t.columns[k];
    pieces.values = t.values;
  });
  return send_rows_to_owners(comm, columns, rows.global_rows(), pieces);
}

}  // namespace spk
