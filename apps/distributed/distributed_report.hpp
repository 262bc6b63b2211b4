#pragma once
// The figures of the report of `mpirun -np N spkrylov solve` that need every process: the
// matrix statistics combined over the processes' rows, each process's share and communication
// times collected at rank 0, sums over processes, and x collected at rank 0 for
// output.solution (rank 0 then holds the whole x: 8 bytes per row).
#include <vector>

#include "distributed/communicator.hpp"
#include "distributed/row_partition.hpp"
#include "frontend/run_report.hpp"
#include "spmv/host/matrix_stats.hpp"
#include "spmv/host/row_block.hpp"

namespace spk::app {

// The statistics of the whole matrix from every process's rows (collective). The symmetry is
// not checked (false; the report says so); counts beyond 32 bits saturate.
MatrixStats combined_matrix_stats(const Communicator& communicator, const RowBlock<double>& rows);
// The same from each process's own statistics (compute_block_stats's: first_zero_diagonal_row
// local) and its first row.
MatrixStats combined_matrix_stats(const Communicator& communicator, const MatrixStats& mine,
                                  global_index_t first_row);

// Every process's info, times and setup, in rank order, at rank 0 (empty elsewhere).
// Collective.
DistributedRun gather_distributed_run(const Communicator& communicator, const ProcessInfo& info,
                                      const CommunicationTimes& times, const ProcessSetup& setup);

// The sum over processes in rank order: the same on every process. Collective.
double sum_over_processes(const Communicator& communicator, double value);

// The whole vector at rank 0 (empty elsewhere) from every process's rows. Collective.
std::vector<double> gather_to_rank0(const Communicator& communicator,
                                    const std::vector<double>& local,
                                    const RowPartition& partition);

}  // namespace spk::app
