#pragma once
// This process's share of the linear system of `mpirun -np N spkrylov solve`: its rows of the
// matrix, of b and of the known solution. Every process count gets the system one process
// solves, cut into contiguous row blocks (distributed.partition: nnz or rows):
//
//   generate, grid kinds   every process builds only its own rows (assemble_grid_rows), the
//                          partition from the entry counts in closed form: no process ever
//                          holds the whole matrix, whose rows may exceed 2^31
//     on the GPU path      (and steps <= 1) on its GPU, already split as the solver keeps them
//                          (device_grid_rows.hpp, DeviceProblemRows): the rows never exist on
//                          the host, and b = ones or A 1 (from_solution ones) is made with them
//   generate powerlaw,     rank 0 builds or reads the whole matrix (the single-process
//   rmat, circuit, beam3d, memory: about 12 bytes per entry for the CSR, more while a file
//   matrix.file            is parsed or a graph assembled), cuts it and sends each process
//                          its rows
//   rhs ones, random       each process its own rows (random: the single-process stream,
//                          skipped to the process's first row)
//   rhs file, load         read (load: the generator's, built) by rank 0, each process sent
//                          its rows
//   rhs from_solution      x* as ones or random, b = A x* with the halo exchange
//   one process, amg       the single-process problem (build_problem), whose block size,
//                          coordinates and near-null-space vectors the AMG takes
//   amg for systems        (block size > 1 or near_nullspace not constant) rank 0 builds the
//                          whole problem and partitions its nodes (rows / block_size, by
//                          entries or count), so every block is whole nodes; each process is
//                          sent its rows, b, and its nodes' coordinates or rows' vectors
//
// Every step that can fail on one process runs as an agreed step (agreed_errors.hpp).
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "distributed/communicator.hpp"
#include "distributed/device_grid_rows.hpp"
#include "distributed/row_partition.hpp"
#include "frontend/config/run_config.hpp"
#include "spmv/host/matrix_stats.hpp"
#include "spmv/host/row_block.hpp"

namespace spk::app {

// A grid kind's rows generated on this process's GPU, in the run's precision (one of the two).
struct DeviceProblemRows {
  std::optional<DeviceGridRows<float>> single;
  std::optional<DeviceGridRows<double>> double_;
  MatrixStats stats;  // this process's rows' (device_block_stats)

  template <class T>
  std::optional<DeviceGridRows<T>>& of() {
    if constexpr (std::is_same_v<T, float>)
      return single;
    else
      return double_;
  }
};

struct DistributedProblem {
  std::string name;  // as in the single-process report
  RowPartition partition;
  RowBlock<double> rows;                              // empty when device_rows holds them
  std::optional<DeviceProblemRows> device_rows;       // the rows generated on the GPU
  std::vector<double> rhs;                            // this process's rows of b (empty when the
                                                      // device rows hold b)
  std::optional<std::vector<double>> exact_solution;  // and of x* (from_solution)
  SolverOptions solver;  // the config's, with the AMG's inputs (set_amg_inputs) on one process
  double load_s = 0.0;
};

// Collective over the communicator.
DistributedProblem build_distributed_problem(const RunConfig& config,
                                             const Communicator& communicator);

}  // namespace spk::app
