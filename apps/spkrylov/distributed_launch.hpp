#pragma once
// `mpirun -np N spkrylov solve run.yaml`. The CLI links no MPI, so that the same binary starts
// and solves as one process on a machine with no MPI installed. Under an MPI launcher it loads
// the distributed plugin, which does (frontend/plugin_abi.hpp), and hands it the
// solve. Why a plugin rather than a second executable: `mpirun -np N spkrylov ...` is the
// command users of every MPI code type, and a missing MPI library becomes a clear one-line
// error (or, with one process, a plain single-process solve) instead of the dynamic loader's
// message from every process.
#include <string>

#include "frontend/solve_command.hpp"

namespace spk::app {

// What the launcher's environment says: OpenMPI (OMPI_COMM_WORLD_SIZE/RANK), MPICH, Intel MPI
// and Slurm's PMI (PMI_SIZE/PMI_RANK), PMIx (PMIX_RANK; its size is not in the environment).
struct Launcher {
  bool present = false;
  int size = -1;                                        // -1: unknown
  int rank = -1;                                        // -1: unknown
  bool several_processes() const { return size != 1; }  // unknown counts as several
  bool prints() const { return rank <= 0; }             // rank 0 (or unknown) speaks
};

Launcher detect_launcher();

// The solve through the plugin: libspk_distributed.so next to the executable, or the file
// $SPK_DISTRIBUTED_PLUGIN names. When it (or the MPI library it needs) cannot be loaded, one
// process solves as usual after a notice; several fail with one line (from rank 0) and code 1.
int run_launched_solve(const SolveCommandOptions& options, const Launcher& launcher);

// `spkrylov info` and `bench` run as one process: under a launcher with several processes,
// rank 0 says so and every process returns 1.
int refuse_several_processes(const std::string& command, const Launcher& launcher);

}  // namespace spk::app
