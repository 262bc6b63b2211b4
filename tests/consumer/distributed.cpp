#include <mpi.h>

#include <algorithm>
#include <iostream>
#include <spkrylov/distributed.hpp>
#include <vector>
int main(int argc, char** argv) {  // CG on tridiag(-1, 2, -1), 1000 rows per rank
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  using spk::global_index_t;  // 64-bit global row and column numbers
  const int rows = 1000;
  const global_index_t first = global_index_t{rows} * rank, n = global_index_t{rows} * size;
  std::vector<int> offsets{0};
  std::vector<global_index_t> columns;
  std::vector<double> values, b(rows, 1.0), x(rows, 0.0);
  for (global_index_t i = first; i < first + rows; offsets.push_back(int(columns.size())), ++i)
    for (global_index_t j = std::max<global_index_t>(i - 1, 0); j <= std::min(i + 1, n - 1); ++j)
      columns.push_back(j), values.push_back(i == j ? 2.0 : -1.0);
  int code = 1;
  {
    spk::DistributedSolver<double> solver(
        MPI_COMM_WORLD, {rows, offsets.data(), columns.data(), values.data()}, spk::Options{});
    const spk::SolveResult result = solver.solve(b, x);  // the same result on every rank
    if (rank == 0) std::cout << result.message << "\n";
    code = result.converged() ? 0 : 2;
  }
  MPI_Finalize();
  return code;
}
