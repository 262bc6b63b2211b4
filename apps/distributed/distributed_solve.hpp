#pragma once
// `mpirun -np N spkrylov solve [CONFIG] [--set ...]` inside the plugin: the same run as one
// process, split over the processes of `world`. Rank 0 prints the report (with a row per
// process) and writes every output; the exit code is the same on every process.
#include <mpi.h>

#include "frontend/solve_command.hpp"

namespace spk::app {

// This process's launch, before the solve (the report's ProcessSetup, seconds).
struct LaunchTimes {
  double start_s = -1.0;    // process start to MPI_Init; < 0: unknown
  double mpi_init_s = 0.0;  // MPI_Init
};

// Collective over world. Errors that every process agreed on are thrown as Agreed<...>
// (distributed/agreed_errors.hpp); any other error came from one process only.
int run_distributed_solve(const SolveCommandOptions& options, MPI_Comm world,
                          const LaunchTimes& launch = {});

}  // namespace spk::app
