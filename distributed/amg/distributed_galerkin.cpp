#include "distributed/amg/distributed_galerkin.hpp"

#include <algorithm>
#include <string>

#include "core/host_parallel.hpp"
#include "distributed/agreed_errors.hpp"
#include "distributed/amg/local_rows.hpp"
#include "distributed/amg/row_exchange.hpp"
#include "distributed/local_halo_split.hpp"
#include "distributed/mpi_check.hpp"
#include "solver/amg/sparse_product.hpp"

namespace spk {

RowBlock<double> galerkin_rows(MPI_Comm comm, const RowBlock<double>& a, const RowPartition& fine,
                               const RowBlock<double>& p, const RowPartition& coarse) {
  int rank = 0, processes = 1;
  SPK_MPI_CHECK(MPI_Comm_rank(comm, &rank));
  SPK_MPI_CHECK(MPI_Comm_size(comm, &processes));

  // A's rows as own columns then halo slots (split.pattern), and its halo columns.
  SplitRows<double> split;
  on_every_process(comm, [&] {
    check_rows_block(a, fine, rank, processes, fine.global_rows(), "galerkin_rows (A)");
    check_rows_block(p, fine, rank, processes, coarse.global_rows(), "galerkin_rows (P)");
    split = split_local_and_halo(a, fine, fine, rank);
  });

  // 1. The ghost rows of P, in halo slot order.
  const FetchedRows<double> ghost = fetch_rows(comm, p, fine, split.halo_columns);

  GlobalRows<double> pieces;
  on_every_process(comm, [&] {
    // B = [P's own rows; the ghost rows], its coarse columns renumbered 0..c-1 (ascending).
    const index_t own = p.rows;
    const auto halo = static_cast<index_t>(split.halo_columns.size());
    std::vector<index_t> offsets(p.row_offsets);
    offsets.reserve(offsets.size() + static_cast<std::size_t>(halo));
    check_index_range(static_cast<std::int64_t>(p.nnz()) + ghost.row_offsets.back(),
                      "entries of P's own and ghost rows on one process");
    for (index_t slot = 0; slot < halo; ++slot)
      offsets.push_back(p.nnz() + ghost.row_offsets[slot + 1]);
    std::vector<global_index_t> columns(p.columns);
    columns.insert(columns.end(), ghost.columns.begin(), ghost.columns.end());
    std::vector<double> values(p.values);
    values.insert(values.end(), ghost.values.begin(), ghost.values.end());
    const CompressedRows b =
        compress_columns(own + halo, offsets.data(), columns.data(), values.data());

    // 2. A P on the own fine rows: (A P)_i = sum_k a_ik B_k.
    CsrMatrix<double> ap = product_pattern(split.pattern, b.matrix);
    product_values(split.pattern, b.matrix, ap);

    // 3. P^T (A P) = sum_i (P_i)^T (A P)_i: P's own rows (B's first rows) transposed, times A P.
    CsrMatrix<double> p_own;
    p_own.rows = own;
    p_own.cols = b.matrix.cols;
    p_own.row_offsets.assign(b.matrix.row_offsets.begin(), b.matrix.row_offsets.begin() + own + 1);
    p_own.columns.assign(b.matrix.columns.begin(), b.matrix.columns.begin() + p.nnz());
    p_own.values.assign(b.matrix.values.begin(), b.matrix.values.begin() + p.nnz());
    const CsrMatrix<double> r = transpose(p_own, nullptr);
    CsrMatrix<double> c = product_pattern(r, ap);
    product_values(r, ap, c);

    // The non-empty rows of P^T A P (coarse rows owned anywhere), with global ids.
    for (index_t row = 0; row < c.rows; ++row)
      if (c.row_offsets[row + 1] > c.row_offsets[row])
        pieces.ids.push_back(b.column_ids[static_cast<std::size_t>(row)]);
    pieces.row_offsets.reserve(pieces.ids.size() + 1);
    for (index_t row = 0; row < c.rows; ++row)
      if (c.row_offsets[row + 1] > c.row_offsets[row])
        pieces.row_offsets.push_back(c.row_offsets[row + 1]);
    pieces.columns.resize(c.columns.size());
#pragma omp parallel for schedule(static) if (c.nnz() >= host_parallel_from)
    for (index_t k = 0; k < c.nnz(); ++k)
      pieces.columns[k] = b.column_ids[static_cast<std::size_t>(c.columns[k])];
    pieces.values = std::move(c.values);
  });

  // 4. Every coarse row summed on its owner.
  return send_rows_to_owners(comm, coarse, coarse.global_rows(), pieces);
}

}  // namespace spk
