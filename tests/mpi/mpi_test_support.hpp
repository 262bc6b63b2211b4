#pragma once
// Helpers of the distributed tests (spk_tests_mpi): this process's rows of a whole matrix,
// sums over processes, and the single-process reference solve every process runs itself.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>
#include <string>
#include <vector>

#include "distributed/row_partition.hpp"
#include "spkrylov/distributed.hpp"
#include "spkrylov/solver.hpp"
#include "spmv/host/csr_matrix.hpp"
#include "spmv/host/row_block.hpp"

namespace spk::test {

inline int world_rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}
inline int world_size() {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

inline double sum_over_processes(double value) {
  double total = 0.0;
  MPI_Allreduce(&value, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return total;
}

// Every process's value, in rank order.
template <class T>
std::vector<T> gathered(T value) {
  std::vector<T> all(static_cast<std::size_t>(world_size()));
  MPI_Allgather(&value, sizeof(T), MPI_BYTE, all.data(), sizeof(T), MPI_BYTE, MPI_COMM_WORLD);
  return all;
}

inline RowPartition partition_of(const CsrMatrix<double>& whole, RowBalance balance) {
  return partition_rows(whole.rows, world_size(), balance,
                        [&](global_index_t row) { return whole.row_offsets[row]; });
}

inline RowBlock<double> my_rows(const CsrMatrix<double>& whole, const RowPartition& partition) {
  return rows_of(whole, partition.first_row(world_rank()), partition.end_row(world_rank()));
}

// This process's rows of `whole` (by rows), with a_ii = 0 in the last process's second row:
// the faulty row, global, in *bad_row.
inline RowBlock<double> rows_with_zero_pivot_on_last(const CsrMatrix<double>& whole,
                                                     global_index_t* bad_row) {
  const RowPartition partition = partition_of(whole, RowBalance::rows);
  RowBlock<double> rows = my_rows(whole, partition);
  const int last = world_size() - 1;
  *bad_row = partition.first_row(last) + 1;
  if (world_rank() == last)
    for (index_t k = rows.row_offsets[1]; k < rows.row_offsets[2]; ++k)
      if (rows.columns[k] == *bad_row) rows.values[k] = 0.0;
  return rows;
}

// This process's part of a whole vector.
template <class T>
std::vector<T> my_part(const std::vector<T>& whole, const RowPartition& partition) {
  return std::vector<T>(whole.begin() + partition.first_row(world_rank()),
                        whole.begin() + partition.end_row(world_rank()));
}

// ||x_local - reference_local|| / ||reference|| over every process.
inline double distributed_relative_error(const std::vector<double>& x,
                                         const std::vector<double>& reference) {
  double diff = 0.0, norm = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    diff += (x[i] - reference[i]) * (x[i] - reference[i]);
    norm += reference[i] * reference[i];
  }
  return std::sqrt(sum_over_processes(diff) / sum_over_processes(norm));
}

// Runs `call` on every process and returns the message of the E it threw (every process must
// throw E: an agreed error).
template <class E, class Call>
std::string error_on_every_process(Call&& call) {
  std::string message;
  try {
    call();
    ADD_FAILURE() << "no error";
  } catch (const E& error) {
    message = error.what();
  }
  EXPECT_FALSE(message.empty());
  return message;
}

}  // namespace spk::test
