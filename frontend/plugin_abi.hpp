#pragma once
// The one function the distributed plugin (libspk_distributed.so, apps/distributed/) exports
// to the spkrylov CLI (apps/spkrylov/distributed_launch.cpp): `spkrylov solve` under mpirun.
// C linkage and C types only, so that the CLI, which links no MPI, can load it with dlopen
// and call it without sharing any C++ object. The version is part of the symbol's name: a
// plugin with another request layout is not found, rather than misread.
extern "C" {

struct SpkDistributedSolveRequest {
  const char* config_path;       // "" for the built-in default problem
  const char* const* overrides;  // the --set values, override_count of them
  int override_count;
  int quiet;         // no live progress line
  int print_config;  // print the resolved config (rank 0) instead of solving
};

// Returns the process exit code (0 converged, 1 error, 2 not converged), the same on every
// process. Initializes and finalizes MPI.
typedef int (*SpkDistributedSolveFunction)(const SpkDistributedSolveRequest* request);
}

#define SPK_DISTRIBUTED_SOLVE_SYMBOL "spk_distributed_solve_v1"
#define SPK_DISTRIBUTED_PLUGIN_FILE "libspk_distributed.so"
